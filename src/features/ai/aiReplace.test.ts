import { Editor, Node, type Range } from 'slate';
import { createPageEditor } from '../../editor/pageEditor';
import type { BlockElement } from '../../../schema/slate';
import { insertAiResult } from './aiInsert';
import { improveInput } from './aiText';

/*
 * «Улучшить» → «Заменить» on a real editor (docs/ai.md «Replacing a selection»): what is sent
 * (markdown with the marks; whole blocks across blocks; the edge whitespace aside) and what the
 * accepted answer does to the document (marks back as marks, blocks kept whole, the whitespace
 * around kept, one undo step back to the very same nodes).
 */

const title = (): BlockElement => ({ type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text: 'План' }] });
const el = (type: BlockElement['type'], uid: string, children: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): BlockElement =>
  ({ type, uid, version: 1, children, ...extra }) as BlockElement;
const para = (uid: string, text: string, extra: Record<string, unknown> = {}) => el('textBlock', uid, [{ text }], extra);

function editorWith(blocks: BlockElement[]) {
  const editor = createPageEditor();
  editor.children = blocks;
  Editor.normalize(editor, { force: true });
  return editor;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const at = (path: number[], offset: number) => ({ path, offset });
const range = (anchor: { path: number[]; offset: number }, focus: { path: number[]; offset: number }): Range => ({ anchor, focus });
/** The blocks after the title as "type:depth:text". */
const shape = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as BlockElement).type}:${(n as BlockElement).depth ?? 0}:${Node.string(n)}`);
const children = (editor: Editor, index: number) => (editor.children[index] as BlockElement).children;

/** «Улучшить» then «Заменить» with the answer `answer(sent)` (the model's, trimmed as the server sends it). */
function improveAndReplace(editor: Editor, selection: Range, answer: (sent: string) => string): string {
  const { text } = improveInput(editor, selection);
  expect(insertAiResult(editor, answer(text).trim(), { mode: 'replace', range: selection })).toBe(true);
  return text;
}

describe('«Улучшить» keeps the formatting of the text it replaces', () => {
  const marked = () =>
    editorWith([
      title(),
      el('textBlock', 'a', [
        { text: 'Это ' },
        { text: 'важная', bold: true },
        { text: ' ' },
        { text: 'ссылка', link: { href: 'https://x.example/a' } },
        { text: ' тут, ' },
        { text: 'курсив', italic: true },
        { text: ', ' },
        { text: 'код', code: true },
        { text: ', ' },
        { text: 'старое', struckOut: true },
        { text: ' и ' },
        { text: 'черта', underline: true },
        { text: '.' },
      ]),
      para('z', 'Конец.'),
    ]);

  it('sends the selection as markdown with its marks, and puts the marks back on «Заменить»', () => {
    const editor = marked();
    const before = clone(editor.children);
    const all = range(at([1, 0], 0), Editor.end(editor, [1]));
    const sent = improveAndReplace(editor, all, (text) => text.replace('тут', 'здесь'));
    expect(sent).toBe('Это **важная** [ссылка](https://x.example/a) тут, *курсив*, `код`, ~~старое~~ и <u>черта</u>.');
    expect(children(editor, 1)).toEqual([
      { text: 'Это ' },
      { text: 'важная', bold: true },
      { text: ' ' },
      { text: 'ссылка', link: { href: 'https://x.example/a' } },
      { text: ' здесь, ' },
      { text: 'курсив', italic: true },
      { text: ', ' },
      { text: 'код', code: true },
      { text: ', ' },
      { text: 'старое', struckOut: true },
      { text: ' и ' },
      { text: 'черта', underline: true },
      { text: '.' },
    ]);
    // One Ctrl+Z: the very same nodes, marks included.
    editor.undo();
    expect(editor.children).toEqual(before);
  });

  it('a part of a marked run comes back marked; the model’s `_…_` and `**…**` are marks too', () => {
    const editor = marked();
    // "ажна" inside the bold "важная".
    const part = range(at([1, 1], 1), at([1, 1], 5));
    expect(improveAndReplace(editor, part, () => '**ажн**_ая_')).toBe('**ажна**');
    expect(children(editor, 1).slice(0, 5)).toEqual([
      { text: 'Это ' },
      { text: 'важн', bold: true },
      { text: 'ая', italic: true },
      { text: 'я', bold: true },
      { text: ' ' },
    ]);
  });

  it('text that looks like markdown is sent escaped and comes back as the same text', () => {
    const editor = editorWith([title(), para('a', '- не список, 2*3*4 и [скобки] `тики`'), para('z', 'Конец.')]);
    const all = range(at([1, 0], 0), Editor.end(editor, [1]));
    const sent = improveAndReplace(editor, all, (text) => text);
    expect(sent).toBe('\\- не список, 2\\*3\\*4 и \\[скобки\\] \\`тики\\`');
    expect(shape(editor)).toEqual(['textBlock:0:- не список, 2*3*4 и [скобки] `тики`', 'textBlock:0:Конец.']);
    expect(children(editor, 1)).toEqual([{ text: '- не список, 2*3*4 и [скобки] `тики`' }]);
  });

  it('comments on the replaced text cannot survive the rewrite (the rest of the block keeps them)', () => {
    const editor = editorWith([title(), el('textBlock', 'a', [{ text: 'Старт ' }, { text: 'обсуждаемое', comments: ['c1'] }, { text: ' место' }])]);
    improveAndReplace(editor, range(at([1, 1], 0), at([1, 1], 11)), () => 'обсуждённое');
    expect(children(editor, 1)).toEqual([{ text: 'Старт обсуждённое место' }]);
    editor.undo();
    expect(children(editor, 1)).toEqual([{ text: 'Старт ' }, { text: 'обсуждаемое', comments: ['c1'] }, { text: ' место' }]);
  });
});

describe('a selection across blocks is widened to whole blocks', () => {
  it('an unchanged answer leaves the blocks as they were (not split at the selection’s ends)', () => {
    const editor = editorWith([title(), para('a', 'Первый абзац текста.'), el('bulletListBlock', 'l', [{ text: 'пункт списка' }]), para('c', 'Хвост.')]);
    const before = clone(editor.children);
    const sel = range(at([1, 0], 7), at([2, 0], 5));
    expect(improveInput(editor, sel).text).toBe('Первый абзац текста.\n\n- пункт списка');
    improveAndReplace(editor, sel, (text) => text);
    expect(shape(editor)).toEqual(['textBlock:0:Первый абзац текста.', 'bulletListBlock:0:пункт списка', 'textBlock:0:Хвост.']);
    expect(editor.children).toEqual(before);
  });

  it('an improved answer replaces the whole blocks, each keeping its type, depth, uid and fields', () => {
    const editor = editorWith([
      title(),
      el('heading2Block', 'h', [{ text: 'Итоги' }]),
      el('textBlock', 'p', [{ text: 'Это ' }, { text: 'очен', bold: true }, { text: ' важно' }]),
      el('bulletListBlock', 'b1', [{ text: 'первый пункт' }]),
      el('bulletListBlock', 'b2', [{ text: 'вложеный', italic: true }, { text: ' пункт' }], { depth: 1 }),
      el('orderedListBlock', 'o1', [{ text: 'раз' }], { forcedOrder: 3 }),
      el('checkboxBlock', 'c1', [{ text: 'сделать' }], { checked: true }),
      el('imageBlock', 'img', [{ text: '' }], { url: 'https://x.example/i.png' }),
      el('quoteBlock', 'q', [{ text: 'цитата' }]),
      el('codeBlock', 'code', [{ text: 'const a = "b" - 1;' }], { language: 'javascript' }),
      el('calloutBlock', 'call', [{ text: 'важно знать' }], { icon: '💡' }),
      para('z', 'Конец.'),
    ]);
    const before = clone(editor.children);
    const sel = range(at([1, 0], 2), at([10, 0], 3));
    const sent = improveInput(editor, sel).text;
    expect(sent).toBe(
      [
        '## Итоги',
        'Это **очен** важно',
        '- первый пункт\n    - *вложеный* пункт',
        '3. раз',
        '- [x] сделать',
        '> цитата',
        '```javascript\nconst a = "b" - 1;\n```',
        'важно знать',
      ].join('\n\n'),
    );
    improveAndReplace(editor, sel, (text) => text.replace('**очен**', '**очень**').replace('вложеный', 'вложенный'));
    const expected = clone(before);
    (expected[2] as BlockElement).children = [{ text: 'Это ' }, { text: 'очень', bold: true }, { text: ' важно' }];
    (expected[4] as BlockElement).children = [{ text: 'вложенный', italic: true }, { text: ' пункт' }];
    expect(editor.children).toEqual(expected);
    // The image between them is left where it was.
    expect((editor.children[7] as BlockElement).uid).toBe('img');
    editor.undo();
    expect(editor.children).toEqual(before);
  });

  it('an answer of another shape takes the blocks’ place at the first one’s depth (markdown → blocks); one undo', () => {
    const editor = editorWith([
      title(),
      el('bulletListBlock', 'l0', [{ text: 'родитель' }]),
      para('a', 'Один абзац', { depth: 1 }),
      para('b', 'и второй.', { depth: 1 }),
      para('z', 'Конец.'),
    ]);
    const before = clone(editor.children);
    improveAndReplace(editor, range(at([2, 0], 3), at([3, 0], 2)), () => 'Один абзац и второй.\n\n- **новый** пункт\n- ещё');
    expect(shape(editor)).toEqual([
      'bulletListBlock:0:родитель',
      'textBlock:1:Один абзац и второй.',
      'bulletListBlock:1:новый пункт',
      'bulletListBlock:1:ещё',
      'textBlock:0:Конец.',
    ]);
    expect(children(editor, 3)).toEqual([{ text: 'новый', bold: true }, { text: ' пункт' }]);
    editor.undo();
    expect(editor.children).toEqual(before);
  });

  it('a selection that only touches the next block’s start (a triple click) stays in its block', () => {
    const editor = editorWith([title(), para('a', 'Весь абзац.'), para('b', 'Следующий.')]);
    const sel = range(at([1, 0], 0), at([2, 0], 0));
    expect(improveInput(editor, sel).text).toBe('Весь абзац.');
    improveAndReplace(editor, sel, () => 'Весь абзац!');
    expect(shape(editor)).toEqual(['textBlock:0:Весь абзац!', 'textBlock:0:Следующий.']);
  });
});

describe('the whitespace around the selection stays', () => {
  it('a selected trailing or leading space is not sent and is there after «Заменить»', () => {
    const editor = editorWith([title(), para('a', 'Это очен хорошо.')]);
    // "очен " (a double click takes the space after the word).
    expect(improveAndReplace(editor, range(at([1, 0], 4), at([1, 0], 9)), () => 'очень')).toBe('очен');
    expect(shape(editor)).toEqual(['textBlock:0:Это очень хорошо.']);
    editor.undo();
    // " очен", selected backwards.
    expect(improveAndReplace(editor, range(at([1, 0], 8), at([1, 0], 3)), () => 'очень')).toBe('очен');
    expect(shape(editor)).toEqual(['textBlock:0:Это очень хорошо.']);
  });

  it('in a code block the text goes in as it is (no marks), the indentation around it kept', () => {
    const editor = editorWith([title(), el('codeBlock', 'c', [{ text: 'x = 1\n  y = "a" - **b**\n' }], { language: 'python' })]);
    const sel = range(at([1, 0], 6), at([1, 0], 24));
    expect(improveAndReplace(editor, sel, (text) => text.replace('"a"', "'a'"))).toBe('y = "a" - **b**');
    expect(Node.string(editor.children[1])).toBe("x = 1\n  y = 'a' - **b**\n");
  });
});
