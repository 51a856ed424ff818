import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import { createPageEditor } from './pageEditor';
import editorFile from '../locales/ru/documentEditor.json';
import { withBlockStrings } from '../app/blockStrings';
import { descriptionKey, MENU_DEFINITIONS, slashItems, slashQueryAt } from './slashMenu';

/** The editor's strings as the app has them: its file and each block type's. */
const ru = withBlockStrings(editorFile);
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
    // Every type once, the database twice (two names), a type with variants once per variant (the columns: 2–5).
    expect(items.map((i) => i.wireType).sort()).toEqual(
      [...MENU_DEFINITIONS.flatMap((d) => (d.menuVariants ? d.menuVariants.map(() => d.wireType) : [d.wireType])), 'database'].sort(),
    );
    expect(items.filter((i) => i.wireType === 'columnList').map((i) => i.label)).toEqual(['2 колонки', '3 колонки', '4 колонки', '5 колонок']);
    // By group: basic blocks, media, the database, the advanced ones.
    expect([...new Set(items.map((i) => i.group))]).toEqual(['basic', 'media', 'database', 'advanced']);
    expect(items.filter((i) => i.group === 'media').map((i) => i.wireType)).toEqual(['image', 'file', 'bookmark', 'embed']);
    expect(items.filter((i) => i.group === 'database').map((i) => i.label)).toEqual(['База данных', 'Таблица данных']);
    expect(items.filter((i) => i.group === 'advanced').map((i) => i.wireType)).toEqual(['code', 'latex', 'synced']);
    // Each with a description under its name.
    for (const item of items) expect((ru.blockDescriptions as Record<string, string>)[descriptionKey(item)]).toMatch(/[а-яё]/i);
    // The nested page too (made by creating the page first), under its Russian name.
    expect(slashItems('стран', labelOf).map((i) => [i.wireType, i.label])).toEqual([['document', 'Страница']]);
    for (const item of items) expect(item.label).toMatch(/[а-яё]/i);
  });

  it('filters by the start of a word of the Russian name, then by the English type name', () => {
    expect(slashItems('заг', labelOf).map((i) => i.wireType)).toEqual([
      'heading1',
      'heading2',
      'heading3',
      'toggleHeading1',
      'toggleHeading2',
      'toggleHeading3',
    ]);
    expect(slashItems('2', labelOf).map((i) => i.label)).toEqual(['Заголовок 2', 'Заголовок-переключатель 2', '2 колонки']);
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
