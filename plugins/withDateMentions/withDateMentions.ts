import { Editor, Node, Path, Range, Text, Transforms, type BaseRange } from 'slate';
import { HistoryEditor } from 'slate-history';
import type { DateMention, TokenMarks } from '../../schema/token';

/*
 * Date mentions in the text (issue 39 §2; docs/web-app.md «Date mentions and reminders»): a
 * token whose `date` says the day (and time, and for a reminder the instant it goes off) and
 * whose text is that date as it reads. One unit, as a page link is: typing next to it or inside
 * it never joins it, Backspace or Delete next to it removes it whole.
 */

type DatedText = Text & { date?: DateMention };

const dateOf = (editor: Editor, path: Path): DateMention | undefined => (Node.has(editor, path) ? (Node.get(editor, path) as DatedText).date : undefined);

/**
 * Replaces `range` (the `@` and what followed it) with the mention — its text `label` — and a
 * space after it where none follows, the caret after that: one undo step.
 */
export function insertDateMention(editor: Editor, range: BaseRange, label: string, date: DateMention): void {
  const change = () => {
    Transforms.select(editor, range);
    Transforms.delete(editor);
    const at = editor.selection?.anchor;
    if (!at) return;
    const next = (Node.get(editor, at.path) as Text).text[at.offset];
    const { link: _link, comments: _comments, date: _date, ...marks } = (Editor.marks(editor) ?? {}) as TokenMarks;
    Transforms.insertNodes(editor, { ...marks, text: label, date }, { select: true });
    if (next === ' ') Transforms.move(editor, { distance: 1 });
    else Transforms.insertNodes(editor, { ...marks, text: ' ' }, { select: true });
  };
  if (HistoryEditor.isHistoryEditor(editor)) {
    HistoryEditor.withNewBatch(editor, change);
    HistoryEditor.setSplittingOnce(editor, true);
  } else Editor.withoutNormalizing(editor, change);
}

/** The whole text node at the caret's side when it is a date mention: `before` the caret (Backspace) or after it (Delete). */
function mentionBeside(editor: Editor, side: 'before' | 'after'): Path | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  const { path, offset } = selection.anchor;
  const text = Node.has(editor, path) ? (Node.get(editor, path) as DatedText) : null;
  if (!text) return null;
  // Inside the mention, or at its edge on the asked side.
  if (text.date && ((side === 'before' && offset > 0) || (side === 'after' && offset < text.text.length))) return path;
  const atEdge = side === 'before' ? offset === 0 : offset === text.text.length;
  if (!atEdge) return null;
  const sibling = side === 'before' ? Editor.previous(editor, { at: path }) : Editor.next(editor, { at: path });
  if (!sibling || !Text.isText(sibling[0]) || sibling[1].length !== path.length || !Path.equals(Path.parent(sibling[1]), Path.parent(path))) return null;
  return dateOf(editor, sibling[1]) ? sibling[1] : null;
}

export function withDateMentions<E extends Editor>(editor: E): E {
  const { insertText, deleteBackward, deleteForward } = editor;

  editor.insertText = (text, options) => {
    const marks = Editor.marks(editor) as TokenMarks | null;
    const { selection } = editor;
    if (marks?.date && selection && Range.isCollapsed(selection)) {
      // Typed inside a mention: it goes after it.
      const { path, offset } = selection.anchor;
      const length = (Node.get(editor, path) as Text).text.length;
      if (offset > 0 && offset < length) Transforms.select(editor, { path, offset: length });
      const { date: _date, ...rest } = marks;
      editor.marks = rest;
    }
    insertText(text, options);
  };

  editor.deleteBackward = (unit) => {
    const path = unit === 'character' ? mentionBeside(editor, 'before') : null;
    if (path) Transforms.removeNodes(editor, { at: path });
    else deleteBackward(unit);
  };

  editor.deleteForward = (unit) => {
    const path = unit === 'character' ? mentionBeside(editor, 'after') : null;
    if (path) Transforms.removeNodes(editor, { at: path });
    else deleteForward(unit);
  };

  return editor;
}
