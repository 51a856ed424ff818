import { startOpenAiServer } from '../../test/helpers/openaiServer';
import { freePort } from '../../test/helpers/serverProcess';
import { AI_MESSAGES, AiError, messageForStatus } from './errors';
import { improveOffline, typography } from './offline';
import { createOpenAiProvider } from './openai';
import { buildMessages, detectLanguage } from './prompts';
import { cleanAnswer } from './runner';
import { createSpellChecker, type SpellChecker } from './spelling';
import { sseData } from './sse';

/** The pieces of the AI assistant that need no server (the rest: server/routes/ai.int.test.ts). */

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function* bytes(...chunks: Array<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
}

async function* strings(...pieces: string[]): AsyncGenerator<string> {
  yield* pieces;
}

async function failure(promise: Promise<unknown>): Promise<AiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AiError) return error;
    throw error;
  }
  throw new Error('it did not fail');
}

describe('sseData', () => {
  const stream = 'data: {"a":"Ёлка"}\n\n: keep-alive\n\nevent: message\nid: 7\nretry: 10\ndata: line one\ndata:line two\n\ndata: [DONE]\n\n';
  const expected = ['{"a":"Ёлка"}', 'line one\nline two', '[DONE]'];

  test('events as they complete: comments, fields, several data lines', async () => {
    expect(await collect(sseData(bytes(stream)))).toEqual(expected);
  });

  test('the same events whatever the chunking: cut at every byte (inside UTF-8 characters and line ends)', async () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const encoded = new TextEncoder().encode(stream.replace(/\n/g, eol));
      for (let cut = 1; cut < encoded.length; cut++) {
        expect(await collect(sseData(bytes(encoded.subarray(0, cut), encoded.subarray(cut))))).toEqual(expected);
      }
      // And one byte at a time.
      expect(await collect(sseData(bytes(...Array.from(encoded, (b) => Uint8Array.of(b)))))).toEqual(expected);
    }
  });

  test('an event not closed by a blank line at the end is still given', async () => {
    expect(await collect(sseData(bytes('data: a\n\ndata: [DONE]')))).toEqual(['a', '[DONE]']);
  });

  test('bytes that are not UTF-8, or lines that are no event-stream field: failed to decode', async () => {
    expect((await failure(collect(sseData(bytes(Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xc3, 0x28, 0x0a)))))).message).toBe(AI_MESSAGES.decode);
    expect((await failure(collect(sseData(bytes('<html>\n'))))).message).toBe(AI_MESSAGES.decode);
    expect((await failure(collect(sseData(bytes('{"choices":[]}\n'))))).message).toBe(AI_MESSAGES.decode);
  });
});

describe('cleanAnswer', () => {
  test('drops leading whitespace and a leading <think> block, even split across pieces', async () => {
    expect((await collect(cleanAnswer(strings('\n', ' ', 'Привет', ' мир')))).join('')).toBe('Привет мир');
    expect((await collect(cleanAnswer(strings('<th', 'ink>мысли</thi', 'nk>', '\n\n', 'Ответ', '.')))).join('')).toBe('Ответ.');
    expect(await collect(cleanAnswer(strings('', 'a', '', 'b')))).toEqual(['a', 'b']);
    // A text that only starts like the tag is given in full.
    expect((await collect(cleanAnswer(strings('<th', 'e end>')))).join('')).toBe('<the end>');
    expect((await collect(cleanAnswer(strings('<th')))).join('')).toBe('<th');
  });

  test('the first piece leaves at once unless it could still become <think>', async () => {
    const seen: string[] = [];
    async function* source() {
      yield 'Hello';
      // Had the first piece been held back, it would not be seen yet.
      expect(seen).toEqual(['Hello']);
      yield ' there';
    }
    for await (const piece of cleanAnswer(source())) seen.push(piece);
    expect(seen).toEqual(['Hello', ' there']);
  });
});

describe('errors and prompts', () => {
  test('HTTP statuses map to the spec’s messages and reasons', () => {
    expect([429, 500, 502, 400, 401, 403, 402, 404, 409, 418].map(messageForStatus)).toEqual([
      'Rate limit exceeded',
      'Internal server error',
      'Internal server error',
      'Bad request',
      'Invalid authentication credentials',
      'Invalid authentication credentials',
      'Insufficient account balance',
      'Requested resource not found',
      'Unexpected API response',
      'Unexpected API response',
    ]);
    expect(new AiError(AI_MESSAGES.timeout).reason).toBe('timeoutError');
    expect(new AiError(AI_MESSAGES.sending).reason).toBe('unknownError');
  });

  test('the language of the prompt follows the text, then the context', () => {
    expect(detectLanguage('Привет, world')).toBe('ru');
    expect(detectLanguage('Hello, мир and all')).toBe('en');
    expect(detectLanguage('123', 'Контекст')).toBe('ru');
    expect(detectLanguage('12 + 3')).toBe('ru');
    const [system, user] = buildMessages('improve', 'Fix this text', 'Around it');
    expect(system.content).toContain('proofreader');
    expect(system.content).toContain('<document>\nAround it\n</document>');
    expect(user).toEqual({ role: 'user', content: 'Fix this text' });
    expect(buildMessages('generate', 'Напиши план', '')[0].content).not.toContain('<document>');
  });

  test('a provider that cannot be reached: failed to send request', async () => {
    const port = await freePort();
    const provider = createOpenAiProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, timeoutMs: 1000, rateLimitPerMinute: 0, maxTokens: 10, spellcheck: false });
    const error = await failure(collect(provider.stream('generate', 'Привет', '', new AbortController().signal)));
    expect(error.message).toBe('failed to send request');
    expect(error.reason).toBe('unknownError');
  });
});

describe('the OpenAI-compatible provider over a real socket', () => {
  test('a stream cut at awkward places over a real socket: mid-line, between CR and LF, inside a character, comments, multi-line data', async () => {
    const stream = [
      ': keep-alive\r\n\r\n',
      'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\r\n\r\n',
      // One event in two data lines (joined by LF, still JSON), after fields that are ignored.
      'event: message\nid: 1\nretry: 3000\ndata: {"choices":[{"delta":\ndata: {"content":"Ёлка"}}]}\n\n',
      // Lines ended by a lone CR.
      'data: {"choices":[{"delta":{"content":" — зелёная"}}]}\r\r',
      ':ping\n\n',
      'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\r\n\r\n',
      // The last event without its blank line.
      'data: [DONE]',
    ].join('');
    const bytes = Buffer.from(stream);
    const at = (text: string, offset = 0) => {
      const index = bytes.indexOf(Buffer.from(text));
      expect(index).toBeGreaterThanOrEqual(0);
      return index + offset;
    };
    const cuts = [
      at(': keep', 3), // inside a comment
      at('\r\n\r\n', 1), // between CR and LF
      at('data: {"choices":[{"delta":{"role"', 2), // inside the field name
      at('\ndata: {"content"', 1), // between the two data lines of one event
      at('Ёлка', 1), // inside a two-byte character
      at('зелёная', 5), // inside another
      at(' — ', 2), // inside the three-byte dash
      at('\r\r', 1), // between two lone CRs
      at(':ping', 2), // inside the second comment
      at('[DONE]', 3),
    ].sort((a, b) => a - b);
    const chunks = cuts.map((cut, i) => bytes.subarray(i === 0 ? 0 : cuts[i - 1], cut)).concat(bytes.subarray(cuts[cuts.length - 1]));
    const fake = await startOpenAiServer();
    try {
      fake.enqueue({ kind: 'raw', chunks, delayMs: 5 });
      const provider = createOpenAiProvider({ baseUrl: fake.url, timeoutMs: 1000, rateLimitPerMinute: 0, maxTokens: 10, spellcheck: false });
      expect(await collect(provider.stream('continue', 'Привет', '', new AbortController().signal))).toEqual(['Ёлка', ' — зелёная']);
    } finally {
      await fake.close();
    }
  });
});

describe('offline improve', () => {
  test('typography: Russian quotes (nested), dashes, ellipsis, spaces around punctuation; no invisible spaces', () => {
    expect(typography('Мы "говорили" о "книге "Война и мир"" - долго... Да , так.')).toBe('Мы «говорили» о «книге „Война и мир“» — долго… Да, так.');
    expect(typography('A "quote" - here...')).toBe('A “quote” — here…');
    expect(typography('Слово - слово')).not.toMatch(/[\u00a0\u202f]/);
  });

  test('typography leaves code, links, addresses and Markdown marks alone', () => {
    const text =
      '- пункт "один"\n1. раз - два\n> цитата\n# Заголовок\nкод `a - "b"` и https://ex.com/a--b?q="1" и a-b@ex.com и https\\://ex.com/x--y?"z" и www\\.ex.com/"q"\n```\nx = "a" - b\n```';
    expect(typography(text)).toBe(
      '- пункт «один»\n1. раз — два\n> цитата\n# Заголовок\nкод `a - "b"` и https://ex.com/a--b?q="1" и a-b@ex.com и https\\://ex.com/x--y?"z" и www\\.ex.com/"q"\n```\nx = "a" - b\n```',
    );
    // What would change meaning stays: dates, phone numbers, !=, fractions.
    const kept = 'Дата 2024-01-05, тел. +7 999 123-45-67, a != b, 1/2.';
    expect(typography(kept)).toBe(kept);
  });

  test('typography keeps the marks the editor sends: **bold**, `code`, link addresses; quotes next to marks are set', () => {
    const text =
      'Это **жирный** "текст" - `код "x" -- y...` и [ссылка "a"](https://ex.com/a--b?q="1"&r=...) и https://ex.com/c--d?"e"...\n**"Цитата"**, _"курсив"_, ~~"старое"~~, <u>"черта"</u>, слово<b>(а)</b>слово, 2\\*3\\*4 -- конец...';
    expect(typography(text)).toBe(
      'Это **жирный** «текст» — `код "x" -- y...` и [ссылка «a»](https://ex.com/a--b?q="1"&r=...) и https://ex.com/c--d?"e"...\n**«Цитата»**, _«курсив»_, ~~«старое»~~, <u>«черта»</u>, слово<b>(а)</b>слово, 2\\*3\\*4 — конец…',
    );
    // The prompt asks a model to keep them as well.
    expect(buildMessages('improve', 'Это **текст**', '')[0].content).toContain('**жирный**');
    expect(buildMessages('improve', 'This **text**', '')[0].content).toContain('**bold**');
  });

  describe('with the Russian dictionary', () => {
    let checker: SpellChecker;
    beforeAll(() => {
      checker = createSpellChecker();
    });
    afterAll(() => checker.close());

    test('fixes a lower-case misspelling with one close suggestion, and frequent ones; leaves names, code and ambiguous words', async () => {
      const text = 'Вообщем, програмист пришёл сдесь. Карова ест траву, а карова — нет. Иваненко и Москва; `програмист`; кто-нибудь.';
      expect(await improveOffline(text, checker)).toBe(
        'В общем, программист пришёл здесь. Карова ест траву, а карова — нет. Иваненко и Москва; `програмист`; кто-нибудь.',
      );
      // The first word of a sentence is fixed into a common word; a name is not "fixed" (Сидоренков → Сидоренко), nor a capital mid-sentence.
      expect(await improveOffline('Пожалуста, ждите. Сидоренков пришёл.\n- Обезательно придём, сказал Симпотичный.', checker)).toBe(
        'Пожалуйста, ждите. Сидоренков пришёл.\n- Обязательно придём, сказал Симпотичный.',
      );
    }, 30_000);

    test('words inside marks are fixed, the marks stay', async () => {
      expect(await improveOffline('Мы **програмист** и _пожалуста_, и ~~обезательно~~ `програмист` [програмист](https://ex.com/програмист).', checker)).toBe(
        'Мы **программист** и _пожалуйста_, и ~~обязательно~~ `програмист` [программист](https://ex.com/програмист).',
      );
    }, 30_000);

    test('inflected forms are known by their suffixes: left as they are, and their misspellings fixed', async () => {
      expect(await improveOffline('Программистами пришли красивейшие коллекции, написанных граматиками програмистами.', checker)).toBe(
        'Программистами пришли красивейшие коллекции, написанных грамматиками программистами.',
      );
    }, 30_000);

    test('English text: typography only', async () => {
      expect(await improveOffline('Teh "cat" - sat...', checker)).toBe('Teh “cat” — sat…');
    });
  });
});
