import { Editor, Element, Transforms } from 'slate';
import type { DocumentElement } from '../../../schema/slate';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { blockIndexOf } from '../../../plugins/queries';
import { elementUrl, type api as apiFunction } from '../../app/api';

/**
 * Creates a child page of `parentPageId` (POST element/{id}/children) and then inserts a document
 * block pointing at it: after the block at `at` (default: the block holding the caret, or the end
 * of the page), or in its place when that block is an empty text block (as a slash command does).
 * Nothing is inserted when the page cannot be created (the error is thrown). `onPageCreated` runs
 * before the block is inserted: give the page to the pages slice there (dispatch(pageLoaded(page)))
 * so the block shows its title at once and the sidebar lists it. Returns the page and the block uid.
 */
export async function insertDocumentBlock(
  editor: Editor,
  api: typeof apiFunction,
  parentPageId: string,
  options: { at?: number; atUid?: string; onPageCreated?(page: WireElement): void } = {},
): Promise<{ page: WireElement; uid: string }> {
  const { onPageCreated } = options;
  const pageId = newId();
  const { data } = await api<unknown>(`${elementUrl(parentPageId)}/children`, {
    method: 'POST',
    body: { id: pageId, type: 'Note', contentType: 'Element' },
  });
  const page = wireElementSchema.parse(data);
  onPageCreated?.(page);
  const uid = newId();
  const block: DocumentElement = { type: 'documentBlock', uid, version: 1, pageId: page.id, children: [{ text: '' }] };
  // Where to put it is decided after the round trip (the page may have changed meanwhile): by
  // the block's uid when one was given, else the index, else the caret's block.
  const byUid = options.atUid === undefined ? -1 : blockIndexOf(editor, options.atUid);
  const index = byUid >= 0 ? byUid : (options.at ?? (editor.selection ? editor.selection.anchor.path[0] : editor.children.length - 1));
  const current = editor.children[index];
  const replace = index > 0 && Element.isElement(current) && (current as { type: string }).type === 'textBlock' && Editor.isEmpty(editor, current);
  Editor.withoutNormalizing(editor, () => {
    if (replace) {
      const depth = (current as { depth?: number }).depth;
      Transforms.removeNodes(editor, { at: [index] });
      Transforms.insertNodes(editor, depth ? { ...block, depth } : block, { at: [index] });
    } else {
      Transforms.insertNodes(editor, block, { at: [Math.max(1, Math.min(index + 1, editor.children.length))] });
    }
  });
  return { page, uid };
}
