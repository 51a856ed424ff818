import { Editor, Node, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { installFetch } from '../../../src/editor/blocks/testing';
import { blockWith, doc, editorWith, text, title } from '../../testDocument';
import type { BlockElement } from '../../../schema/slate';
import { makeSynced, movableIntoSynced, putStartingBlocks, syncedContent, takeStartingBlocks, typeIntoStarting, unsync } from './sync';
import { syncedBlock } from './block';
import { newElement } from '../../../schema/element';

const SYNCED_PAGE = '0e9c1d6a-4a57-4b5e-9d1c-2f3b4a5c6d7e';
const HOLDER = '11111111-2222-4333-8444-555555555555';

function answerWithPage() {
  return installFetch((call) => ({
    status: 201,
    body: { data: { ...newElement({ id: (call.body as { id: string }).id, parentId: HOLDER, path: [HOLDER] }), synced: true } },
  }));
}

const shape = (blocks: readonly unknown[]) => (blocks as BlockElement[]).map((b) => `${b.type}:${b.depth ?? 0}:${Node.string(b)}`);

describe('synced blocks in the editor', () => {
  it('turns blocks with their subtree into a synced block: its page made first, the blocks moved into it (fresh ids, shallowest at the top), one undo step', async () => {
    const calls = answerWithPage();
    const editor = editorWith(
      doc(
        title(),
        text('a', 'Выше'),
        blockWith('textBlock', 'b', { depth: 1 }, 'Первый'),
        blockWith('textBlock', 'c', { depth: 2 }, 'Вложенный'),
        blockWith('textBlock', 'd', { depth: 1 }, 'Второй'),
        text('e', 'Ниже'),
      ),
    );
    const { synced } = await makeSynced(editor, HOLDER, { uid: 'b', lastUid: 'd' });
    expect(calls.map((c) => [c.method, c.url])).toEqual([['POST', `/api/v3/spaces/element/${HOLDER}/synced`]]);
    const pageId = (calls[0].body as { id: string }).id;
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Выше', 'syncedBlock:1:', 'textBlock:0:Ниже']);
    expect(editor.children[2]).toMatchObject({ uid: synced.uid, pageId });
    const moved = takeStartingBlocks(pageId)!.blocks;
    expect(shape(moved)).toEqual(['textBlock:0:Первый', 'textBlock:1:Вложенный', 'textBlock:0:Второй']);
    expect(moved.map((b) => b.uid).some((id) => ['b', 'c', 'd'].includes(id))).toBe(false);
    // Taken once.
    expect(takeStartingBlocks(pageId)).toBeUndefined();
    HistoryEditor.undo(editor as HistoryEditor);
    expect(shape(editor.children)).toEqual([
      'pageHeadingBlock:0:Plan',
      'textBlock:0:Выше',
      'textBlock:1:Первый',
      'textBlock:2:Вложенный',
      'textBlock:1:Второй',
      'textBlock:0:Ниже',
    ]);
  });

  it('from the slash menu: the empty paragraph is replaced and the synced block starts with one empty paragraph', async () => {
    const calls = answerWithPage();
    // (The menu has taken the typed «/синхр» out of the line.)
    const editor = editorWith(doc(title(), text('a', 'Выше'), text('s')));
    await makeSynced(editor, HOLDER, { uid: 's' }, []);
    const pageId = (calls[0].body as { id: string }).id;
    // (A page does not end with a void block: a paragraph follows it, as after a divider.)
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Выше', 'syncedBlock:0:', 'textBlock:0:']);
    expect(shape(takeStartingBlocks(pageId)!.blocks)).toEqual(['textBlock:0:']);
  });

  it('from the slash menu, the line typed into during the round trip: kept, the synced block after it', async () => {
    answerWithPage();
    const editor = editorWith(doc(title(), text('s')));
    Transforms.select(editor, Editor.start(editor, [1]));
    const made = makeSynced(editor, HOLDER, { uid: 's' }, []);
    editor.insertText('набрано');
    await made;
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:набрано', 'syncedBlock:0:', 'textBlock:0:']);
  });

  it('a block with a database (or a synced block) under it does not move into one', async () => {
    const calls = answerWithPage();
    const editor = editorWith(doc(title(), text('t', 'Над таблицей'), blockWith('databaseBlock', 'db', { depth: 1 }), text('u', 'Другой')));
    expect(movableIntoSynced(editor, 1)).toBe(false);
    expect(movableIntoSynced(editor, 3)).toBe(true);
    await expect(makeSynced(editor, HOLDER, { uid: 't' })).rejects.toBeDefined();
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Над таблицей', 'databaseBlock:1:', 'textBlock:0:Другой']);
    expect(calls).toHaveLength(1);
  });

  it('nothing changes when the page cannot be made', async () => {
    installFetch(() => ({ status: 403, body: { data: null, errors: [{ code: 'forbidden', message: 'no' }] } }));
    const editor = editorWith(doc(title(), text('a', 'Текст')));
    await expect(makeSynced(editor, HOLDER, { uid: 'a' })).rejects.toBeDefined();
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Текст']);
  });

  it('«Отвязать»: plain copies of its blocks at its depth, fresh ids, here only; one undo step brings it back', () => {
    const inner = editorWith(doc(title(), text('x', 'Общий'), blockWith('textBlock', 'y', { depth: 1 }, 'Под ним')));
    const editor = editorWith(doc(title(), text('a', 'Выше'), blockWith('syncedBlock', 's', { depth: 1 }), text('e', 'Ниже')));
    (editor.children[2] as unknown as { pageId: string }).pageId = SYNCED_PAGE;
    unsync(editor, 2, syncedContent(inner));
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Выше', 'textBlock:1:Общий', 'textBlock:2:Под ним', 'textBlock:0:Ниже']);
    expect((editor.children.slice(2, 4) as BlockElement[]).map((b) => b.uid).some((id) => id === 'x' || id === 'y')).toBe(false);
    // The synced block's own editor is untouched.
    expect(shape(inner.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Общий', 'textBlock:1:Под ним']);
    HistoryEditor.undo(editor as HistoryEditor);
    expect(shape(editor.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Выше', 'syncedBlock:1:', 'textBlock:0:Ниже']);
  });

  it('the starting blocks replace what the new editor holds, with no undo step', () => {
    const inner = editorWith(doc(title(), text('x', '')));
    putStartingBlocks(inner, [text('n', 'Перенесённый') as unknown as BlockElement]);
    expect(shape(inner.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:Перенесённый']);
    expect((inner as HistoryEditor).history.undos).toHaveLength(0);
  });

  it('text typed onto a synced block before its editor holds its starting blocks waits with them, then goes first, the caret after it', async () => {
    const calls = answerWithPage();
    const editor = editorWith(doc(title(), text('s')));
    await makeSynced(editor, HOLDER, { uid: 's' }, []);
    const pageId = (calls[0].body as { id: string }).id;
    expect([typeIntoStarting(pageId, 'аб'), typeIntoStarting(pageId, 'в')]).toEqual([true, true]);
    const starting = takeStartingBlocks(pageId)!;
    expect(starting.typed).toBe('абв');
    // Taken: nothing waits any more, a later key is not kept here.
    expect(typeIntoStarting(pageId, 'г')).toBe(false);
    const inner = editorWith(doc(title(), text('x', '')));
    putStartingBlocks(inner, starting.blocks, starting.typed);
    expect(shape(inner.children)).toEqual(['pageHeadingBlock:0:Plan', 'textBlock:0:абв']);
    expect(inner.selection?.anchor).toEqual({ path: [1, 0], offset: 3 });
  });

  it('its HTML is a marker the paste reads back as one more instance of the same blocks', () => {
    const html = syncedBlock.html!.serialize({ pageId: SYNCED_PAGE }, '');
    expect(html).toBe(`<div data-synced-block="${SYNCED_PAGE}"></div>`);
    const element = new DOMParser().parseFromString(html, 'text/html').body.firstElementChild!;
    expect(syncedBlock.html!.parse[0].read(element, [])).toEqual({ pageId: SYNCED_PAGE });
    element.setAttribute('data-synced-block', 'not-an-id');
    expect(syncedBlock.html!.parse[0].read(element, [])).toBeNull();
  });
});
