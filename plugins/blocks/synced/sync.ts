import { Editor, Node, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { depthOf, type BlockElement } from '../../../schema/slate';
import { freshCopies } from '../../withBlockActions/blockActions';
import { subtreeEnd } from '../../withStructure';
import { blockIndexOf } from '../../queries';
import { emptyTextBlock } from '../../withPageHeading';
import { api, elementUrl } from '../../../src/app/api';
import { syncedBlock, type SyncedElement } from './block';

/**
 * The synced block's work in the page editor: making one (its page on the server first, then the
 * block; the blocks it starts with are typed into its own editor once it is drawn, so they are
 * saved by that editor's sync like any edit), copying one, and «Отвязать».
 */

/**
 * A new synced block's page (as made), the blocks its editor starts with and the text typed onto
 * the block before that editor had them, by page id: taken once by its view.
 */
const startingBlocks = new Map<string, { page: WireElement; blocks: BlockElement[]; typed: string }>();

/** Whether a synced block's starting blocks wait for its editor (the page counts them as unsaved meanwhile). */
export const hasStartingBlocks = (pageId: string): boolean => startingBlocks.has(pageId);

/** Blocks that cannot move into a synced block's page: a database (its rows are pages of this one), a column alone, a synced block (they do not nest). */
const STAYS = new Set(['databaseBlock', 'databaseRowBlock', 'columnBlock', 'syncedBlock', 'pageHeadingBlock']);

/** Whether the block at `index` may become a synced block with the blocks under it: none of them stays. */
export function movableIntoSynced(editor: Editor, index: number): boolean {
  if (index < 1 || index >= editor.children.length) return false;
  return !(editor.children.slice(index, subtreeEnd(editor, index)) as BlockElement[]).some((block) => STAYS.has(block.type));
}

/** The blocks a synced block's editor starts with and the text typed meanwhile, once (its view takes them when its editor is drawn). */
export function takeStartingBlocks(pageId: string): { blocks: BlockElement[]; typed: string } | undefined {
  const starting = startingBlocks.get(pageId);
  startingBlocks.delete(pageId);
  return starting && { blocks: starting.blocks, typed: starting.typed };
}

/**
 * Text typed onto a synced block just made whose editor does not hold its starting blocks yet
 * (not drawn, or drawn a moment before its view puts them): kept with them, in order, and typed
 * at the start of its first block when they are put. False when none are waiting.
 */
export function typeIntoStarting(pageId: string, text: string): boolean {
  const starting = startingBlocks.get(pageId);
  if (!starting) return false;
  starting.typed += text;
  return true;
}

/**
 * The page of a synced block just made here, as the server answered its making (it holds no blocks
 * yet): its view draws the editor with it at once instead of reading it again.
 */
export const startingPage = (pageId: string): WireElement | undefined => startingBlocks.get(pageId)?.page;

/** Makes the synced block's page under `holderId` (POST element/{id}/synced). */
export async function createSyncedPage(holderId: string): Promise<WireElement> {
  const { data } = await api<unknown>(`${elementUrl(holderId)}/synced`, { method: 'POST', body: { id: newId() } });
  return wireElementSchema.parse(data);
}

function syncedElement(pageId: string, depth: number): SyncedElement {
  return { type: 'syncedBlock', uid: newId(), version: 1, pageId, children: [{ text: '' }], ...(depth > 0 ? { depth } : {}) };
}

/**
 * Makes the blocks from `first` through `last` (with their subtrees) a synced block: its page is
 * made, the blocks go into it (copies, fresh ids, the shallowest at the top level) and the synced
 * block takes their place — one undo step here; the page's blocks are its own editor's. `blocks`
 * given: a new synced block of those (the slash menu: one empty paragraph) at `first`, the block
 * there replaced. Resolves with the synced block and the blocks it starts with; rejects (nothing
 * changed) when the page cannot be made.
 */
export async function makeSynced(
  editor: Editor,
  holderId: string,
  at: { uid: string; lastUid?: string },
  blocks?: BlockElement[],
): Promise<{ synced: SyncedElement; blocks: BlockElement[] }> {
  const page = await createSyncedPage(holderId);
  // Where is decided after the round trip, by uid: the page may have changed meanwhile.
  const first = blockIndexOf(editor, at.uid);
  if (first < 1) throw new Error('the block is gone');
  const last = at.lastUid === undefined ? first : Math.max(first, blockIndexOf(editor, at.lastUid));
  // The slash menu's line: replaced while still empty; typed into meanwhile, the block goes after it.
  const slashLine = blocks ? (editor.children[first] as BlockElement) : null;
  const keepLine = slashLine !== null && Node.string(slashLine) !== '';
  const end = blocks ? first + 1 : subtreeEnd(editor, last);
  const taken = editor.children.slice(first, end) as BlockElement[];
  if (!blocks && taken.some((block) => STAYS.has(block.type))) throw new Error('a block here cannot move into a synced block');
  const base = depthOf(taken[0]);
  // Moved, not copied: fresh uids (a block lives in one page), the same nested pages.
  const content = blocks ?? taken.map((block) => withDepth({ ...structuredClone(block), uid: newId(), version: 1 }, depthOf(block) - base));
  const starting = content.length > 0 ? content : [emptyTextBlock()];
  startingBlocks.set(page.id, { page, blocks: starting, typed: '' });
  const synced = syncedElement(page.id, base);
  const place = keepLine ? first + 1 : first;
  Editor.withoutNormalizing(editor, () => {
    if (!keepLine) for (let i = end - 1; i >= first; i--) Transforms.removeNodes(editor, { at: [i] });
    Transforms.insertNodes(editor, synced, { at: [place] });
  });
  Transforms.select(editor, Editor.start(editor, [place]));
  return { synced, blocks: starting };
}

function withDepth(block: BlockElement, depth: number): BlockElement {
  const copy = { ...block };
  if (depth > 0) copy.depth = depth;
  else delete copy.depth;
  return copy;
}

/**
 * «Отвязать»: the synced block at `index` becomes plain copies of its blocks (`blocks`: its
 * editor's, the title left out) at its depth, here only — one undo step. The other pages keep
 * showing the synced blocks.
 */
export function unsync(editor: Editor, index: number, blocks: readonly BlockElement[]): void {
  const synced = editor.children[index] as BlockElement | undefined;
  if (!synced || synced.type !== 'syncedBlock') return;
  const depth = depthOf(synced);
  const copies = freshCopies(editor, blocks).map((block) => withDepth(block, depthOf(block) + depth));
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: [index] });
    if (copies.length > 0) Transforms.insertNodes(editor, copies, { at: [index] });
  });
  if (copies.length > 0) Transforms.select(editor, Editor.end(editor, [index + copies.length - 1]));
}

/** The blocks of a synced block's own editor (its title left out). */
export function syncedContent(inner: Editor): BlockElement[] {
  return inner.children.slice(1) as BlockElement[];
}

/**
 * «Копировать и синхронизировать»: the clipboard gets the synced block (HTML: the marker the
 * paste reads back as one more instance of it) and its text as plain text (pasted elsewhere).
 */
export async function copySynced(pageId: string | Promise<string>, blocks: Promise<readonly BlockElement[]>): Promise<void> {
  // Written at once with what is to come (a synced block being made): browsers let a page write
  // the clipboard in a click, not after a request's round trip.
  const html = Promise.resolve(pageId).then((id) => new Blob([syncedBlock.html!.serialize({ pageId: id }, '')], { type: 'text/html' }));
  const text = blocks.then((list) => new Blob([list.map((block) => Node.string(block)).join('\n')], { type: 'text/plain' }));
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    await navigator.clipboard.write([new ClipboardItem({ 'text/html': html, 'text/plain': text })]);
    return;
  }
  await navigator.clipboard.writeText(await (await text).text());
}

/**
 * Puts the starting blocks into a new synced block's editor (no undo step: they are how it starts);
 * `typed` (keys typed onto it meanwhile) goes at the start of the first, as typing, the caret after it.
 */
export function putStartingBlocks(inner: Editor, blocks: readonly BlockElement[], typed = ''): void {
  HistoryEditor.withoutSaving(inner as HistoryEditor, () => {
    Editor.withoutNormalizing(inner, () => {
      for (let i = inner.children.length - 1; i >= 1; i--) Transforms.removeNodes(inner, { at: [i] });
      Transforms.insertNodes(
        inner,
        blocks.map((block) => structuredClone(block)),
        { at: [1] },
      );
    });
  });
  if (typed) {
    Transforms.select(inner, Editor.start(inner, [1]));
    Transforms.insertText(inner, typed);
  }
}
