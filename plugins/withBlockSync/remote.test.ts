import { Editor, Element, Transforms, type Descendant } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import { blocksToSlate, type CreateBlockBody, type UpdateBlockBody, type WireBlock } from '../../schema/block';
import { titleToSlate } from '../../schema/blocks/pageHeading';
import { ERROR_CODES } from '../../schema/errors';
import type { BlockElement } from '../../schema/slate';
import { createBlockSyncQueue, type BlockSyncApi, type BlockSyncError } from './blockSyncQueue';
import { applyRemoteBlock, readBlock, removeRemoteBlocks, replaceWithServerCopy, revertRefusedBlock } from './withBlockSync';

/*
 * Live co-editing end to end inside one process: the real editor (every plugin) wired to the real
 * sync queue exactly as the web app wires them (src/editor/DocumentEditor.tsx), against an
 * in-memory server that keeps versions and refuses stale updates (422 with its copy) like the
 * real one. Someone else's changes are fed to the queue as the realtime events would be.
 */

const PAGE_ID = 'p1';
const DEBOUNCE = 100;

function wire(id: string, text: string, extra: Partial<WireBlock> = {}): WireBlock {
  return {
    id,
    contentType: 'Block',
    pageId: PAGE_ID,
    type: 'text',
    version: 1,
    parentId: null,
    placeAfter: null,
    data: { tokens: text ? [{ text }] : [] },
    ...extra,
  };
}

const conflict = (copy: WireBlock): BlockSyncError => Object.assign(new Error('conflict'), { status: 422, code: ERROR_CODES.blockVersionConflict, data: copy });

function open(blocks: WireBlock[]) {
  const server = new Map(blocks.map((b) => [b.id, b]));
  const calls: string[] = [];
  const held: Array<() => void> = [];
  let hold = false;
  const answer = async <T>(call: string, run: () => T): Promise<T> => {
    calls.push(call);
    if (hold) await new Promise<void>((resolve) => held.push(resolve));
    return run();
  };
  const api: BlockSyncApi = {
    createBlock: (body: CreateBlockBody & { id: string }) =>
      answer(`create ${body.id} ${JSON.stringify(body.data)} after ${body.placeAfter}`, () => {
        const block = wire(body.id, '', { type: body.type, data: body.data, parentId: body.parentId ?? null, placeAfter: body.placeAfter ?? null });
        server.set(body.id, block);
        return block;
      }),
    updateBlock: (id: string, body: UpdateBlockBody) =>
      answer(`update ${id} v${body.version} ${JSON.stringify(body.data)}`, () => {
        const current = server.get(id) as WireBlock;
        if (current.version !== body.version) throw conflict(current);
        const next = { ...current, type: body.type, data: body.data, version: current.version + 1 };
        server.set(id, next);
        return next;
      }),
    moveBlock: (id, body) =>
      answer(`move ${id} → ${body.parentId}/${body.placeAfter}`, () => {
        const next = { ...(server.get(id) as WireBlock), ...body };
        server.set(id, next);
        return next;
      }),
    deleteBlock: (id, version) =>
      answer(`delete ${id} v${version}`, () => {
        const current = server.get(id);
        if (current && version !== undefined && current.version !== version) throw conflict(current);
        server.delete(id);
      }),
  };

  const changed: string[] = [];
  let queue: ReturnType<typeof createBlockSyncQueue> | null = null;
  const editor = createWorkspaceEditor({
    onBlockChanged: (uid, change) => {
      changed.push(uid);
      queue?.markDirty(uid, change);
    },
    onTitleChanged: () => undefined,
  });
  queue = createBlockSyncQueue({
    api,
    read: (uid) => readBlock(editor, PAGE_ID, uid),
    onServerCopy: (block) => replaceWithServerCopy(editor, block),
    onRejected: (uid, _error, copy) => revertRefusedBlock(editor, uid, copy),
    onRemoteBlock: (block) => applyRemoteBlock(editor, block),
    onRemoteRemove: (uids) => removeRemoteBlocks(editor, uids),
    debounceMs: DEBOUNCE,
  });
  queue.seed(blocks);
  editor.children = [titleToSlate(PAGE_ID, 'Plan'), ...blocksToSlate(blocks)] as Descendant[];

  /** Someone else's saved change: on the server, then its event. */
  const theirEdit = (block: WireBlock, at: string) => {
    server.set(block.id, block);
    queue.receive(block, at);
  };
  const texts = () => editor.children.slice(1).map((_, i) => Editor.string(editor, [i + 1]));
  const order = () => editor.children.slice(1).map((node) => (node as BlockElement).uid);
  const caretIn = (uid: string, offset: number) => {
    const index = editor.children.findIndex((n) => Element.isElement(n) && n.uid === uid);
    Transforms.select(editor, { path: [index, 0], offset });
  };
  return {
    editor,
    queue,
    server,
    calls,
    changed,
    theirEdit,
    texts,
    order,
    caretIn,
    holdAnswers: () => (hold = true),
    releaseAll: () => {
      hold = false;
      for (const release of held.splice(0)) release();
    },
  };
}

const wait = (ms: number) => jest.advanceTimersByTimeAsync(ms);
const T1 = '2026-11-23T10:00:01.000Z';
const T2 = '2026-11-23T10:00:02.000Z';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('live co-editing: the editor and the sync queue together', () => {
  it("their change of a void block (a database's fields) is set in place: the same element changes, nothing is removed, nothing sent back", async () => {
    const data = (name: string) => ({ config: { fields: { MAIN_FIELD: { name, type: 'text' } } }, view: { layouts: [] } });
    const c = open([wire('db', '', { type: 'database', data: data('Название') as never }), wire('b', 'Next', { placeAfter: 'db' })]);
    const operations: string[] = [];
    const { apply } = c.editor;
    c.editor.apply = (op) => {
      operations.push(op.type);
      apply(op);
    };
    c.theirEdit(wire('db', '', { type: 'database', version: 2, data: data('Задача') as never }), T1);
    expect(operations).toEqual(['set_node']);
    expect((c.editor.children[1] as unknown as { config: { fields: { MAIN_FIELD: { name: string } } } }).config.fields.MAIN_FIELD.name).toBe('Задача');
    await wait(DEBOUNCE * 3);
    expect(c.calls).toEqual([]);
    expect(c.changed).toEqual([]);
  });

  it('their edit of the block being typed in is merged into it; the caret stays after our text; the merge is sent on their version', async () => {
    const c = open([wire('a', 'Hello world', { version: 3 }), wire('b', 'Next', { placeAfter: 'a' })]);
    c.caretIn('a', 5);
    c.editor.insertText(' brave');
    expect(c.texts()).toEqual(['Hello brave world', 'Next']);

    c.theirEdit(wire('a', 'Hello world!', { version: 4 }), T1);

    expect(c.texts()).toEqual(['Hello brave world!', 'Next']);
    expect(c.editor.selection?.anchor).toEqual({ path: [1, 0], offset: 11 });
    // Their change was not reported as an edit here.
    expect(c.changed).toEqual(['a']);
    await wait(DEBOUNCE);
    expect(c.calls).toEqual([`update a v4 ${JSON.stringify({ tokens: [{ text: 'Hello brave world!' }] })}`]);
    expect(c.server.get('a')).toMatchObject({ version: 5, data: { tokens: [{ text: 'Hello brave world!' }] } });
    await wait(10 * DEBOUNCE);
    expect(c.calls).toHaveLength(1);
    expect(c.queue.status()).toBe('saved');
  });

  it('their edit arriving while our update is on the way is applied after the answer, with our text once', async () => {
    const c = open([wire('a', 'Hello', { version: 1 })]);
    c.caretIn('a', 5);
    c.editor.insertText(' mine');
    c.holdAnswers();
    await wait(DEBOUNCE);
    expect(c.calls).toHaveLength(1);

    // Our update is v2 on the server; they typed on top of it.
    c.server.set('a', wire('a', 'Hello mine', { version: 2 }));
    c.queue.receive(wire('a', 'Hello mine, theirs', { version: 3 }), T1);
    expect(c.texts()).toEqual(['Hello mine']);
    c.server.set('a', wire('a', 'Hello', { version: 1 }));
    c.releaseAll();
    await wait(0);

    expect(c.texts()).toEqual(['Hello mine, theirs']);
    await wait(10 * DEBOUNCE);
    expect(c.calls).toHaveLength(1);
  });

  it('a stale update (someone saved first) is rebased in the editor and sent again; both texts stay', async () => {
    const c = open([wire('a', 'one two', { version: 1 })]);
    c.caretIn('a', 3);
    c.editor.insertText(' and a half');
    // Saved by someone else, whose event has not arrived yet.
    c.server.set('a', wire('a', 'one two three', { version: 2 }));

    await wait(DEBOUNCE);
    await wait(DEBOUNCE);

    expect(c.texts()).toEqual(['one and a half two three']);
    expect(c.server.get('a')).toMatchObject({ version: 3, data: { tokens: [{ text: 'one and a half two three' }] } });
    // Their event comes late: already known, nothing changes.
    c.queue.receive(wire('a', 'one two three', { version: 2 }), T1);
    expect(c.texts()).toEqual(['one and a half two three']);
  });

  it('a block joined into the one above here while someone typed into it: what they typed comes back, its old text is not doubled', async () => {
    const c = open([wire('a', 'A'), wire('b', 'Hello', { placeAfter: 'a', version: 2 }), wire('c', 'C', { placeAfter: 'b' })]);
    // Backspace at the start of "Hello" joins it into "A".
    Transforms.select(c.editor, Editor.start(c.editor, [2]));
    c.editor.deleteBackward('character');
    c.theirEdit(wire('b', 'Hello there', { placeAfter: 'a', version: 3 }), T1);
    expect(c.order()).toEqual(['a', 'c']);

    await wait(3 * DEBOUNCE);

    expect(c.calls).toEqual(['delete b v2', 'update b v3 {"tokens":[{"text":" there"}]}', 'update a v1 {"tokens":[{"text":"AHello"}]}']);
    expect(c.order()).toEqual(['a', 'b', 'c']);
    expect(c.texts()).toEqual(['AHello', ' there', 'C']);
    expect(c.server.get('b')).toMatchObject({ version: 4 });
  });

  it('their new block and their removal show up here and are not sent back', async () => {
    const c = open([wire('a', 'A'), wire('b', 'B', { placeAfter: 'a' })]);
    c.theirEdit(wire('n', 'New', { placeAfter: 'a' }), T1);
    c.server.delete('b');
    c.queue.receiveRemoved(['b']);

    expect(c.order()).toEqual(['a', 'n']);
    await wait(10 * DEBOUNCE);
    expect(c.calls).toEqual([]);
    expect(c.changed).toEqual([]);
  });
});

/*
 * The order of blocks: a block keeps its place here only when it was moved here (our move goes
 * out next); otherwise the server's place counts, seen past blocks the server does not have yet.
 */
describe('live co-editing: the order of blocks', () => {
  it('their edit of the next block does not move it above the new block being typed here (not created yet)', async () => {
    const c = open([wire('a', 'A'), wire('b', 'B', { placeAfter: 'a' })]);
    c.caretIn('a', 1);
    c.editor.insertBreak();
    c.editor.insertText('n');
    const fresh = c.order()[1];
    expect(c.order()).toEqual(['a', fresh, 'b']);
    // b had nothing to send (its place did not change on the server: it follows a's subtree).
    await wait(DEBOUNCE - 10);
    c.editor.insertText('e');
    await wait(DEBOUNCE - 10);
    c.editor.insertText('w');

    // Still typing in the new block (its create waits for a pause); someone types in b.
    c.theirEdit(wire('b', 'B!', { placeAfter: 'a', version: 2 }), T1);

    expect(c.order()).toEqual(['a', fresh, 'b']);
    await c.queue.flush();
    expect(c.server.get(fresh)).toMatchObject({ placeAfter: 'a' });
  });

  it('their move of a block with only unsent text here is taken (not undone by our update, not lost here)', async () => {
    const c = open([wire('a', 'A'), wire('b', 'B', { placeAfter: 'a' }), wire('c', 'C', { placeAfter: 'b' })]);
    c.caretIn('b', 1);
    c.editor.insertText('!');

    // They moved b under c (a move keeps the version).
    c.theirEdit(wire('b', 'B', { parentId: 'c', placeAfter: null }), T1);
    await wait(DEBOUNCE);

    expect(c.server.get('b')).toMatchObject({ parentId: 'c', placeAfter: null, data: { tokens: [{ text: 'B!' }] } });
    expect(readBlock(c.editor, PAGE_ID, 'b')).toMatchObject({ parentId: 'c', placeAfter: null });
    expect(c.calls.filter((call) => call.startsWith('move'))).toEqual([]);
  });

  it('their reorder of a block with only unsent text here is taken: the order here matches the server', async () => {
    const c = open([wire('a', 'A'), wire('b', 'B', { placeAfter: 'a' }), wire('c', 'C', { placeAfter: 'b' })]);
    c.caretIn('b', 1);
    c.editor.insertText('!');

    c.theirEdit(wire('b', 'B', { placeAfter: 'c' }), T2);
    await wait(DEBOUNCE);

    expect(c.server.get('b')).toMatchObject({ placeAfter: 'c' });
    expect(c.order()).toEqual(['a', 'c', 'b']);
  });
});
