import Typograf from 'typograf';
import type { AiAction } from '../../schema/ai';
import { AI_MESSAGES, AiError } from './errors';
import { detectLanguage, type PromptLanguage } from './prompts';
import type { AiProvider } from './provider';
import type { SpellChecker } from './spelling';

/**
 * Typograf rules left off: non-breaking spaces (invisible, and they would make every text
 * "changed"), and rules that rewrite content rather than typography (ISO dates to Russian ones,
 * phone numbers, `!=` to ≠, 1/2 to ½, a space after `!` that breaks `a != b`).
 */
const TYPOGRAF_OFF = [
  'common/nbsp/*',
  'ru/nbsp/*',
  'ru/date/fromISO',
  'ru/other/phone-number',
  'common/number/mathSigns',
  'common/number/fraction',
  'common/space/afterExclamationMark',
  'common/html/*',
];

/**
 * Left exactly as they are, by typography and spelling alike: fenced and inline code, Markdown
 * escapes (`\*`, `\"`; `https\://`, an address kept as text), links and e-mail addresses, the
 * Markdown marks at a line's start (list items, quotes, headings, checkboxes — a list's `- ` is
 * not a dash), comparison operators (`a != b` is not `a!= b`), and the delimiters of **bold**,
 * *italic*, _italic_ and ~~struck out~~ text (the editor sends the marks of the text to improve
 * so; hidden, they let quotes next to them be set: `**"a"**` → `**«a»**`). Typograf reads
 * `<b>`, `<u>`… tags as HTML itself.
 */
const PROTECTED: RegExp[] = [
  /```[\s\S]*?(?:```|$)/g,
  /`[^`\n]*`/g,
  /\b(?:https?|ftp)\\?:\/\/\S+/gi,
  /\bwww\\?\.\S+/gi,
  /\\[\\`*_{}[\]()#+\-.!~<>|"'&:]/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /\]\([^)\n]*\)/g,
  /^[ \t]*(?:[-*+]|\d+[.)]|>|#{1,6})(?:[ \t]+\[[ xX]\])?[ \t]+/gm,
  /[!=<>]=+/g,
  /\*+|~~+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu,
];

/** Frequent misspellings the dictionary rule cannot settle (several suggestions, or a wrong one). */
const COMMON_MISSPELLINGS: Record<string, string> = {
  вообщем: 'в общем',
  вобщем: 'в общем',
  извените: 'извините',
  сдесь: 'здесь',
  будующее: 'будущее',
  будующий: 'будущий',
  следущий: 'следующий',
  следущая: 'следующая',
  следущее: 'следующее',
  чуствовать: 'чувствовать',
  прийдти: 'прийти',
  расчитать: 'рассчитать',
};

/** Time the dictionary may spend on suggestions per request (unknown words cost up to a second each). */
const SPELLING_BUDGET_MS = 3000;
const WORD = /[А-Яа-яЁё]+/g;
const WORD_NEIGHBOUR = /[\p{L}\p{M}\p{N}_'’-]/u;

const typografs = new Map<PromptLanguage, Typograf>();
function typografFor(language: PromptLanguage): Typograf {
  let typograf = typografs.get(language);
  if (!typograf) {
    typograf = new Typograf({ locale: language === 'ru' ? ['ru', 'en-US'] : ['en-US'], disableRule: TYPOGRAF_OFF });
    for (const tag of PROTECTED) typograf.addSafeTag(tag);
    typografs.set(language, typograf);
  }
  return typograf;
}

const INVISIBLE_SPACES = /[\u00a0\u202f\u2009]/g;

/**
 * Typography by the rules of the text's language (Russian: «ёлочки», „лапки“ inside, — dashes, …;
 * English: “quotes”, — dashes, …). The non-breaking spaces Typograf puts before dashes become
 * plain spaces unless the text had such spaces already: the editor's text stays plain.
 */
export function typography(text: string): string {
  const result = typografFor(languageOf(text)).execute(text);
  INVISIBLE_SPACES.lastIndex = 0;
  return INVISIBLE_SPACES.test(text) ? result : result.replace(INVISIBLE_SPACES, ' ');
}

/** The text with every protected span replaced by spaces of the same length (offsets stay). */
function masked(text: string): string {
  let result = text;
  for (const pattern of PROTECTED) result = result.replace(pattern, (match) => ' '.repeat(match.length));
  return result;
}

/** The language of the text's own words (the Latin letters of a link's address or of code do not make Russian text English). */
function languageOf(text: string): PromptLanguage {
  return detectLanguage(masked(text), text);
}

interface Word {
  start: number;
  word: string;
  /** The first word of a sentence (or of a line). */
  sentenceStart: boolean;
}

/** What may stand between a sentence's end and its next word: spaces, opening quotes and brackets, a dash. */
const SENTENCE_GAP = new Set([' ', '\t', '\u00a0', '«', '"', '„', '“', "'", '(', '[', '—', '–', '-']);
const SENTENCE_END = new Set(['\n', '.', '!', '?', '…']);

/** Whether the word at `start` starts a sentence: the text's or a line's start, or after . ! ? … (and a gap). */
function startsSentence(plain: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && SENTENCE_GAP.has(plain[i])) i--;
  return i < 0 || SENTENCE_END.has(plain[i]);
}

/** Russian words that may be checked: outside protected spans, not part of a longer token (hyphenated, mixed with Latin or digits). */
function wordsOf(text: string): Word[] {
  const plain = masked(text);
  const words: Word[] = [];
  for (const match of plain.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    if (start > 0 && WORD_NEIGHBOUR.test(plain[start - 1])) continue;
    if (end < plain.length && WORD_NEIGHBOUR.test(plain[end])) continue;
    words.push({ start, word: match[0], sentenceStart: startsSentence(plain, start) });
  }
  return words;
}

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/** May the dictionary judge this word? Lower case, or capitalized at a sentence's start; 4–24 letters. */
function checkable({ word, sentenceStart }: Word): boolean {
  if (word.length < 4 || word.length > 24 || word.toLowerCase() in COMMON_MISSPELLINGS) return false;
  const lower = word.toLowerCase();
  return word === lower || (sentenceStart && word === capitalized(lower));
}

/**
 * Spelling: a word the Russian dictionary does not know is replaced only when it is 4–24 letters
 * long, written in lower case (or capitalized as the first word of a sentence, and then only by
 * a common word, never a name), and the dictionary has exactly one suggestion for it, one edit
 * away; or when it is one of a few frequent misspellings (also capitalized). Other capitalized
 * words (names), words in code, links and hyphenated words are never touched.
 */
export async function spelling(text: string, checker: SpellChecker): Promise<string> {
  const words = wordsOf(text);
  const candidates = [...new Set(words.filter(checkable).map((w) => w.word))];
  const fixes: Record<string, string> = candidates.length ? await checker.fixes(candidates, SPELLING_BUDGET_MS) : {};
  let result = '';
  let at = 0;
  for (const { start, word } of words) {
    const lower = word.toLowerCase();
    const common = COMMON_MISSPELLINGS[lower];
    const fix = common && (word === lower || word === capitalized(lower)) ? (word === lower ? common : capitalized(common)) : fixes[word];
    if (!fix) continue;
    result += text.slice(at, start) + fix;
    at = start + word.length;
  }
  return result + text.slice(at);
}

/** The offline improvement of a text: typography, then spelling (when a checker is given). */
export async function improveOffline(text: string, checker: SpellChecker | null, onSpellingFailure?: (error: unknown) => void): Promise<string> {
  let result = typography(text);
  if (checker && languageOf(text) === 'ru') {
    try {
      result = await spelling(result, checker);
    } catch (error) {
      // Without the dictionary the typography still stands.
      onSpellingFailure?.(error);
    }
  }
  return result;
}

/**
 * The provider of improve when no model is configured (docs/ai.md «Offline improve»): the whole
 * improved text at once, or 'nothing to change' when it is the same (leading and trailing
 * whitespace aside). Generate and continue cannot work without a model.
 */
export function createOfflineProvider(checker: SpellChecker | null, onSpellingFailure?: (error: unknown) => void): AiProvider {
  return {
    name: 'offline',
    async *stream(action: AiAction, text: string) {
      if (action !== 'improve') throw new AiError(AI_MESSAGES.unexpected, `offline: ${action} needs a model`);
      const result = (await improveOffline(text, checker, onSpellingFailure)).trim();
      if (result === text.trim()) throw new AiError(AI_MESSAGES.nothingToChange);
      yield result;
    },
  };
}
