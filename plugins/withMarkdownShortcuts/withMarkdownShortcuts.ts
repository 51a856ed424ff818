import { Editor, Element, Range, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { MARKDOWN_SHORTCUTS } from '../../schema/blocks';
import type { BlockElement } from '../../schema/slate';

/**
 * Typing a block's shortcut (e.g. `#`, `##`, `###`) at the start of a text block and then a
 * space turns the block into that type. The rules come from the block definitions in schema/blocks.
 */
export function withMarkdownShortcuts<E extends Editor>(editor: E): E {
  const { insertText } = editor;

  editor.insertText = (text, options) => {
    const { selection } = editor;
    if (text !== ' ' || !selection || !Range.isCollapsed(selection)) {
      insertText(text, options);
      return;
    }
    const entry = Editor.above<BlockElement>(editor, { match: (n) => Element.isElement(n) && Editor.isBlock(editor, n) });
    if (!entry) {
      insertText(text, options);
      return;
    }
    const [block, path] = entry;
    const start = Editor.start(editor, path);
    const before = Editor.string(editor, { anchor: start, focus: selection.anchor });
    const type = MARKDOWN_SHORTCUTS.get(before);
    if (block.type !== 'textBlock' || !type) {
      insertText(text, options);
      return;
    }
    // The space goes in as typed, and the conversion is its own undo step: undo gives back `# `.
    insertText(text, options);
    const convert = () =>
      Editor.withoutNormalizing(editor, () => {
        const typed = editor.selection ? editor.selection.anchor : selection.anchor;
        Transforms.delete(editor, { at: { anchor: start, focus: typed } });
        Transforms.setNodes(editor, { type }, { at: path });
      });
    if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.withNewBatch(editor, convert);
    else convert();
  };

  return editor;
}
