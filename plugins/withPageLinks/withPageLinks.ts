import { Editor, Element, Node, Path, Range, Transforms, type BaseRange } from 'slate';
import { HistoryEditor } from 'slate-history';
import { REGISTERED_BLOCKS } from '../../schema/blocks';
import { isPageLink, pageHref, PAGE_LINK_TEXT, type TokenMarks } from '../../schema/token';

/** The longest text typed after `[[` or `@` that is still taken as a search (then it is text). */
export const PAGE_QUERY_MAX = 60;

/** Text blocks a page link may go in (their definitions' `editing.pageLinks`): not the title, not code, not table cells. */
const LINKABLE: ReadonlySet<string> = new Set(REGISTERED_BLOCKS.filter((d) => d.editing?.pageLinks).map((d) => d.slateType));

export interface PageLinkQuery {
  /** What was typed: `[[` or `@`. */
  trigger: '[[' | '@';
  /** The text typed after the trigger, up to the caret. */
  query: string;
  /** From the trigger to the caret: what choosing a page replaces. */
  range: BaseRange;
}

/**
 * The page search being typed at the caret, or null: the caret is in a text block (not the title,
 * code or a table), and the text of its leaf before the caret ends with `[[` + query or `@` + query,
 * where the query has no line break, no `[`/`]`, does not start with a space and is at most
 * PAGE_QUERY_MAX characters. `@` must start the text or follow a space or an opening bracket or
 * quote (so `name@mail` is not a trigger). Nothing inside a link.
 */
export function pageLinkQuery(editor: Editor): PageLinkQuery | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  const { path, offset } = selection.anchor;
  if (path.length !== 2) return null;
  const block = editor.children[path[0]];
  if (!block || !Element.isElement(block) || !LINKABLE.has(block.type)) return null;
  if (!Node.has(editor, path)) return null;
  const leaf = Node.get(editor, path) as { text: string } & TokenMarks;
  if (typeof leaf.text !== 'string' || leaf.link || leaf.code) return null;
  const before = leaf.text.slice(0, offset);
  const start = Math.max(before.lastIndexOf('[['), before.lastIndexOf('@'));
  if (start < 0) return null;
  const trigger: '[[' | '@' = before.startsWith('[[', start) ? '[[' : '@';
  const query = before.slice(start + trigger.length);
  if (query.length > PAGE_QUERY_MAX || /[\n[\]]/.test(query) || query.startsWith(' ')) return null;
  if (trigger === '@' && start > 0 && !/[\s([{«"'„]/.test(before[start - 1])) return null;
  return { trigger, query, range: { anchor: { path, offset: start }, focus: { path, offset } } };
}

/**
 * Replaces `range` (the trigger and the query) with a link to the page, and a space after it
 * where no space follows, the caret after that: one undo step.
 */
export function insertPageLink(editor: Editor, range: BaseRange, pageId: string): void {
  const change = () => {
    Transforms.select(editor, range);
    Transforms.delete(editor);
    const at = editor.selection?.anchor;
    if (!at) return;
    const leaf = Node.get(editor, at.path) as { text: string };
    const next = leaf.text[at.offset];
    const { link: _link, comments: _comments, ...marks } = (Editor.marks(editor) ?? {}) as TokenMarks;
    Transforms.insertNodes(editor, { ...marks, text: PAGE_LINK_TEXT, link: { href: pageHref(pageId), pageId } }, { select: true });
    if (next === ' ') Transforms.move(editor, { distance: 1 });
    else Transforms.insertNodes(editor, { ...marks, text: ' ' }, { select: true });
  };
  if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.withNewBatch(editor, change);
  else Editor.withoutNormalizing(editor, change);
  // The next typing starts a step of its own.
  if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.setSplittingOnce(editor, true);
}

/** The page a text at `path` links to, or null. */
export function pageLinkAt(editor: Editor, path: Path): string | null {
  if (!Node.has(editor, path)) return null;
  const node = Node.get(editor, path) as TokenMarks;
  return isPageLink(node.link) ? node.link.pageId : null;
}

/**
 * A page link is one unit: text typed next to it (or with the caret in it) never joins it; Enter
 * and typing there go on without the link.
 */
export function withPageLinks<E extends Editor>(editor: E): E {
  const { insertText } = editor;
  editor.insertText = (text, options) => {
    const marks = Editor.marks(editor) as TokenMarks | null;
    if (marks && isPageLink(marks.link) && (!editor.selection || Range.isCollapsed(editor.selection))) {
      const { link: _link, ...rest } = marks;
      editor.marks = rest;
    }
    insertText(text, options);
  };
  return editor;
}
