import type { AiAction } from '../../schema/ai';

/** The languages the prompts are written in; text in any other language gets the English ones. */
export type PromptLanguage = 'ru' | 'en';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

const CYRILLIC = /[\u0400-\u04ff]/g;
const LATIN = /[A-Za-z]/g;

/**
 * The language of a text by its letters: Russian when Cyrillic letters are at least as many as
 * Latin ones. A text without letters defers to the next one (the instruction, then the context);
 * none at all: Russian (the product's language).
 */
export function detectLanguage(...texts: string[]): PromptLanguage {
  for (const text of texts) {
    const sample = text.length > 4000 ? text.slice(0, 4000) : text;
    const cyrillic = sample.match(CYRILLIC)?.length ?? 0;
    const latin = sample.match(LATIN)?.length ?? 0;
    if (cyrillic + latin === 0) continue;
    return cyrillic >= latin ? 'ru' : 'en';
  }
  return 'ru';
}

const PROMPTS: Record<PromptLanguage, Record<AiAction, string> & { context: string; improveContext: string }> = {
  ru: {
    generate: [
      'Ты — помощник по письму, встроенный в редактор документов.',
      'Напиши текст по просьбе пользователя. Пиши на том языке, на котором написана просьба.',
      'Ответь только самим текстом: без вступлений («Конечно», «Вот текст»), пояснений и обращений к пользователю.',
      'Можно использовать Markdown: заголовки (#, ##), списки (-, 1.), **жирный**, *курсив*. Без таблиц и HTML.',
    ].join('\n'),
    continue: [
      'Ты — помощник по письму, встроенный в редактор документов.',
      'Продолжи текст пользователя с того места, где он заканчивается: на том же языке, в том же стиле и тоне, от того же лица, с той же терминологией.',
      'Не повторяй и не пересказывай уже написанное, не подводи итогов. Напиши один–три абзаца.',
      'Ответь только продолжением, без вступлений и пояснений. Markdown — только если он уже есть в тексте.',
    ].join('\n'),
    improve: [
      'Ты — внимательный корректор и редактор.',
      'Исправь в тексте пользователя орфографию, пунктуацию, грамматику и стиль, не меняя его смысла, языка, тона и строения (абзацы, списки, разметка Markdown).',
      'Ничего не добавляй от себя и не сокращай содержание. Имена, термины, числа и ссылки оставь как есть.',
      'Разметку оставь в точности как есть, на тех же словах: **жирный**, *курсив* и _курсив_, ~~зачёркнутый~~, `код`, [текст ссылки](адрес), теги <u>, <b>, <i>, <s>, экранирование обратной чертой (\\*). Адреса ссылок и текст в `код` не меняй. Новой разметки не добавляй.',
      'Текст может быть частью предложения: тогда не добавляй заглавную букву в начале и точку в конце.',
      'Ответь только исправленным текстом — без кавычек вокруг него, пояснений и комментариев. Если исправлять нечего, ответь тем же текстом.',
    ].join('\n'),
    context: 'Текст документа рядом с этим местом — для темы, стиля и языка; не повторяй его:',
    improveContext: 'Текст документа рядом — только для понимания, его не исправляй и не выводи:',
  },
  en: {
    generate: [
      'You are a writing assistant built into a document editor.',
      "Write the text the user asks for, in the language of the user's request.",
      'Answer with the text only: no preamble ("Sure", "Here is"), explanations or remarks to the user.',
      'You may use Markdown: headings (#, ##), lists (-, 1.), **bold**, *italic*. No tables, no HTML.',
    ].join('\n'),
    continue: [
      'You are a writing assistant built into a document editor.',
      "Continue the user's text from where it ends: in the same language, style and tone, in the same person, with the same terms.",
      'Do not repeat or retell what is already written and do not sum up. Write one to three paragraphs.',
      'Answer with the continuation only, no preamble or explanations. Use Markdown only if the text already does.',
    ].join('\n'),
    improve: [
      'You are a careful proofreader and editor.',
      "Fix the spelling, punctuation, grammar and style of the user's text without changing its meaning, language, tone or structure (paragraphs, lists, Markdown).",
      'Add nothing and leave nothing out. Keep names, terms, numbers and links as they are.',
      'Keep the formatting marks exactly as they are, on the same words: **bold**, *italic* and _italic_, ~~strike-through~~, `code`, [link text](address), the tags <u>, <b>, <i>, <s>, backslash escapes (\\*). Do not change link addresses or the text inside `code`. Add no new formatting.',
      'The text may be part of a sentence: then do not add a capital letter at its start or a full stop at its end.',
      'Answer with the improved text only: no quotes around it, no explanations or comments. If nothing needs fixing, answer with the same text.',
    ].join('\n'),
    context: 'Text of the document around this place, for topic, style and language; do not repeat it:',
    improveContext: 'Text of the document around it, for understanding only; do not fix or output it:',
  },
};

/** Sampling temperature per action: improve stays close to the text. */
export const TEMPERATURE: Record<AiAction, number> = { generate: 0.7, continue: 0.7, improve: 0.2 };

/**
 * The chat messages of a request: a system prompt in the text's language (Russian or English)
 * with the surrounding text as context, and the user's text (generate: the instruction; continue:
 * the text to go on from; improve: the text to improve) as the user message.
 */
export function buildMessages(action: AiAction, text: string, context: string): ChatMessage[] {
  const language = detectLanguage(text, context);
  const prompts = PROMPTS[language];
  const around = context.trim();
  const system = around
    ? `${prompts[action]}\n\n${action === 'improve' ? prompts.improveContext : prompts.context}\n<document>\n${around}\n</document>`
    : prompts[action];
  return [
    { role: 'system', content: system },
    { role: 'user', content: text },
  ];
}
