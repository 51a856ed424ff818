/** @jest-environment jsdom */
import { createEditor, Editor, Node, Transforms } from 'slate';
import { withHistory } from 'slate-history';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';
import { CLIPBOARD_MIME } from './content';
import { positionInFlatList } from '../../schema/block';
import { copyContent, flatPositions } from './serialize';
import { readClipboard, withClipboard } from './withClipboard';

/** A DataTransfer stand-in: the formats a clipboard holds. */
function clipboard(formats: Record<string, string> = {}) {
  const store = new Map(Object.entries(formats));
  return {
    getData: (type: string) => store.get(type) ?? '',
    setData: (type: string, value: string) => void store.set(type, value),
    types: () => [...store.keys()],
    files: [] as File[],
    store,
  };
}
type Clip = ReturnType<typeof clipboard>;

const title = (text = 'Страница'): BlockElement => ({ type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text }] });
const block = (type: BlockElement['type'], uid: string, children: BlockElement['children'], extra: Record<string, unknown> = {}): BlockElement =>
  ({ type, uid, version: 1, children, ...extra }) as BlockElement;
const para = (uid: string, text: string, depth = 0) => block('textBlock', uid, [{ text }], depth ? { depth } : {});

function editorWith(blocks: BlockElement[]) {
  const editor = createWorkspaceEditor();
  editor.children = blocks;
  Editor.normalize(editor, { force: true });
  return editor;
}

/** The blocks after the title without uids and versions. */
const shape = (editor: Editor) =>
  editor.children.slice(1).map((n) => {
    const { uid: _uid, version: _version, ...rest } = n as BlockElement;
    return rest;
  });
const paste = (editor: Editor, clip: Clip) => editor.insertData(clip as unknown as DataTransfer);
const caret = (editor: Editor, path: number[], offset: number) => Transforms.select(editor, { path, offset });

const table = (uid: string) =>
  block('tableBlock', uid, [] as never, {
    tableLayout: { columns: 2, rows: 1, columnSizes: [120, 160] },
    headerRow: false,
    headerColumn: false,
    children: [
      {
        type: 'tableRow',
        children: [
          { type: 'tableCell', children: [{ text: 'x' }] },
          { type: 'tableCell', children: [{ text: 'y', italic: true }] },
        ],
      },
    ],
  });

function richPage() {
  return [
    title(),
    block('textBlock', 'a', [{ text: 'Вступление ' }, { text: 'жирное', bold: true }]),
    block('bulletListBlock', 'b', [{ text: 'пункт' }]),
    block('bulletListBlock', 'c', [{ text: 'вложенный', link: { href: 'https://example.com/' } }], { depth: 1 }),
    block('orderedListBlock', 'd', [{ text: 'пятый' }], { forcedOrder: 5 }),
    block('checkboxBlock', 'e', [{ text: 'готово' }], { checked: true }),
    block('codeBlock', 'f', [{ text: 'let x = 1;' }], { language: 'typescript' }),
    block('dividerBlock', 'g', [{ text: '' }]),
    table('h'),
  ];
}

describe('copy', () => {
  test('blocks: wire JSON relative to the copied set, HTML with lists grouped and nested, markdown-like text', () => {
    const editor = editorWith(richPage());
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [8]) });
    const copied = copyContent(editor)!;
    const json = copied.json as { blocks: { id: string; type: string; parentId: string | null; placeAfter: string | null; pageId: string; data: unknown }[] };
    expect(json.blocks.map((b) => [b.id, b.type, b.parentId, b.placeAfter])).toEqual([
      ['a', 'text', null, null],
      ['b', 'bulletList', null, 'a'],
      ['c', 'bulletList', 'b', null],
      ['d', 'orderedList', null, 'b'],
      ['e', 'checkbox', null, 'd'],
      ['f', 'code', null, 'e'],
      ['g', 'divider', null, 'f'],
      ['h', 'table', null, 'g'],
    ]);
    expect(json.blocks[0].pageId).toBe('p1');
    expect(json.blocks[3].data).toEqual({ tokens: [{ text: 'пятый' }], forcedOrder: 5 });
    expect(copied.html).toBe(
      '<p>Вступление <strong>жирное</strong></p>' +
        '<ul><li>пункт<ul><li><a href="https://example.com/">вложенный</a></li></ul></li></ul>' +
        '<ol start="5"><li>пятый</li></ol>' +
        '<ul><li><input type="checkbox" checked disabled> готово</li></ul>' +
        '<pre><code class="language-typescript">let x = 1;</code></pre>' +
        '<hr>' +
        '<table data-header-row="false" data-header-column="false"><colgroup><col style="width:120px"><col style="width:160px"></colgroup><tbody><tr><td>x</td><td><em>y</em></td></tr></tbody></table>',
    );
    expect(copied.text).toBe('Вступление жирное\n- пункт\n    - вложенный\n5. пятый\n- [x] готово\nlet x = 1;\nx\ty');
  });

  test('inside one block: the selected tokens; in code and the title plain text', () => {
    const editor = editorWith(richPage());
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 4 }, focus: { path: [1, 1], offset: 3 } });
    expect(copyContent(editor)).toEqual({
      json: { format: 'workspace-blocks', version: 1, tokens: [{ text: 'пление ' }, { text: 'жир', bold: true }] },
      html: 'пление <strong>жир</strong>',
      text: 'пление жир',
    });
    Transforms.select(editor, { anchor: { path: [6, 0], offset: 0 }, focus: { path: [6, 0], offset: 3 } });
    expect(copyContent(editor)!.html).toBe('<code>let</code>');
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [1, 0], offset: 0 } });
    expect(copyContent(editor)).toBeNull();
  });

  test('a partial selection across blocks cuts the first and last block; nested blocks keep depth relative to the first', () => {
    const editor = editorWith(richPage());
    Transforms.select(editor, { anchor: { path: [3, 0], offset: 3 }, focus: { path: [4, 0], offset: 2 } });
    const copied = copyContent(editor)!;
    expect((copied.json as { blocks: unknown[] }).blocks).toEqual([
      {
        id: 'c',
        contentType: 'Block',
        pageId: 'p1',
        type: 'bulletList',
        version: 1,
        parentId: null,
        placeAfter: null,
        data: { tokens: [{ text: 'женный', link: { href: 'https://example.com/' } }] },
      },
      {
        id: 'd',
        contentType: 'Block',
        pageId: 'p1',
        type: 'orderedList',
        version: 1,
        parentId: null,
        placeAfter: 'c',
        data: { tokens: [{ text: 'пя' }], forcedOrder: 5 },
      },
    ]);
  });

  test('flatPositions answers what positionInFlatList does, for every index at once', () => {
    const depths = [0, 1, 2, 2, 1, 0, 1, 1, 2, 0, 0];
    const elements = depths.map((depth, i) => ({ uid: `u${i}`, depth }));
    expect(flatPositions(elements)).toEqual(elements.map((_, i) => positionInFlatList(elements, i)));
  });

  test("setFragmentData keeps Slate's own data and adds JSON, HTML and text", () => {
    const base = withHistory(createEditor());
    const original = jest.fn((data: DataTransfer) => data.setData('application/x-slate-fragment', 'slate'));
    base.setFragmentData = original;
    const editor = withClipboard(base);
    editor.children = [title(), para('a', 'один'), para('b', 'два')];
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [2]) });
    const clip = clipboard();
    editor.setFragmentData(clip as unknown as DataTransfer, 'copy');
    expect(original).toHaveBeenCalledTimes(1);
    expect(clip.types().sort()).toEqual(['application/x-slate-fragment', CLIPBOARD_MIME, 'text/html', 'text/plain']);
    expect(clip.getData('text/html')).toBe('<p>один</p><p>два</p>');
    expect(clip.getData('text/plain')).toBe('один\nдва');
  });

  test('headless (no slate-react underneath), copy writes our JSON, HTML and text only', () => {
    const editor = editorWith([title(), para('a', 'один'), para('b', 'два')]);
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [2]) });
    const clip = clipboard();
    editor.setFragmentData(clip as unknown as DataTransfer, 'copy');
    expect(clip.types().sort()).toEqual([CLIPBOARD_MIME, 'text/html', 'text/plain']);
    expect(clip.getData('text/plain')).toBe('один\nдва');
  });
});

describe('readClipboard', () => {
  test('formats are tried in order: our JSON, then HTML, then plain text', () => {
    const json = JSON.stringify({ format: 'workspace-blocks', version: 1, tokens: [{ text: 'json' }] });
    expect(readClipboard(clipboard({ [CLIPBOARD_MIME]: json, 'text/html': '<p>html</p>', 'text/plain': 'text' }))).toEqual({
      kind: 'inline',
      tokens: [{ text: 'json' }],
    });
    expect(readClipboard(clipboard({ [CLIPBOARD_MIME]: '{"bad":1}', 'text/html': '<p>html</p>', 'text/plain': 'text' }))).toEqual({
      kind: 'inline',
      tokens: [{ text: 'html' }],
    });
    expect(readClipboard(clipboard({ 'text/html': '<script>x()</script>', 'text/plain': 'text' }))).toEqual({ kind: 'inline', tokens: [{ text: 'text' }] });
    expect(readClipboard(clipboard({}))).toBeNull();
  });

  test('text the server would refuse (NUL, a lone surrogate) is made storable before it is read: the paste is kept, not undone', () => {
    expect(readClipboard(clipboard({ 'text/plain': 'a\u0000b \ud800c 😀' }))).toEqual({ kind: 'inline', tokens: [{ text: 'ab \ufffdc 😀' }] });
    expect(readClipboard(clipboard({ 'text/html': '<p>x\u0000y</p>' }))).toEqual({ kind: 'inline', tokens: [{ text: 'xy' }] });
  });
});

describe('paste', () => {
  test('JSON round trip: copy then paste gives equal blocks with new uids, in one undo step', () => {
    const source = editorWith(richPage());
    Transforms.select(source, { anchor: Editor.start(source, [1]), focus: Editor.end(source, [8]) });
    const copied = copyContent(source)!;
    const clip = clipboard({ [CLIPBOARD_MIME]: JSON.stringify(copied.json), 'text/html': '<p>не это</p>', 'text/plain': 'и не это' });

    const target = editorWith([title(), para('z', '')]);
    caret(target, [1, 0], 0);
    paste(target, clip);
    expect(shape(target)).toEqual(shape(source));
    // (A table at the end of the page gets an empty paragraph after it: uids of the 8 pasted blocks.)
    const uids = target.children.slice(1, 9).map((n) => (n as BlockElement).uid);
    expect(new Set(uids).size).toBe(8);
    for (const uid of uids) expect(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'z']).not.toContain(uid);
    // The caret is at the end of the last pasted block (the table's last cell).
    expect(Editor.end(target, [8])).toEqual(target.selection!.anchor);
    target.undo();
    expect(shape(target)).toEqual([{ type: 'textBlock', children: [{ text: '' }] }]);
  });

  test('HTML round trip: what a copy writes as HTML pastes back as the same blocks', () => {
    const source = editorWith(richPage());
    Transforms.select(source, { anchor: Editor.start(source, [1]), focus: Editor.end(source, [8]) });
    const copied = copyContent(source)!;
    const target = editorWith([title(), para('z', '')]);
    caret(target, [1, 0], 0);
    paste(target, clipboard({ 'text/html': copied.html, 'text/plain': copied.text }));
    expect(shape(target)).toEqual(shape(source));
  });

  test('text round trip: the plain text of a copy pastes back as lists with depths and checkboxes', () => {
    const source = editorWith(richPage().slice(0, 6));
    Transforms.select(source, { anchor: Editor.start(source, [1]), focus: Editor.end(source, [5]) });
    const target = editorWith([title(), para('z', '')]);
    caret(target, [1, 0], 0);
    paste(target, clipboard({ 'text/plain': copyContent(source)!.text }));
    expect(shape(target)).toEqual([
      { type: 'textBlock', children: [{ text: 'Вступление жирное' }] },
      { type: 'bulletListBlock', children: [{ text: 'пункт' }] },
      { type: 'bulletListBlock', children: [{ text: 'вложенный' }], depth: 1 },
      { type: 'orderedListBlock', forcedOrder: 5, children: [{ text: 'пятый' }] },
      { type: 'checkboxBlock', checked: true, children: [{ text: 'готово' }] },
    ]);
  });

  test('JSON from elsewhere is checked: invalid blocks are dropped, comments left behind', () => {
    const editor = editorWith([title(), para('z', '')]);
    caret(editor, [1, 0], 0);
    const json = {
      format: 'workspace-blocks',
      version: 1,
      blocks: [
        { id: '1', type: 'text', parentId: null, placeAfter: null, data: { tokens: [{ text: 'ок', comments: ['c1'] }] } },
        { id: '2', type: 'text', parentId: '1', placeAfter: null, data: { tokens: [{ text: 'x', link: { href: 'javascript:alert(1)' } }] } },
        { id: '3', type: 'nope', parentId: null, placeAfter: null, data: {} },
        { id: '4', type: 'quote', parentId: '1', placeAfter: null, data: { tokens: [{ text: 'вложено' }] } },
      ],
    };
    paste(editor, clipboard({ [CLIPBOARD_MIME]: JSON.stringify(json) }));
    expect(shape(editor)).toEqual([
      { type: 'textBlock', children: [{ text: 'ок' }] },
      { type: 'quoteBlock', children: [{ text: 'вложено' }], depth: 1 },
    ]);
  });

  test('a pasted nested-page block whose page a block here already shows points at a copy of it (as Duplicate); a page shown nowhere here is kept (cut and paste)', () => {
    const shown = '11111111-1111-4111-8111-111111111111';
    const cut = '22222222-2222-4222-8222-222222222222';
    const editor = editorWith([title(), block('documentBlock', 'd', [{ text: '' }], { pageId: shown }), para('z', '')]);
    const copies: Array<{ from: string; to: string }> = [];
    editor.copyPages = (pairs) => copies.push(...pairs);
    caret(editor, [2, 0], 0);
    const json = {
      format: 'workspace-blocks',
      version: 1,
      blocks: [
        { id: '1', type: 'document', parentId: null, placeAfter: null, data: { pageId: shown } },
        { id: '2', type: 'document', parentId: null, placeAfter: '1', data: { pageId: cut } },
        { id: '3', type: 'document', parentId: null, placeAfter: '2', data: { pageId: cut } },
      ],
    };
    paste(editor, clipboard({ [CLIPBOARD_MIME]: JSON.stringify(json) }));
    const pageIds = editor.children.slice(1).map((n) => (n as { pageId?: string }).pageId);
    expect(copies).toHaveLength(2);
    expect(copies.map((c) => c.from)).toEqual([shown, cut]);
    expect(pageIds.slice(0, 4)).toEqual([shown, copies[0].to, cut, copies[1].to]);
    expect(new Set(copies.map((c) => c.to)).size).toBe(2);
    expect(copies.every((c) => c.to !== shown && c.to !== cut)).toBe(true);
  });

  test('inline HTML goes in at the caret with its marks; the caret ends after it', () => {
    const editor = editorWith([title(), para('a', 'абвг')]);
    caret(editor, [1, 0], 2);
    paste(editor, clipboard({ 'text/html': '<meta charset="utf-8"><b>Ж</b><i>К</i>', 'text/plain': 'ЖК' }));
    expect(shape(editor)).toEqual([{ type: 'textBlock', children: [{ text: 'аб' }, { text: 'Ж', bold: true }, { text: 'К', italic: true }, { text: 'вг' }] }]);
    expect(editor.selection!.anchor).toEqual({ path: [1, 2], offset: 1 });
    editor.undo();
    expect(shape(editor)).toEqual([{ type: 'textBlock', children: [{ text: 'абвг' }] }]);
  });

  test('several blocks split the caret block, take its depth, and the caret ends in the last one', () => {
    const editor = editorWith([title(), para('p', 'родитель'), para('a', 'абвг', 1), para('n', 'после')]);
    caret(editor, [2, 0], 2);
    paste(editor, clipboard({ 'text/plain': '# Заголовок\n- пункт\n  - вложенный' }));
    expect(shape(editor)).toEqual([
      { type: 'textBlock', children: [{ text: 'родитель' }] },
      { type: 'textBlock', children: [{ text: 'аб' }], depth: 1 },
      { type: 'heading1Block', children: [{ text: 'Заголовок' }], depth: 1 },
      { type: 'bulletListBlock', children: [{ text: 'пункт' }], depth: 1 },
      { type: 'bulletListBlock', children: [{ text: 'вложенный' }], depth: 2 },
      { type: 'textBlock', children: [{ text: 'вг' }], depth: 1 },
      { type: 'textBlock', children: [{ text: 'после' }] },
    ]);
    expect(editor.selection!.anchor).toEqual({ path: [5, 0], offset: 'вложенный'.length });
    // The split-off half is a new block, not a second copy of the caret block's uid.
    expect((editor.children[6] as BlockElement).uid).not.toBe('a');
    editor.undo();
    expect(shape(editor)).toEqual([
      { type: 'textBlock', children: [{ text: 'родитель' }] },
      { type: 'textBlock', children: [{ text: 'абвг' }], depth: 1 },
      { type: 'textBlock', children: [{ text: 'после' }] },
    ]);
  });

  test('blocks replace an empty caret block; at the end of a block with children they become its first children', () => {
    const editor = editorWith([title(), para('e', ''), para('p', 'родитель'), para('k', 'ребёнок', 1)]);
    caret(editor, [1, 0], 0);
    paste(editor, clipboard({ 'text/plain': 'один\nдва' }));
    expect(shape(editor).slice(0, 2)).toEqual([
      { type: 'textBlock', children: [{ text: 'один' }] },
      { type: 'textBlock', children: [{ text: 'два' }] },
    ]);
    caret(editor, [3, 0], 'родитель'.length);
    paste(editor, clipboard({ 'text/plain': 'три\nчетыре' }));
    expect(shape(editor)).toEqual([
      { type: 'textBlock', children: [{ text: 'один' }] },
      { type: 'textBlock', children: [{ text: 'два' }] },
      { type: 'textBlock', children: [{ text: 'родитель' }] },
      { type: 'textBlock', children: [{ text: 'три' }], depth: 1 },
      { type: 'textBlock', children: [{ text: 'четыре' }], depth: 1 },
      { type: 'textBlock', children: [{ text: 'ребёнок' }], depth: 1 },
    ]);
  });

  test('a selected range is replaced by the paste', () => {
    const editor = editorWith([title(), para('a', 'один'), para('b', 'два')]);
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 2 }, focus: { path: [2, 0], offset: 1 } });
    paste(editor, clipboard({ 'text/plain': 'X' }));
    expect(shape(editor)).toEqual([{ type: 'textBlock', children: [{ text: 'одXва' }] }]);
    editor.undo();
    expect(shape(editor).map((b) => Node.string(b as Node))).toEqual(['один', 'два']);
  });

  test('a paste after typing is one undo step of its own, whatever it does', () => {
    jest.useFakeTimers({ now: 10_000 });
    try {
      const editor = editorWith([title(), para('a', 'один'), para('b', 'два'), para('c', 'три')]);
      caret(editor, [1, 0], 4);
      editor.insertText('!');
      const steps = editor.history.undos.length;
      jest.setSystemTime(20_000);
      Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [2, 0], offset: 1 } });
      paste(editor, clipboard({ 'text/plain': '# А\nБ' }));
      expect(shape(editor).map((b) => Node.string(b as Node))).toEqual(['А', 'Б', 'ва', 'три']);
      expect(editor.history.undos.length).toBe(steps + 1);
      editor.undo();
      expect(shape(editor).map((b) => Node.string(b as Node))).toEqual(['один!', 'два', 'три']);
    } finally {
      jest.useRealTimers();
    }
  });

  test('in a code block only plain text goes in (the clipboard text as it is)', () => {
    const editor = editorWith([title(), block('codeBlock', 'f', [{ text: 'ab' }], { language: 'plain' })]);
    caret(editor, [1, 0], 1);
    paste(editor, clipboard({ 'text/html': '<h1>Нет</h1><ul><li>x</li></ul>', 'text/plain': '# Нет\n  - x' }));
    expect(shape(editor)).toEqual([{ type: 'codeBlock', language: 'plain', children: [{ text: 'a# Нет\n  - xb' }] }]);
    editor.undo();
    expect(shape(editor)).toEqual([{ type: 'codeBlock', language: 'plain', children: [{ text: 'ab' }] }]);
  });

  test('in a table cell only plain text goes in', () => {
    const editor = editorWith([title(), table('t')]);
    caret(editor, [1, 0, 0, 0], 1);
    paste(editor, clipboard({ 'text/html': '<p><b>жирный</b></p><p>второй</p>', 'text/plain': 'жирный\nвторой' }));
    const cell = (editor.children[1] as { children: { children: { children: unknown[] }[] }[] }).children[0].children[0];
    expect(cell.children).toEqual([{ text: 'xжирный\nвторой' }]);
  });

  test('in the title only plain text goes in; further blocks go below the title', () => {
    const editor = editorWith([title('Имя'), para('a', 'текст')]);
    caret(editor, [0, 0], 3);
    paste(editor, clipboard({ 'text/html': '<b>Жирное</b> имя' }));
    expect(editor.children[0]).toEqual(title('ИмяЖирное имя'));
    paste(editor, clipboard({ 'text/plain': '!\n- пункт' }));
    expect(Node.string(editor.children[0])).toBe('ИмяЖирное имя!');
    expect(shape(editor)).toEqual([
      { type: 'bulletListBlock', children: [{ text: 'пункт' }] },
      { type: 'textBlock', children: [{ text: 'текст' }] },
    ]);
  });

  test('a void caret block: the blocks go after it', () => {
    const editor = editorWith([title(), block('dividerBlock', 'g', [{ text: '' }]), para('a', 'после')]);
    caret(editor, [1, 0], 0);
    paste(editor, clipboard({ 'text/plain': 'один\nдва' }));
    expect(shape(editor).map((b) => b.type)).toEqual(['dividerBlock', 'textBlock', 'textBlock', 'textBlock']);
    expect(
      shape(editor)
        .slice(1)
        .map((b) => Node.string(b as Node)),
    ).toEqual(['один', 'два', 'после']);
  });

  test('a clipboard with files only is left to the default', () => {
    const editor = editorWith([title(), para('a', 'текст')]);
    caret(editor, [1, 0], 1);
    const before = JSON.stringify(editor.children);
    paste(editor, clipboard({}));
    expect(JSON.stringify(editor.children)).toBe(before);
  });
});
