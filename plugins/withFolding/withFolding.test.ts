import { Editor } from 'slate';
import '../types';
import { blockWith, cursor, doc, editorWith, title } from '../testDocument';
import type { BlockElementType } from '../../schema/slate';
import { foldedAway, memoryFolds, onFoldedAwayChange, unfoldAround } from './withFolding';
import { convertBlock } from '../withMarkdownShortcuts/withMarkdownShortcuts';
import { duplicateBlock, moveBlock } from '../withBlockActions';
import { copyContent } from '../withClipboard/serialize';

/* Folding blocks (toggles) in the headless editor: what is folded away, the keys, a new toggle opening. */

const b = (type: BlockElementType, uid: string, depth: number, ...children: unknown[]) => blockWith(type, uid, { depth }, ...children);
const text = (uid: string, depth: number, ...children: unknown[]) => b('textBlock', uid, depth, ...children);
const toggle = (uid: string, depth: number, ...children: unknown[]) => b('toggleBlock' as BlockElementType, uid, depth, ...children);
const shape = (editor: Editor) =>
  editor.children
    .slice(1)
    .map((n) => `${(n as { type: string }).type.replace('Block', '')}:${(n as { uid: string }).uid}:${(n as { depth?: number }).depth ?? 0}`);
const away = (editor: ReturnType<typeof editorWith>) => [...foldedAway(editor)].sort();

describe('what is folded away', () => {
  it('everything nested under a closed toggle, at any depth, until its level comes back; an open one shows its children', () => {
    const editor = editorWith(
      doc(title(), toggle('t', 0, 'T'), text('c1', 1, 'c1'), toggle('t2', 1, 'T2'), text('c2', 2, 'c2'), text('c3', 1, 'c3'), text('after', 0, 'after')),
    );
    expect(away(editor)).toEqual(['c1', 'c2', 'c3', 't2']);
    editor.folds.setOpen('t', true);
    // t2 is closed: its child stays folded away.
    expect(away(editor)).toEqual(['c2']);
    editor.folds.setOpen('t2', true);
    expect(away(editor)).toEqual([]);
  });

  it('is computed again when the shape changes or a toggle opens, not while typing; listeners hear of it', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, 'T', cursor()), text('c', 0, 'c')));
    let heard = 0;
    onFoldedAwayChange(editor, () => (heard += 1));
    const first = foldedAway(editor);
    expect([...first]).toEqual([]);
    editor.insertText('x');
    expect(foldedAway(editor)).toBe(first);
    // c nested under the closed toggle: folded away.
    editor.apply({ type: 'set_node', path: [2], properties: {}, newProperties: { depth: 1 } });
    editor.onChange();
    expect([...foldedAway(editor)]).toEqual(['c']);
    const before = heard;
    editor.folds.setOpen('t', true);
    expect(heard).toBe(before + 1);
    expect([...foldedAway(editor)]).toEqual([]);
  });
});

describe('keys', () => {
  it('Ctrl+Enter in a toggle opens and closes it; elsewhere it is not handled', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, 'T', cursor()), text('c', 1, 'c')));
    expect(editor.handleKey({ key: 'Enter', ctrlKey: true })).toBe(true);
    expect(editor.folds.isOpen('t')).toBe(true);
    expect(editor.handleKey({ key: 'Enter', metaKey: true })).toBe(true);
    expect(editor.folds.isOpen('t')).toBe(false);
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } };
    expect(editor.handleKey({ key: 'Enter', ctrlKey: true })).toBe(false);
  });

  it('Enter at the end of an open toggle writes on inside it, as its first child', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, 'T', cursor()), text('c', 1, 'c')));
    editor.folds.setOpen('t', true);
    editor.insertBreak();
    expect(shape(editor).map((s) => s.replace(/:[^:]+:/, ':?:'))).toEqual(['toggle:?:0', 'text:?:1', 'text:?:1']);
    expect(editor.selection!.anchor.path[0]).toBe(2);
  });

  it('Enter at the end of a closed toggle makes another after what is folded under it (which stays under the first)', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, 'T', cursor()), text('c', 1, 'c'), text('d', 2, 'd'), text('after', 0, 'after')));
    editor.insertBreak();
    const types = shape(editor);
    expect(types[0]).toBe('toggle:t:0');
    expect(types.slice(1, 3)).toEqual(['text:c:1', 'text:d:2']);
    expect(types[3]).toMatch(/^toggle:.+:0$/);
    expect(types[4]).toBe('text:after:0');
    // The caret is in the new toggle.
    expect(editor.selection!.anchor.path[0]).toBe(4);
  });

  it('Enter in an empty toggle with nothing under it makes it text', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, cursor())));
    editor.insertBreak();
    expect(shape(editor)).toEqual(['text:t:0']);
  });
});

describe('a toggle made here', () => {
  it('opens, so what is written under it shows; made elsewhere (not converted here), it stays closed', () => {
    const folds = memoryFolds();
    const editor = editorWith(doc(title(), text('a', 0, 'a', cursor()), toggle('other', 0, 'B')));
    editor.folds = folds;
    convertBlock(editor, [1], 'toggleBlock' as BlockElementType);
    expect(folds.isOpen('a')).toBe(true);
    expect(folds.isOpen('other')).toBe(false);
  });
});

describe('a toggle keeps what is folded under it (the issue: drag, the block menu, copy, undo)', () => {
  const doc3 = () =>
    doc(title(), text('x', 0, 'x'), toggle('t', 0, 'T'), text('c', 1, 'c'), toggle('t2', 1, 'T2'), text('d', 2, 'd'), text('after', 0, 'after'));

  it('moved (the handle, the block menu) and duplicated, it takes its folded children along; undo brings it back', () => {
    const editor = editorWith(doc3());
    moveBlock(editor, 2, -1);
    expect(shape(editor)).toEqual(['toggle:t:0', 'text:c:1', 'toggle:t2:1', 'text:d:2', 'text:x:0', 'text:after:0']);
    const copy = duplicateBlock(editor, 1);
    expect(
      shape(editor)
        .slice(copy - 1, copy + 3)
        .map((s) => s.replace(/:[^:]+:/, ':?:')),
    ).toEqual(['toggle:?:0', 'text:?:1', 'toggle:?:1', 'text:?:2']);
    editor.undo();
    editor.undo();
    expect(shape(editor)).toEqual(['text:x:0', 'toggle:t:0', 'text:c:1', 'toggle:t2:1', 'text:d:2', 'text:after:0']);
    // Still closed: folding is not in the document's history.
    expect(away(editor)).toEqual(['c', 'd', 't2']);
  });

  it('copied as blocks (its selection reaches over its subtree, as block selection makes it), its children are in the copy', () => {
    const editor = editorWith(doc3());
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [5, 0], offset: 1 } };
    const copied = copyContent(editor)!;
    expect(copied.html).toBe('<details open><summary>T</summary><p>c</p><details open><summary>T2</summary><p>d</p></details></details>');
    expect((copied.json as { blocks: { type: string }[] }).blocks.map((b) => b.type)).toEqual(['toggle', 'text', 'toggle', 'text']);
  });
});

describe('Enter at the start of a toggle', () => {
  it('puts an empty toggle above; the toggle keeps its text, its children and its fold', () => {
    const editor = editorWith(doc(title(), toggle('t', 0, cursor(), 'Вопрос'), text('c', 1, 'Ответ'), text('after', 0, 'после')));
    editor.folds.setOpen('t', true);
    editor.insertBreak();
    const [, fresh, kept, child] = editor.children as { uid: string; type: string; depth?: number }[];
    expect(shape(editor).slice(1)).toEqual(['toggle:t:0', 'text:c:1', 'text:after:0']);
    expect([fresh.type, fresh.depth ?? 0, Editor.string(editor, [1])]).toEqual(['toggleBlock', 0, '']);
    expect([kept.uid, Editor.string(editor, [2]), child.uid]).toEqual(['t', 'Вопрос', 'c']);
    expect(editor.selection?.anchor).toEqual({ path: [2, 0], offset: 0 });
    expect(editor.folds.isOpen('t')).toBe(true);
  });
});

describe('the caret is never in a folded-away block (the web app draws those without their text)', () => {
  const page = (...caretAt: unknown[]) =>
    doc(
      title(),
      toggle('t', 0, 'Toggle'),
      text('c', 1, 'c', ...caretAt),
      toggle('t2', 1, 'T2'),
      text('d', 2, 'd'),
      toggle('other', 0, 'O'),
      text('o', 1, 'o'),
      text('after', 0, 'after'),
    );
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** An editor as the web app's while drawn: it follows the folds (its blocks listen). */
  const drawn = (input: Editor) => {
    const editor = editorWith(input);
    onFoldedAwayChange(editor, () => undefined);
    return editor;
  };
  const at = (path: number[], offset: number) => ({ anchor: { path, offset }, focus: { path, offset } });

  it('a toggle closed over the caret moves it to the end of the toggle’s text; a selection’s edge stays (a block selected with what it folds)', () => {
    const editor = drawn(page(cursor()));
    editor.folds.setOpen('t', true);
    editor.folds.setOpen('t', false);
    expect(editor.selection).toEqual(at([1, 0], 6));

    editor.folds.setOpen('t', true);
    editor.selection = { anchor: { path: [1, 0], offset: 0 }, focus: { path: [4, 0], offset: 1 } };
    editor.folds.setOpen('t', false);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 0 }, focus: { path: [4, 0], offset: 1 } });
  });

  it('a move of the caret alone into one goes on past the fold: back to the toggle’s text, forward to the block after it', async () => {
    const editor = drawn(page());
    // ← from the start of «after»: into «o», folded under «other» → the end of «O».
    editor.select(Editor.start(editor, [7]));
    await settled();
    editor.select(Editor.end(editor, [6]));
    await settled();
    expect(editor.selection).toEqual(at([5, 0], 1));
    // → from the end of «Toggle»: into «c» → past everything «t» folds, the start of «other».
    editor.select(Editor.end(editor, [1]));
    await settled();
    editor.select(Editor.start(editor, [2]));
    await settled();
    expect(editor.selection).toEqual(at([5, 0], 0));
    // Ctrl+End on a page that ends folded: back to the toggle's text.
    const ending = drawn(doc(title(), text('a', 0, 'a', cursor()), toggle('t', 0, 'T'), text('c', 1, 'c')));
    ending.select(Editor.end(ending, []));
    await settled();
    expect(ending.selection).toEqual(at([2, 0], 1));
    expect(['t', 't2', 'other'].map((uid) => editor.folds.isOpen(uid))).toEqual([false, false, false]);
  });

  it('a change of the document bringing the caret into one opens the toggles above it, and only those; the caret stays', async () => {
    const editor = drawn(page(cursor()));
    // A paragraph put two toggles down with the caret in it (as undo or another writer might).
    editor.insertNodes(text('new', 2, 'новый') as never, { at: [5], select: true });
    await settled();
    expect(['t', 't2', 'other'].map((uid) => editor.folds.isOpen(uid))).toEqual([true, true, false]);
    expect(editor.selection?.anchor.path).toEqual([5, 0]);
    expect(away(editor)).toEqual(['o']);
  });

  it('the caret’s block moved under a closed toggle (Tab, another writer) opens it', async () => {
    const editor = drawn(doc(title(), toggle('t', 0, 'T'), text('c', 1, 'c'), text('me', 0, 'me', cursor())));
    editor.setNodes({ depth: 1 }, { at: [3] });
    await settled();
    expect(editor.folds.isOpen('t')).toBe(true);
    expect(away(editor)).toEqual([]);
  });

  it('unfoldAround opens what folds a block away (a link, a search result, a table of contents)', () => {
    const editor = drawn(page());
    unfoldAround(editor, 4);
    expect(['t', 't2', 'other'].map((uid) => editor.folds.isOpen(uid))).toEqual([true, true, false]);
    unfoldAround(editor, 6);
    expect(away(editor)).toEqual([]);
  });

  it('an editor follows the fold state only while drawn: not drawn, nothing of it is kept by the state', () => {
    const folds = memoryFolds();
    let active = 0;
    const counting = {
      ...folds,
      subscribe: (listener: () => void) => {
        active += 1;
        const off = folds.subscribe(listener);
        return () => {
          active -= 1;
          off();
        };
      },
    };
    const editor = editorWith(page());
    editor.folds = counting;
    expect(active).toBe(0);
    const stop = onFoldedAwayChange(editor, () => undefined);
    const second = onFoldedAwayChange(editor, () => undefined);
    expect(active).toBe(1);
    stop();
    expect(active).toBe(1);
    second();
    expect(active).toBe(0);
    // Not following meanwhile, it still tells what is folded away as it is now (computed once per change: its blocks' first drawing asks it per block).
    expect(foldedAway(editor)).toBe(foldedAway(editor));
    folds.setOpen('t', true);
    expect(away(editor)).toEqual(['d', 'o']);
  });
});
