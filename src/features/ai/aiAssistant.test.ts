import { Editor, Node, Transforms } from 'slate';
import { createPageEditor } from '../../editor/pageEditor';
import { AI_ERROR_MESSAGES } from '../../../schema/ai';
import type { BlockElement } from '../../../schema/slate';
import { ApiRequestError } from '../../app/api';
import { failureOfRequest } from './aiClient';
import { insertAiResult } from './aiInsert';
import { nextPhase, type AiPhase } from './aiState';
import { slashAiItems, slashItems } from '../../editor/slashMenu';
import { CONTEXT_BUDGET, CONTINUE_BUDGET, contextAround, continueInput, improveInput } from './aiText';

/*
 * The assistant without the browser: its state machine, what it sends (bounded), and how an
 * accepted result goes into the document (markdown → blocks, one undo step).
 */

const title = (text = 'План'): BlockElement => ({ type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text }] });
const block = (type: BlockElement['type'], uid: string, text: string, extra: Record<string, unknown> = {}): BlockElement =>
  ({ type, uid, version: 1, children: [{ text }], ...extra }) as BlockElement;
const para = (uid: string, text: string) => block('textBlock', uid, text);

function editorWith(blocks: BlockElement[]) {
  const editor = createPageEditor();
  editor.children = blocks;
  Editor.normalize(editor, { force: true });
  return editor;
}

/** The blocks after the title as "type:depth:text". */
const shape = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as BlockElement).type}:${(n as BlockElement).depth ?? 0}:${Node.string(n)}`);

describe('the state machine (spec: rest, pending(sending), pending(receiving), result or error)', () => {
  it('goes rest → sending → receiving (text growing) → result', () => {
    let phase: AiPhase = { status: 'rest' };
    phase = nextPhase(phase, { type: 'send' });
    expect(phase).toEqual({ status: 'pending', reason: 'sending', text: '' });
    phase = nextPhase(phase, { type: 'delta', text: 'Один' });
    expect(phase).toEqual({ status: 'pending', reason: 'receiving', text: 'Один' });
    phase = nextPhase(phase, { type: 'delta', text: 'Один, два' });
    phase = nextPhase(phase, { type: 'result', text: 'Один, два, три' });
    expect(phase).toEqual({ status: 'result', text: 'Один, два, три' });
    // A late piece or failure changes nothing once the result is there.
    expect(nextPhase(phase, { type: 'delta', text: 'x' })).toBe(phase);
    expect(nextPhase(phase, { type: 'fail', reason: 'timeoutError', message: AI_ERROR_MESSAGES.timeout })).toBe(phase);
    // «Попробовать ещё раз» sends again.
    expect(nextPhase(phase, { type: 'send' })).toEqual({ status: 'pending', reason: 'sending', text: '' });
  });

  it('fails from pending with the reason; an empty result is an error, not an empty insert', () => {
    const sending: AiPhase = { status: 'pending', reason: 'sending', text: '' };
    expect(nextPhase(sending, { type: 'fail', reason: 'rateLimitError', message: AI_ERROR_MESSAGES.rateLimit, retryAfter: 12 })).toEqual({
      status: 'error',
      reason: 'rateLimitError',
      message: AI_ERROR_MESSAGES.rateLimit,
      retryAfter: 12,
    });
    expect(nextPhase(sending, { type: 'result', text: '  ' })).toMatchObject({ status: 'error', hint: 'emptyResult' });
    // The final text empty but pieces came: the pieces are the result.
    expect(nextPhase({ status: 'pending', reason: 'receiving', text: 'Текст' }, { type: 'result', text: '' })).toEqual({ status: 'result', text: 'Текст' });
    // A piece before any call (rest) is ignored.
    expect(nextPhase({ status: 'rest' }, { type: 'delta', text: 'x' })).toEqual({ status: 'rest' });
  });
});

describe("the slash menu's AI group", () => {
  const label = (action: string) => ({ generate: 'Написать с ИИ', continue: 'Продолжить текст' })[action] ?? action;
  it('is found by its names and by "ии" / "ai", and never among the block types', () => {
    expect(slashAiItems('', label).map((i) => i.ai)).toEqual(['generate', 'continue']);
    expect(slashAiItems('ии', label).map((i) => i.ai)).toEqual(['generate', 'continue']);
    expect(slashAiItems('ai', label).map((i) => i.ai)).toEqual(['generate', 'continue']);
    expect(slashAiItems('прод', label).map((i) => i.label)).toEqual(['Продолжить текст']);
    expect(slashAiItems('напис', label).map((i) => i.label)).toEqual(['Написать с ИИ']);
    expect(slashAiItems('заг', label)).toEqual([]);
    expect(slashItems('', (w) => w).some((i) => i.ai)).toBe(false);
  });
});

describe('a failed call (spec: 429 is rateLimitError; other failures fetchError or unknownError)', () => {
  it('maps the HTTP answer to a reason', () => {
    expect(failureOfRequest(new ApiRequestError(429, 'rate_limited', 'Too many requests', null, { retryAfter: 30 }))).toEqual({
      reason: 'rateLimitError',
      message: 'Too many requests',
      retryAfter: 30,
    });
    expect(failureOfRequest(new ApiRequestError(429, 'rate_limited', 'at most 20 AI requests a minute; try again in 17 s'))).toMatchObject({
      reason: 'rateLimitError',
      retryAfter: 17,
    });
    expect(failureOfRequest(new ApiRequestError(409, 'ai.channel_not_joined', 'join first')).reason).toBe('fetchError');
    expect(failureOfRequest(new ApiRequestError(undefined, undefined, 'Failed to fetch')).reason).toBe('fetchError');
    expect(failureOfRequest(new ApiRequestError(502, undefined, 'Bad gateway')).reason).toBe('fetchError');
    expect(failureOfRequest(new ApiRequestError(503, 'ai.not_configured', 'no model'))).toMatchObject({ reason: 'unknownError', hint: 'notConfigured' });
    expect(failureOfRequest(new ApiRequestError(413, 'ai.too_large', 'too large'))).toMatchObject({ reason: 'unknownError', hint: 'tooLong' });
    expect(failureOfRequest(new ApiRequestError(400, 'validation', 'Bad request')).reason).toBe('unknownError');
    expect(failureOfRequest(new TypeError('network')).reason).toBe('fetchError');
  });
});

describe('what is sent', () => {
  it('«Продолжить текст» sends the text above the block; the context has the title and what follows', () => {
    const editor = editorWith([
      title('Отпуск'),
      block('heading1Block', 'h', 'Куда поехать'),
      para('a', 'Мы выбираем между морем и горами.'),
      para('slash', ''),
      para('after', 'Бюджет ниже.'),
    ]);
    const input = continueInput(editor, 3);
    expect(input.text).toBe('# Куда поехать\nМы выбираем между морем и горами.');
    expect(input.context).toBe('# Отпуск\n\nБюджет ниже.');
  });

  it('is bounded: the nearest text is kept, the far text is cut', () => {
    const long = 'а'.repeat(3_000);
    const blocks = [
      title(),
      ...Array.from({ length: 10 }, (_, i) => para(`b${i}`, `${i}:${long}`)),
      para('slash', ''),
      ...Array.from({ length: 10 }, (_, i) => para(`c${i}`, `${i}:${long}`)),
    ];
    const editor = editorWith(blocks);
    const input = continueInput(editor, 11);
    expect(input.text.length).toBeLessThanOrEqual(CONTINUE_BUDGET);
    // The end of the text is the block just above (what is continued).
    expect(input.text.endsWith(`9:${long}`)).toBe(true);
    const context = contextAround(editor, 11);
    expect(context.length).toBeLessThanOrEqual(CONTEXT_BUDGET + 10);
    // Above: the end of the nearest block (cut at its start); below: the start of the next one.
    const [head, above, below] = context.split('\n\n');
    expect(head).toBe('# План');
    expect(above.length).toBeGreaterThan(1_000);
    expect(above).toMatch(/^а+$/);
    expect(below.startsWith('0:ааа')).toBe(true);
  });

  it('«Улучшить» sends the selected text: inside a block the selected part, across blocks the whole blocks as markdown', () => {
    const editor = editorWith([title(), para('a', 'Первый абзац текста.'), block('bulletListBlock', 'l', 'пункт списка'), para('c', 'Хвост.')]);
    expect(improveInput(editor, { anchor: { path: [1, 0], offset: 7 }, focus: { path: [1, 0], offset: 12 } }).text).toBe('абзац');
    const across = improveInput(editor, { anchor: { path: [1, 0], offset: 7 }, focus: { path: [2, 0], offset: 5 } });
    expect(across.text).toBe('Первый абзац текста.\n\n- пункт списка');
    expect(across.context).toContain('Хвост.');
  });
});

describe('accepting a result', () => {
  it('«Вставить ниже» in the empty block of the slash menu: markdown becomes blocks, one undo step', () => {
    const editor = editorWith([title(), para('a', 'Начало.'), para('slash', ''), para('z', 'Конец.')]);
    Transforms.select(editor, Editor.start(editor, [2]));
    const ok = insertAiResult(editor, '## Итоги\n\n- первый пункт\n- второй **важный** пункт\n\nОбычный абзац.', { mode: 'below', uid: 'slash' });
    expect(ok).toBe(true);
    expect(shape(editor)).toEqual([
      'textBlock:0:Начало.',
      'heading2Block:0:Итоги',
      'bulletListBlock:0:первый пункт',
      'bulletListBlock:0:второй важный пункт',
      'textBlock:0:Обычный абзац.',
      'textBlock:0:Конец.',
    ]);
    const bold = (editor.children[4] as BlockElement).children.find((t) => (t as { bold?: boolean }).bold);
    expect(bold).toMatchObject({ text: 'важный', bold: true });
    // One Ctrl+Z takes all of it away (the empty block is back).
    editor.undo();
    expect(shape(editor)).toEqual(['textBlock:0:Начало.', 'textBlock:0:', 'textBlock:0:Конец.']);
  });

  it('«Вставить ниже» under a block with text: a new block follows it (one line too), one undo step', () => {
    const editor = editorWith([title(), para('a', 'Начало.'), para('z', 'Конец.')]);
    Transforms.select(editor, Editor.end(editor, [1]));
    insertAiResult(editor, 'Продолжение в одну строку.', { mode: 'below', uid: 'a' });
    expect(shape(editor)).toEqual(['textBlock:0:Начало.', 'textBlock:0:Продолжение в одну строку.', 'textBlock:0:Конец.']);
    // The new block has a uid of its own (it is saved as a new block).
    const uids = editor.children.map((n) => (n as BlockElement).uid);
    expect(new Set(uids).size).toBe(uids.length);
    editor.undo();
    expect(shape(editor)).toEqual(['textBlock:0:Начало.', 'textBlock:0:Конец.']);
  });

  it('«Заменить» puts the improved text in place of the selection, one undo step', () => {
    const editor = editorWith([title(), para('a', 'Это очен плохой текст, правда.'), para('z', 'Конец.')]);
    const range = { anchor: { path: [1, 0], offset: 4 }, focus: { path: [1, 0], offset: 21 } };
    insertAiResult(editor, 'очень хороший текст', { mode: 'replace', range });
    expect(shape(editor)).toEqual(['textBlock:0:Это очень хороший текст, правда.', 'textBlock:0:Конец.']);
    editor.undo();
    expect(shape(editor)).toEqual(['textBlock:0:Это очен плохой текст, правда.', 'textBlock:0:Конец.']);
  });

  it('nothing to insert, or the block is gone: nothing changes', () => {
    const editor = editorWith([title(), para('a', 'Начало.')]);
    expect(insertAiResult(editor, '   ', { mode: 'below', uid: 'a' })).toBe(false);
    expect(insertAiResult(editor, 'Текст', { mode: 'below', uid: 'missing' })).toBe(false);
    expect(shape(editor)).toEqual(['textBlock:0:Начало.']);
    expect(editor.history.undos).toHaveLength(0);
  });
});
