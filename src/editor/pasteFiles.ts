import { Editor, Element, Transforms } from 'slate';
import { definitionForSlateType } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { isImageFile, startUpload } from './upload';

/** An image or file block that has nothing yet (and is not uploading): a paste or drop fills it. */
function isEmptyMediaBlock(node: unknown): node is BlockElement & { type: 'imageBlock' | 'fileBlock' } {
  return (
    Element.isElement(node) &&
    ((node as BlockElement).type === 'imageBlock' || (node as BlockElement).type === 'fileBlock') &&
    !(node as { remoteData?: unknown }).remoteData
  );
}

function emptyBlock(type: 'imageBlock' | 'fileBlock', depth: number | undefined): BlockElement {
  const definition = definitionForSlateType(type);
  const fields = definition?.defaultData ? (definition.toSlateFields(definition.defaultData()) as Record<string, unknown>) : { children: [{ text: '' }] };
  return { ...fields, type, uid: newId(), version: 1, ...(depth ? { depth } : {}) } as BlockElement;
}

/**
 * Files pasted (a screenshot, files copied in the file manager) become uploads, as in Notion: the
 * first goes into the empty image or file block the caret is on (an image only into an image
 * block), the others into new image blocks (images) or file blocks (anything else) after the
 * caret's block, in order. Each block shows the upload's progress (src/editor/upload.ts).
 * False when there are no files.
 */
export function pasteFiles(editor: Editor, files: readonly File[]): boolean {
  if (files.length === 0) return false;
  const index = editor.selection ? editor.selection.anchor.path[0] : editor.children.length - 1;
  const current = editor.children[index] as BlockElement | undefined;
  let after = Math.max(1, index + 1);
  const uploads: Array<[string, File]> = [];
  Editor.withoutNormalizing(editor, () => {
    files.forEach((file, i) => {
      const image = isImageFile(file);
      if (i === 0 && isEmptyMediaBlock(current) && (current.type === 'fileBlock' || image)) {
        uploads.push([current.uid, file]);
        return;
      }
      const block = emptyBlock(image ? 'imageBlock' : 'fileBlock', current?.type === 'pageHeadingBlock' ? undefined : current?.depth);
      Transforms.insertNodes(editor, block, { at: [after], select: false });
      after += 1;
      uploads.push([block.uid, file]);
    });
  });
  for (const [uid, file] of uploads) void startUpload(editor, uid, file);
  return true;
}
