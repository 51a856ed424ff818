/**
 * The text of `bench:search`: pages and blocks in Russian with some English, made from a
 * vocabulary whose words come at Zipf's frequencies (a few dozen very common words, a long tail
 * of rare ones) and in their varied forms, so stems repeat as they do in real notes. The Russian
 * words and their forms are the Hunspell dictionary's (dictionary-ru: a lemma and its suffix
 * rules), the English ones a list of work words with their -s/-ed/-ing forms. Deterministic for a
 * seed. Also counts in how many blocks each stem occurs, from which the bench picks its queries.
 */
import dictionary from 'dictionary-ru';
import { foldWord, stemWord } from '../../server/search/terms';

/** A seeded random number in [0, 1) (mulberry32). */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One word of the vocabulary: its dictionary form and the forms it is written in. */
export interface Lemma {
  lemma: string;
  forms: string[];
  english: boolean;
}

/** Words that make up half of any Russian text; indexed like the others (search keeps no stop words). */
export const FUNCTION_WORDS =
  'и в не на с что по для это как а к из о но за от у до же то так все бы или только при уже если было мы мне вот там где когда еще без чтобы нет может надо можно тоже после об'.split(
    ' ',
  );

/** Common words of a team's notes, ahead of the dictionary's random ones. */
const COMMON_WORDS =
  'проект задача отчёт команда клиент встреча срок план работа документ система сервер пользователь страница запрос ошибка версия решение вопрос процесс результат время день неделя месяц год компания продукт рынок цена бюджет договор партнёр сотрудник отдел руководитель разработка тестирование релиз функция модуль интерфейс дизайн макет текст статья заметка идея цель метрика показатель анализ исследование обсуждать делать писать проверить готовить отправить получить новый важный большой первый последний следующий общий быстрый программа квартал конференция'.split(
    ' ',
  );

/** English work words: nouns (-s) and verbs (-s, -ed, -ing). */
const ENGLISH_NOUNS =
  'release build deploy server client request response error issue ticket sprint roadmap feature bug test review design draft report meeting deadline budget customer partner team product market price contract document page block table index query search result cache database schema migration backend frontend api endpoint token session user account workspace project task milestone goal metric dashboard chart log alert incident outage latency throughput memory disk network cluster node container image pipeline branch commit merge conflict patch version changelog note idea summary agenda decision owner stakeholder estimate invoice payment license vendor'.split(
    ' ',
  );
const ENGLISH_FUNCTION_WORDS = 'the to and of a in for is on with that this we it be at by as from are will not'.split(' ');
const ENGLISH_VERBS =
  'ship fix check update create delete move copy share invite plan discuss review approve reject merge test deploy measure track analyze improve reduce increase schedule cancel assign close open write read send receive publish archive restore migrate index search sort filter export import upload download'.split(
    ' ',
  );

function englishForms(word: string, verb: boolean): string[] {
  if (!verb)
    return [word, word.endsWith('s') || word.endsWith('x') || word.endsWith('h') ? `${word}es` : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`];
  const stem = word.endsWith('e') ? word.slice(0, -1) : word;
  return [word, word.endsWith('s') || word.endsWith('x') || word.endsWith('h') ? `${word}es` : `${word}s`, `${stem}ed`, `${stem}ing`];
}

/** The dictionary's lower-case words with every form its suffix rules give. */
function russianLexicon(): Map<string, string[]> {
  const rules = new Map<string, Array<{ strip: string; add: string; condition: RegExp }>>();
  for (const line of Buffer.from(dictionary.aff).toString('utf8').split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] !== 'SFX' || parts.length < 5) continue;
    const [, flag, strip, add, condition] = parts;
    const list = rules.get(flag) ?? [];
    list.push({
      strip: strip === '0' ? '' : strip,
      add: add === '0' ? '' : add.split('/')[0],
      condition: new RegExp(`${condition === '.' ? '' : condition}$`),
    });
    rules.set(flag, list);
  }
  const lexicon = new Map<string, string[]>();
  for (const line of Buffer.from(dictionary.dic).toString('utf8').split('\n').slice(1)) {
    const [word, flags = ''] = line.trim().split('/');
    if (!/^[а-яё]{2,16}$/.test(word)) continue;
    const forms = new Set([word]);
    for (const flag of flags) {
      for (const rule of rules.get(flag) ?? []) {
        if (rule.condition.test(word) && word.endsWith(rule.strip)) forms.add(word.slice(0, word.length - rule.strip.length) + rule.add);
      }
    }
    lexicon.set(word, [...forms]);
  }
  return lexicon;
}

/**
 * The vocabulary in order of frequency: function words, the common words, then `size` of the
 * dictionary's words (shorter ones tend to come first, as in real text), with the English words
 * spread among them from rank 30 on.
 */
export function vocabulary(size: number, random: () => number): Lemma[] {
  const lexicon = russianLexicon();
  const russian = (word: string): Lemma => ({ lemma: word, forms: lexicon.get(word) ?? [word], english: false });
  const head = [...FUNCTION_WORDS.map((w): Lemma => ({ lemma: w, forms: [w], english: false })), ...COMMON_WORDS.map(russian)];
  const taken = new Set(head.map((l) => l.lemma));
  const pool = [...lexicon.keys()].filter((w) => w.length >= 4 && !taken.has(w));
  const picked: Array<{ lemma: Lemma; order: number }> = [];
  while (picked.length < size && pool.length > 0) {
    const at = Math.floor(random() * pool.length);
    const word = pool[at];
    pool[at] = pool[pool.length - 1];
    pool.pop();
    picked.push({ lemma: russian(word), order: word.length + random() * 8 });
  }
  const tail = picked.sort((a, b) => a.order - b.order).map((p) => p.lemma);
  const english = [...ENGLISH_NOUNS.map((w) => ({ w, verb: false })), ...ENGLISH_VERBS.map((w) => ({ w, verb: true }))].map(({ w, verb }): Lemma => ({
    lemma: w,
    forms: englishForms(w, verb),
    english: true,
  }));
  const words = [...head];
  const rest = [...tail];
  // The English words at ranks spread over the whole list (one in every so many).
  const every = Math.max(2, Math.floor((head.length + rest.length) / english.length));
  let e = 0;
  for (let i = 0; rest.length > 0 || e < english.length; i++) {
    if (i >= 30 && i % every === 0 && e < english.length) words.push(english[e++]);
    else if (rest.length > 0) words.push(rest.shift() as Lemma);
    else words.push(english[e++]);
  }
  return words;
}

/** Picks ranks 0 … n-1 with probability ∝ 1/(rank+1+q)^s (Zipf–Mandelbrot: q flattens the head). */
export function zipf(n: number, s: number, q: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cumulative[r] = sum += 1 / (r + 1 + q) ** s;
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface CorpusBlock {
  type: 'text' | 'heading2' | 'heading3' | 'bulletList' | 'checkbox';
  text: string;
}

export interface Corpus {
  words: Lemma[];
  titles: string[];
  /** Each page's blocks, in order. */
  blocks: CorpusBlock[][];
  /** In how many blocks each stem occurs. */
  blockFrequency: Map<string, number>;
  /** In how many titles each stem occurs. */
  titleFrequency: Map<string, number>;
  wordsTotal: number;
}

/**
 * `pages` titles and `blocks` blocks spread over the pages unevenly (lognormal: many short pages,
 * some long ones). A block is a sentence of 4–30 words (headings 2–6); one in twelve is in
 * English, and a Russian one holds an English word now and then, a number now and then.
 */
export function makeCorpus(pages: number, blocks: number, seed = 18, vocabularySize = 10_000): Corpus {
  const random = randomSource(seed);
  const words = vocabulary(vocabularySize, random);
  const russianRanks = words.map((w, i) => (w.english ? -1 : i)).filter((i) => i >= 0);
  // English blocks: English function words, then the English words in their order.
  const englishWords = [...ENGLISH_FUNCTION_WORDS.map((w): Lemma => ({ lemma: w, forms: [w], english: true })), ...words.filter((w) => w.english)];
  // Shares of the words written: the commonest ≈ 5 %, the top fifty ≈ 45 %, a few thousand under 30 times in all.
  const anyWord = zipf(words.length, 1.1, 2.5, random);
  const englishWord = zipf(englishWords.length, 1.1, 2.5, random);
  const contentFrom = FUNCTION_WORDS.length;
  const contentWord = zipf(russianRanks.length - contentFrom, 1.0, 0, random);
  const form = (lemma: Lemma) => (random() < 0.45 ? lemma.forms[0] : lemma.forms[Math.floor(random() * lemma.forms.length)]);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  let total = 0;

  const sentence = (count: number, english: boolean): string => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      let word: string;
      if (random() < 0.02) word = random() < 0.5 ? String(int(1, 5000)) : `${int(1, 99)}%`;
      else if (english) word = form(englishWords[englishWord()]);
      else {
        const lemma = words[anyWord()];
        word = form(lemma);
      }
      if (i > 0 && i < count - 1 && random() < 0.08) word += ',';
      out.push(word);
    }
    total += count;
    const text = out.join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}`;
  };

  const titles: string[] = [];
  const titleFrequency = new Map<string, number>();
  for (let p = 0; p < pages; p++) {
    const count = int(1, 4);
    const parts: string[] = [];
    for (let i = 0; i < count; i++) parts.push(form(words[russianRanks[contentFrom + contentWord()]]));
    const title = parts.join(' ');
    titles.push(`${title[0].toUpperCase()}${title.slice(1)}`);
    for (const stem of new Set(parts.map((w) => stemWord(foldWord(w))))) titleFrequency.set(stem, (titleFrequency.get(stem) ?? 0) + 1);
  }

  // Blocks per page: lognormal weights, then each block drawn to a page by them.
  const weights = Array.from({ length: pages }, () => Math.exp(1.1 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())));
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  const counts = new Array<number>(pages).fill(0);
  for (let b = 0; b < blocks; b++) {
    const x = random() * cumulative[pages - 1];
    let lo = 0;
    let hi = pages - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    counts[lo] += 1;
  }
  const blockFrequency = new Map<string, number>();
  const pageBlocks = counts.map((count) =>
    Array.from({ length: count }, (): CorpusBlock => {
      const kind = random();
      const type: CorpusBlock['type'] = kind < 0.7 ? 'text' : kind < 0.74 ? 'heading2' : kind < 0.78 ? 'heading3' : kind < 0.9 ? 'bulletList' : 'checkbox';
      const heading = type.startsWith('heading');
      const text = sentence(heading ? int(2, 6) : type === 'text' ? int(4, 30) : int(3, 12), random() < 1 / 12);
      for (const stem of new Set([...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => stemWord(foldWord(m[0])))))
        blockFrequency.set(stem, (blockFrequency.get(stem) ?? 0) + 1);
      return { type, text };
    }),
  );
  return { words, titles, blocks: pageBlocks, blockFrequency, titleFrequency, wordsTotal: total };
}
