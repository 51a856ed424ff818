import { Editor, Transforms } from 'slate';
import { jsx } from 'slate-hyperscript';
import { HistoryEditor } from 'slate-history';
import '../types';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import type { DatabaseElement } from '../../schema/slate';
import { block, doc, editorWith, title } from '../testDocument';
import { withDatabaseGuard } from './withDatabaseGuard';

const database = (uid: string) =>
  jsx(
    'element',
    { type: 'databaseBlock', uid, version: 1, config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } }, view: { layouts: [] } },
    jsx('text', {}),
  );

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const uids = (editor: Editor) => editor.children.map((n) => (n as { uid: string }).uid);

function setup(answer: boolean) {
  const asked: DatabaseElement[][] = [];
  const editor = withDatabaseGuard(
    editorWith(
      doc(
        title(jsx('text', {}, 'Страница')),
        block('textBlock', 'a', jsx('text', {}, 'до')),
        database('db1'),
        block('textBlock', 'b', jsx('text', {}, 'после')),
      ),
    ),
    async (databases) => {
      asked.push(databases);
      return answer;
    },
  );
  return { editor, asked };
}

describe('withDatabaseGuard', () => {
  it('select all + Backspace over a database: the edit is taken back and asked about; «no» keeps the database', async () => {
    const { editor, asked } = setup(false);
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [3]) });
    editor.deleteFragment();
    await tick();
    await tick();
    expect(asked.map((list) => list.map((d) => d.uid))).toEqual([['db1']]);
    expect(uids(editor)).toEqual(['pageHeading_p1', 'a', 'db1', 'b']);
    expect(Editor.string(editor, [3])).toBe('после');
  });

  it('«yes» removes it, and one undo brings it back', async () => {
    const { editor, asked } = setup(true);
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [3]) });
    editor.deleteFragment();
    await tick();
    await tick();
    expect(asked).toHaveLength(1);
    expect(uids(editor)).not.toContain('db1');
    editor.undo();
    await tick();
    expect(uids(editor)).toEqual(['pageHeading_p1', 'a', 'db1', 'b']);
    // The undo itself is not asked about again.
    expect(asked).toHaveLength(1);
  });

  it('an edit spread over several undo steps is taken back whole, and redone whole', async () => {
    for (const answer of [false, true]) {
      const { editor } = setup(answer);
      Transforms.select(editor, { anchor: Editor.start(editor, [2]), focus: Editor.end(editor, [3]) });
      // The database goes in one step and the text in another, as a pause before a text change splits them.
      Editor.withoutNormalizing(editor, () => {
        Transforms.removeNodes(editor, { at: [2] });
        HistoryEditor.withNewBatch(editor, () =>
          Transforms.insertText(editor, '', { at: { anchor: Editor.start(editor, [2]), focus: Editor.end(editor, [2]) } }),
        );
      });
      expect(editor.history.undos.length).toBeGreaterThanOrEqual(2);
      await tick();
      await tick();
      expect([answer, uids(editor)]).toEqual([answer, answer ? ['pageHeading_p1', 'a', 'b'] : ['pageHeading_p1', 'a', 'db1', 'b']]);
      expect(Editor.string(editor, [answer ? 2 : 3])).toBe(answer ? '' : 'после');
      if (answer) {
        // One undo brings back all of it.
        editor.undo();
        await tick();
        expect([uids(editor), Editor.string(editor, [3])]).toEqual([['pageHeading_p1', 'a', 'db1', 'b'], 'после']);
      }
    }
  });

  it('an edit that removes no database, and a remote removal, are not asked about', async () => {
    const { editor, asked } = setup(false);
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [1]) });
    editor.deleteFragment();
    await tick();
    HistoryEditor.withoutSaving(editor, () => Transforms.removeNodes(editor, { at: [2] }));
    await tick();
    expect(asked).toEqual([]);
    expect(uids(editor)).toEqual(['pageHeading_p1', 'a', 'b']);
  });
});
