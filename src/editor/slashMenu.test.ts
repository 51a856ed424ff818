import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import { createPageEditor } from './pageEditor';
import ru from '../locales/ru/documentEditor.json';
import { MENU_DEFINITIONS, slashItems, slashQueryAt } from './slashMenu';

const labelOf = (wireType: string) => (ru.blockTypes as Record<string, string>)[wireType] ?? wireType;
const cursor = () => jsx('cursor');
const title = () => jsx('element', { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1 }, 'T');
const block = (type: string, ...children: unknown[]) => jsx('element', { type, uid: 'a', version: 1 }, ...children);

function editorWith(input: Editor) {
  const editor = createPageEditor();
  editor.children = input.children;
  editor.selection = input.selection;
  return editor;
}

describe('slash menu', () => {
  it('offers every block type that can be made empty, each with a Russian name', () => {
    const items = slashItems('', labelOf);
    // The database twice (two names), last of the block types.
    expect(items.map((i) => i.wireType)).toEqual([...MENU_DEFINITIONS.map((d) => d.wireType), 'database']);
    expect(items.slice(-2).map((i) => i.label)).toEqual(['База данных', 'Таблица данных']);
    // The nested page too (made by creating the page first), under its Russian name.
    expect(slashItems('стран', labelOf).map((i) => [i.wireType, i.label])).toEqual([['document', 'Страница']]);
    for (const item of items) expect(item.label).toMatch(/[а-яё]/i);
  });

  it('filters by the start of a word of the Russian name, then by the English type name', () => {
    expect(slashItems('заг', labelOf).map((i) => i.wireType)).toEqual(['heading1', 'heading2', 'heading3']);
    expect(slashItems('2', labelOf).map((i) => i.wireType)).toEqual(['heading2']);
    expect(slashItems('quote', labelOf).map((i) => i.wireType)).toEqual(['quote']);
    expect(slashItems('нет такого', labelOf)).toEqual([]);
  });

  it('finds the database as «База данных», «Таблица данных» and "database"; «/таблица» still offers the simple table first', () => {
    expect(slashItems('база', labelOf).map((i) => i.label)).toEqual(['База данных']);
    expect(slashItems('database', labelOf).map((i) => i.label)).toEqual(['База данных', 'Таблица данных']);
    expect(slashItems('данных', labelOf).map((i) => i.label)).toEqual(['База данных', 'Таблица данных']);
    expect(slashItems('таблица', labelOf).map((i) => i.label)).toEqual(['Таблица', 'Таблица данных']);
    expect(new Set(slashItems('', labelOf).map((i) => i.id ?? i.type)).size).toBe(slashItems('', labelOf).length);
  });

  it('is open only for "/query" at the end of a text block', () => {
    expect(slashQueryAt(editorWith(jsx('editor', {}, title(), block('textBlock', '/заг', cursor())) as Editor))).toEqual({ path: [1], query: 'заг' });
    expect(slashQueryAt(editorWith(jsx('editor', {}, title(), block('textBlock', '/', cursor())) as Editor))).toEqual({ path: [1], query: '' });
    expect(slashQueryAt(editorWith(jsx('editor', {}, title(), block('textBlock', 'a /заг', cursor())) as Editor))).toBeNull();
    expect(slashQueryAt(editorWith(jsx('editor', {}, title(), block('textBlock', '/a b', cursor())) as Editor))).toBeNull();
    expect(slashQueryAt(editorWith(jsx('editor', {}, title(), block('heading1Block', '/заг', cursor())) as Editor))).toBeNull();
  });
});
