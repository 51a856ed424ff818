import { act, fireEvent, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { Editor, Transforms, type Range } from 'slate';
import { ELEMENT_TO_NODE } from 'slate-dom';
import type { WorkspaceEditor } from '../../plugins';
import type { BlockSyncApi } from '../../plugins/withBlockSync';
import type { WireBlock } from '../../schema/block';
import type { BlockWireType } from '../../schema/blocks';
import { newElement } from '../../schema/element';
import { createStore } from '../app/store';
import { DocumentEditor } from './DocumentEditor';
import { TEST_PAGE_ID, wireBlock } from './blocks/testing';
import { withContentEditable } from '../../test/helpers/jsdomEditable';

/*
 * Keys at the editor level: the page editor as the page screen mounts it (DocumentEditor: its key
 * chain, the plugins, slate-react's own key handling), keys pressed on the editable, and what the
 * block-sync queue then sends (recorded by a stand-in API; sent on unmount, as when leaving the page).
 * Spec §4 «Other editor behaviour»: Enter in an empty list item, or at a child's end, outdents;
 * deleting selected blocks merges the remaining text (docs/web-app.md «Editor keys»).
 */

withContentEditable();

const page = newElement({ id: TEST_PAGE_ID, workspaceId: 'ws', title: 'Страница', section: 'private' }, '2026-01-01T00:00:00.000Z');

/** A wire block with text, under `parentId` (the editor gives it the depth below its parent). */
const block = (id: string, text: string, parentId: string | null = null, type: BlockWireType = 'text', data: object = {}): WireBlock => ({
  ...wireBlock(id, type, { tokens: text ? [{ text }] : [], ...data } as never),
  parentId,
});

type Sent = { op: 'create' | 'update' | 'move' | 'delete'; id: string; body?: Record<string, unknown> };

function mount(blocks: WireBlock[]) {
  const sent: Sent[] = [];
  const api: BlockSyncApi = {
    createBlock: async (body) => {
      sent.push({ op: 'create', id: body.id, body: body as unknown as Record<string, unknown> });
      return { ...body, contentType: 'Block', version: 1 } as unknown as WireBlock;
    },
    updateBlock: async (id, body) => {
      sent.push({ op: 'update', id, body: body as unknown as Record<string, unknown> });
      return { id, version: (body.version ?? 1) + 1 } as unknown as WireBlock;
    },
    moveBlock: async (id, body) => {
      sent.push({ op: 'move', id, body });
      return { id, version: 1, ...body } as unknown as WireBlock;
    },
    deleteBlock: async (id) => {
      sent.push({ op: 'delete', id });
    },
  };
  const view = render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <DocumentEditor
          page={page}
          blocks={blocks}
          canEdit
          onTitleEdited={() => undefined}
          saveTitle={async () => undefined}
          onSyncStatus={() => undefined}
          api={api}
        />
      </MemoryRouter>
    </Provider>,
  );
  const editable = view.container.querySelector('[data-slate-editor]') as HTMLElement;
  const editor = ELEMENT_TO_NODE.get(editable) as unknown as WorkspaceEditor;
  // slate-react (without beforeinput, as in jsdom) reads the key code; the app's own rules read `key`.
  const CODES: Record<string, number> = { Enter: 13, Backspace: 8, Delete: 46, Tab: 9 };
  // Slate tells React of a change in a microtask: each step lets it run inside act.
  const step = (run: () => void) =>
    act(async () => {
      run();
      await Promise.resolve();
    });
  const press = (key: string) => step(() => fireEvent.keyDown(editable, { key, keyCode: CODES[key], which: CODES[key] }));
  const select = (range: Range) => step(() => Transforms.select(editor, range));
  const caretAtEnd = (index: number) => step(() => Transforms.select(editor, Editor.end(editor, [index])));
  const type = (text: string) => step(() => editor.insertText(text));
  /** Leaves the page: the queue sends what is pending, and the test reads what went out. */
  const leave = async () => {
    view.unmount();
    await act(async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    });
    return sent;
  };
  return { editor, press, select, caretAtEnd, type, leave };
}

/** uid:depth:type:text of every block after the title (a new block's uid as «new»). */
const shape = (editor: Editor, known: readonly string[]) =>
  editor.children.slice(1).map((node, i) => {
    const { uid, depth, type } = node as { uid: string; depth?: number; type: string };
    return `${known.includes(uid) ? uid : 'new'}:${depth ?? 0}:${type}:${Editor.string(editor, [i + 1])}`;
  });

describe('Enter in nested blocks (spec §4: «at a child’s end, outdents»)', () => {
  const KNOWN = ['a', 'b', 'c'];

  it('at the end of a child with text Enter makes its next sibling; Enter on that empty child takes it out of the nesting', async () => {
    const { editor, press, caretAtEnd, leave } = mount([block('a', 'Родитель'), block('b', 'Ребёнок', 'a'), block('c', 'Дальше')]);
    await caretAtEnd(2);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:textBlock:Родитель', 'b:1:textBlock:Ребёнок', 'new:1:textBlock:', 'c:0:textBlock:Дальше']);
    expect(editor.selection?.anchor.path).toEqual([3, 0]);
    await press('Enter');
    // The empty child at the end of its parent's children: one level up, a sibling of its parent.
    expect(shape(editor, KNOWN)).toEqual(['a:0:textBlock:Родитель', 'b:1:textBlock:Ребёнок', 'new:0:textBlock:', 'c:0:textBlock:Дальше']);
    expect(editor.selection?.anchor.path).toEqual([3, 0]);
    const fresh = (editor.children[3] as { uid: string }).uid;
    // The server gets the new block at its last place: after «Родитель» at the top level, not under it.
    const sent = await leave();
    const made = sent.filter((s) => s.id === fresh);
    expect(made[0]).toMatchObject({ op: 'create' });
    const place = made.at(-1)!.body!;
    expect({ parentId: place.parentId, placeAfter: place.placeAfter }).toEqual({ parentId: null, placeAfter: 'a' });
  });

  it('a nested list: Enter at an item’s end continues the nested list; on the empty item it outdents, then ends the list', async () => {
    const { editor, press, caretAtEnd } = mount([block('a', 'Пункт', null, 'bulletList'), block('b', 'Вложенный', 'a', 'bulletList')]);
    await caretAtEnd(2);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:bulletListBlock:Пункт', 'b:1:bulletListBlock:Вложенный', 'new:1:bulletListBlock:']);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:bulletListBlock:Пункт', 'b:1:bulletListBlock:Вложенный', 'new:0:bulletListBlock:']);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:bulletListBlock:Пункт', 'b:1:bulletListBlock:Вложенный', 'new:0:textBlock:']);
  });

  it('Enter in the middle of a child splits it at the child’s depth', async () => {
    const { editor, press, select } = mount([block('a', 'Родитель'), block('b', 'РебёнокДва', 'a')]);
    await select({ anchor: { path: [2, 0], offset: 7 }, focus: { path: [2, 0], offset: 7 } });
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:textBlock:Родитель', 'b:1:textBlock:Ребёнок', 'new:1:textBlock:Два']);
  });

  it('a callout: Enter at its end writes inside it; Enter on that empty child leaves the callout', async () => {
    const { editor, press, caretAtEnd } = mount([block('a', 'Важно', null, 'callout', { icon: '💡' }), block('c', 'Дальше')]);
    await caretAtEnd(1);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:calloutBlock:Важно', 'new:1:textBlock:', 'c:0:textBlock:Дальше']);
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:calloutBlock:Важно', 'new:0:textBlock:', 'c:0:textBlock:Дальше']);
  });

  it('an empty child with siblings after it: Enter outdents it and the siblings after it become its children (as Shift+Tab does)', async () => {
    const { editor, press, select } = mount([block('a', 'Родитель'), block('b', '', 'a'), block('c', 'Младший', 'a')]);
    await select({ anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } });
    await press('Enter');
    expect(shape(editor, KNOWN)).toEqual(['a:0:textBlock:Родитель', 'b:0:textBlock:', 'c:1:textBlock:Младший']);
  });
});

describe('deleting across blocks (spec §4: «Deleting selected blocks merges the remaining text»)', () => {
  const KNOWN = ['a', 'b', 'c', 'c1', 'd'];
  const blocks = () => [block('a', 'Первый абзац'), block('b', 'второй', 'a'), block('c', 'третий абзац'), block('c1', 'ребёнок', 'c'), block('d', 'после')];
  // From «Первый|» to «третий |»: what is left is «Первый» + «абзац».
  const across = { anchor: { path: [1, 0], offset: 6 }, focus: { path: [3, 0], offset: 7 } };

  it.each([
    ['Backspace', across],
    ['Delete', across],
    ['Backspace', { anchor: across.focus, focus: across.anchor }],
  ])('%s over a selection from one block into another leaves the first block with the text before and after it', async (key, range) => {
    const { editor, press, select, leave } = mount(blocks());
    await select(range);
    await press(key);
    expect(shape(editor, KNOWN)).toEqual(['a:0:textBlock:Первыйабзац', 'c1:1:textBlock:ребёнок', 'd:0:textBlock:после']);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 6 }, focus: { path: [1, 0], offset: 6 } });
    // The server: the first block with the merged text, the blocks in between and the last one
    // deleted, the last one's child now under the first block.
    const sent = await leave();
    expect(sent.filter((s) => s.op === 'update' && s.id === 'a').at(-1)?.body).toMatchObject({ data: { tokens: [{ text: 'Первыйабзац' }] } });
    expect(
      sent
        .filter((s) => s.op === 'delete')
        .map((s) => s.id)
        .sort(),
    ).toEqual(['b', 'c']);
    expect(sent.filter((s) => s.op === 'move' && s.id === 'c1').at(-1)?.body).toEqual({ parentId: 'a', placeAfter: null });
    expect(sent.some((s) => s.op === 'delete' && (s.id === 'a' || s.id === 'd' || s.id === 'c1'))).toBe(false);
  });

  it('the merged block keeps the first block’s type and marks; typing goes in at the join', async () => {
    const { editor, press, select, type } = mount([
      block('a', '', null, 'heading2', { tokens: [{ text: 'Заго' }, { text: 'ловок', bold: true }] }),
      block('b', 'пункт списка', null, 'bulletList'),
    ]);
    await select({ anchor: { path: [1, 1], offset: 2 }, focus: { path: [2, 0], offset: 6 } });
    await press('Backspace');
    expect(shape(editor, KNOWN)).toEqual(['a:0:heading2Block:Заголосписка']);
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'Заго' }, { text: 'ло', bold: true }, { text: 'списка' }] });
    await type('—');
    expect(Editor.string(editor, [1])).toBe('Заголо—списка');
  });
});
