import { Editor, Transforms, type Path } from 'slate';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../schema/blocks/database';
import { newId } from '../../../schema/ids';
import type { DatabaseElement } from '../../../schema/slate';
import { emptyTextBlock } from '../../../plugins/withPageHeading';

/** A new database's data: the title field and one Table view showing it (docs/api/databases.md). */
export function newDatabaseData(titleName: string, viewName: string): { config: DatabaseConfig; view: DatabaseView } {
  return {
    config: { fields: { [MAIN_FIELD_ID]: { name: titleName, type: 'text' } } },
    view: { layouts: [{ uid: newId(), type: 'table', name: viewName, orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
}

/**
 * The slash menu's «База данных»: the empty text block at `path` becomes a database block (saved
 * by the sync queue like any new block: POST block, type database), and the caret goes to an
 * empty paragraph after it, made when there is none.
 */
export function insertDatabaseBlock(editor: Editor, path: Path, titleName: string, viewName: string): string {
  const index = path[0];
  const current = editor.children[index] as { depth?: number } | undefined;
  const uid = newId();
  const element: DatabaseElement = { type: 'databaseBlock', uid, version: 1, children: [{ text: '' }], ...newDatabaseData(titleName, viewName), ...(current?.depth ? { depth: current.depth } : {}) };
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: [index] });
    Transforms.insertNodes(editor, element, { at: [index] });
    Transforms.insertNodes(editor, emptyTextBlock() as never, { at: [index + 1] });
  });
  Transforms.select(editor, Editor.start(editor, [index + 1]));
  return uid;
}
