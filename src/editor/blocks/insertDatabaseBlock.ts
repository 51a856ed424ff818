import { Editor, Transforms, type Path } from 'slate';
import { newDatabaseData } from '../../../schema/database';
import { newId } from '../../../schema/ids';
import type { DatabaseElement } from '../../../schema/slate';
import { emptyTextBlock } from '../../../plugins/withPageHeading';

/**
 * The slash menu's «База данных»: the empty text block at `path` becomes a database block with the
 * title field «Название» and one Table view (newDatabaseData, as the server makes them; saved
 * by the sync queue like any new block: POST block, type database), and the caret goes to a new
 * empty paragraph after it.
 */
export function insertDatabaseBlock(editor: Editor, path: Path): string {
  const index = path[0];
  const current = editor.children[index] as { depth?: number } | undefined;
  const uid = newId();
  const element: DatabaseElement = {
    type: 'databaseBlock',
    uid,
    version: 1,
    children: [{ text: '' }],
    ...newDatabaseData(newId()),
    ...(current?.depth ? { depth: current.depth } : {}),
  };
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: [index] });
    Transforms.insertNodes(editor, element, { at: [index] });
    Transforms.insertNodes(editor, emptyTextBlock() as never, { at: [index + 1] });
  });
  Transforms.select(editor, Editor.start(editor, [index + 1]));
  return uid;
}
