import { Editor, Element, Node, Path, Range, Text, Transforms } from 'slate';
import { REGISTERED_BLOCKS, type RegisteredBlock } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { isSafeHref } from '../../schema/token';
import { storableText } from '../../schema/text';
import { convertBlock } from '../withMarkdownShortcuts/withMarkdownShortcuts';
import { CLIPBOARD_MIME } from './content';

/*
 * A bare link pasted into the text (issue 39 §2, «Закладка»): it is pasted as a link, as ever,
 * and the editor offers to make it a block instead — every type whose definition takes a link
 * (`fromLink`: a bookmark, an embed of an allowed host). Choosing one takes the link's text out
 * and puts the block in the line's place when nothing else was on it, or after the line.
 */

/** The link a clipboard holds when it holds one http(s) address and nothing else (not our own copy); null otherwise. */
export function bareLinkOf(data: Pick<DataTransfer, 'getData'>): string | null {
  if (data.getData(CLIPBOARD_MIME)) return null;
  const text = storableText(data.getData('text/plain')).trim();
  return /^https?:\/\/\S+$/i.test(text) && isSafeHref(text) ? text : null;
}

/** The block types a pasted `url` may become, in the registry's order, with their data for it. */
export function linkBlockChoices(url: string): { definition: RegisteredBlock; data: unknown }[] {
  return REGISTERED_BLOCKS.flatMap((definition) => {
    const data = definition.fromLink?.(url);
    return data ? [{ definition, data }] : [];
  });
}

/** Where the pasted link is: the block (by uid) and the range of its last run of text linked to `url` reading `url`. */
export function pastedLinkRange(editor: Editor, uid: string, url: string): { path: Path; range: Range } | null {
  const index = editor.children.findIndex((node) => (node as BlockElement).uid === uid);
  if (index < 0) return null;
  let found: Range | null = null;
  for (const [node, path] of Node.texts(editor.children[index] as Element)) {
    const text = node as Text & { link?: { href?: string } };
    if (text.link?.href === url && text.text.includes(url)) {
      const at = [index, ...path];
      const offset = text.text.lastIndexOf(url);
      found = { anchor: { path: at, offset }, focus: { path: at, offset: offset + url.length } };
    }
  }
  return found ? { path: [index], range: found } : null;
}

/**
 * Turns the pasted link into a block of `definition`'s type with `data` (see the file's
 * comment). False when the link is no longer there (typed over, undone, the block deleted).
 */
export function turnPastedLink(editor: Editor, uid: string, url: string, definition: RegisteredBlock, data: unknown): boolean {
  const at = pastedLinkRange(editor, uid, url);
  if (!at) return false;
  const fields = definition.toSlateFields(data as never) as { children?: unknown } & Record<string, unknown>;
  const { children, ...rest } = fields;
  Editor.withoutNormalizing(editor, () => {
    Transforms.delete(editor, { at: at.range });
    const block = editor.children[at.path[0]] as BlockElement;
    if (block.type === 'textBlock' && Editor.string(editor, at.path) === '') {
      convertBlock(editor, at.path, definition.slateType, rest as Partial<BlockElement>);
      return;
    }
    const depth = (block as { depth?: number }).depth;
    const made = { ...fields, type: definition.slateType, uid: newId(), version: 1, children, ...(depth ? { depth } : {}) } as unknown as BlockElement;
    const after = Path.next(at.path);
    Transforms.insertNodes(editor, made, { at: after });
  });
  return true;
}
