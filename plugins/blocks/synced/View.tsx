import { lazy, Suspense, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Editor, Transforms } from 'slate';
import { ReactEditor, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import type { WireBlock } from '../../../schema/block';
import { canEdit as levelCanEdit } from '../../../schema/policies/page';
import type { SyncStatus } from '../../withBlockSync';
import { api, elementUrl } from '../../../src/app/api';
import { loadBlocks } from '../../../src/editor/blockApi';
import { useRealtime } from '../../../src/app/RealtimeProvider';
import { useAppSelector } from '../../../src/app/store';
import { showToast } from '../../../src/ui/Toast';
import {
  blockRootProps,
  editorT,
  HostBlockMenuContext,
  Icon,
  NestedEditorsContext,
  type BlockIcons,
  type BlockMakers,
  type BlockMenuItems,
  type BlockTypedOnto,
  type BlockViews,
  type NestedEditor,
} from '../../../src/editor/blockView';
import type { BlockElement } from '../../../schema/slate';
import type { SyncedElement } from './block';
import { blockIndexOf } from '../../queries';
import {
  copySynced,
  hasStartingBlocks,
  makeSynced,
  movableIntoSynced,
  putStartingBlocks,
  startingPage,
  syncedContent,
  takeStartingBlocks,
  typeIntoStarting,
  unsync,
} from './sync';
import './synced.css';

type Loaded =
  { status: 'loading' } | { status: 'ready'; page: WireElement; blocks: WireBlock[]; at: string | undefined } | { status: 'noAccess' | 'gone' | 'failed' };

/** What a failed read of the synced block's page means to the reader. */
function failureOf(error: unknown): Loaded {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 403 || status === 401) return { status: 'noAccess' };
  if (status === 404 || status === 410) return { status: 'gone' };
  return { status: 'failed' };
}

const stopEvent = (event: { stopPropagation(): void }) => event.stopPropagation();

/** «История версий» of the synced block's page (the page's own dialog), loaded when first opened. */
const HistoryDialog = lazy(() => import('../../../src/features/history/HistoryDialog').then((module) => ({ default: module.HistoryDialog })));

/** How soon a synced block whose page could not be read (no answer) reads it again. */
const LOAD_RETRY_MS = 3_000;

/** The editors of the synced blocks drawn now, by block (the block menu's «Отвязать» reads the blocks there). */
const drawnEditors = new Map<string, Editor>();

const SyncIcon = ({ size = 16 }: { size?: number }) => (
  <Icon size={size}>
    <path d="M20 11a8 8 0 0 0-14.5-4.6L4 8M4 4v4h4M4 13a8 8 0 0 0 14.5 4.6L20 16M20 20v-4h-4" />
  </Icon>
);

/**
 * A synced block: its page's blocks in an editor of their own, drawn in this page's editor (the
 * page editor's component, from `NestedEditorsContext`), live — others' edits come through the
 * synced page's realtime channel as on any page. Editable when its page is (so when the page it
 * was made on is); read-only otherwise, with a note; «Нет доступа к исходному блоку» to those who
 * may not read it. Its bar (on hover or focus): «Копировать и синхронизировать», «Отвязать».
 */
export function SyncedView({ attributes, children, element }: RenderElementProps) {
  const block = element as SyncedElement;
  const outer = useSlateStatic();
  const nested = useContext(NestedEditorsContext);
  const selected = useSelected();
  const realtime = useRealtime();
  const user = useAppSelector((state) => state.auth.user);
  const signedIn = user !== null && !user.anonymous;
  // A synced block just made here: its page is known (made a moment ago, no blocks in it yet), so
  // its editor is drawn at once, without reading the page again — the caret goes into it a frame
  // later instead of a round trip later.
  const [loaded, setLoaded] = useState<Loaded>(() => {
    const page = (nested?.depth ?? 0) > 0 ? undefined : startingPage(block.pageId);
    return page ? { status: 'ready', page, blocks: [], at: undefined } : { status: 'loading' };
  });
  const seeded = useRef(loaded.status === 'ready');
  const [reloads, setReloads] = useState(0);
  const [status, setStatus] = useState<SyncStatus>('saved');
  const [history, setHistory] = useState(false);
  const inner = useRef<Editor | null>(null);
  const tooDeep = (nested?.depth ?? 0) > 0;
  const published = nested?.published ?? false;
  const outerEditable = !ReactEditor.isReadOnly(outer as ReactEditor);

  useEffect(() => {
    if (tooDeep) return;
    if (seeded.current) {
      // Drawn from the page just made: read only when asked again (a reload, another reader).
      seeded.current = false;
      return;
    }
    let live = true;
    setLoaded({ status: 'loading' });
    const readAsMember = () =>
      Promise.all([api<unknown>(elementUrl(block.pageId)).then(({ data }) => wireElementSchema.parse(data)), loadBlocks(block.pageId)]).then(
        ([page, { blocks, at }]) => ({ page, blocks, at }),
      );
    // On a published page, its page is read as a public page (public while the page it was made
    // on is) by anyone not signed in, and by those signed in who may not read it otherwise (a
    // version in the history dialog is «published» too, and read as a member's).
    const readPublic = () =>
      api<unknown>(`/api/v3/spaces/element/public/${encodeURIComponent(block.pageId)}`).then(({ data, included }) => ({
        page: wireElementSchema.parse(data),
        blocks: ((included ?? []) as Array<{ contentType?: string }>).filter((item) => item.contentType === 'Block') as unknown as WireBlock[],
        at: undefined,
      }));
    const read = !published ? readAsMember() : signedIn ? readAsMember().catch(readPublic) : readPublic();
    let retry: ReturnType<typeof setTimeout> | undefined;
    read.then(
      ({ page, blocks, at }) => live && setLoaded(page.synced ? { status: 'ready', page, blocks, at } : { status: 'gone' }),
      (error: unknown) => {
        if (!live) return;
        const failure = published ? ({ status: 'noAccess' } as const) : failureOf(error);
        setLoaded(failure);
        // No answer (offline, the server restarting): read again shortly — a synced block just
        // made waits for it to put its blocks in.
        if (failure.status === 'failed') retry = setTimeout(() => setReloads((n) => n + 1), LOAD_RETRY_MS);
      },
    );
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [block.pageId, reloads, tooDeep, published, signedIn]);

  const ready = loaded.status === 'ready' ? loaded : null;
  // A search result's or a reminder's block inside it (the page's editor did not hold it): shown
  // by its editor — asked for while it is drawn, or before it was loaded (`pending`).
  const [revealUid, setRevealUid] = useState<string | null>(null);
  useEffect(() => {
    const editor = inner.current;
    if (!ready || !editor || !nested) return;
    const holds = (uid: string) => blockIndexOf(editor, uid) >= 0;
    const { reveal } = nested;
    if (reveal.pending !== null && holds(reveal.pending)) {
      setRevealUid(reveal.pending);
      reveal.pending = null;
    }
    const listener = (uid: string) => {
      if (!holds(uid)) return false;
      // A new request each time (the same block asked for again is shown again).
      setRevealUid(null);
      requestAnimationFrame(() => setRevealUid(uid));
      return true;
    };
    reveal.listeners.add(listener);
    return () => {
      reveal.listeners.delete(listener);
    };
  }, [ready, nested]);
  // A published page (and a version in the history dialog) shows it read-only, as the rest.
  const editable = ready !== null && !published && levelCanEdit(ready.page.accessLevel) && !ready.page.inTrash;

  // Its editor known by this block while drawn (the block menu's «Отвязать», «Копировать и
  // синхронизировать», and keys typed onto the block: from the commit that draws it on).
  useLayoutEffect(() => {
    const editor = inner.current;
    if (!ready || !editor) return;
    drawnEditors.set(block.uid, editor);
    return () => {
      if (drawnEditors.get(block.uid) === editor) drawnEditors.delete(block.uid);
    };
  }, [ready, block.uid]);

  // A synced block just made: its blocks typed into its editor once it is there (then its sync
  // saves them), the caret in the first. Until then they are in this tab only: the page counts
  // them as unsaved (its «Сохранено», its leave guard and the browser's question on closing).
  const [starting, setStarting] = useState(() => hasStartingBlocks(block.pageId));
  useEffect(() => {
    if (!starting || !nested) return;
    const waiting: NestedEditor = { unsaved: () => hasStartingBlocks(block.pageId), save: async () => undefined, editable: true };
    const leave = nested.attach(waiting);
    nested.status(waiting, 'pending');
    // (The page's own question on closing the tab asks its `unsaved()`, which asks this one.)
    return leave;
  }, [starting, nested, block.pageId]);
  useEffect(() => {
    const editor = inner.current;
    if (!ready || !editable || !editor || !starting) return;
    const taken = takeStartingBlocks(block.pageId);
    setStarting(false);
    if (!taken) return;
    putStartingBlocks(editor, taken.blocks, taken.typed);
    // The caret into it once its blocks are drawn (slate-react's focus needs their DOM). A key
    // typed before that, onto the block in the page around it, goes into it too (blockTypedOnto)
    // and leaves the caret after it: kept there.
    requestAnimationFrame(() => {
      if (!editor.selection) Transforms.select(editor, Editor.start(editor, [1]));
      ReactEditor.focus(editor as ReactEditor);
    });
  }, [ready, editable, starting, block.pageId]);

  const copy = useCallback(() => copyWithToast(block), [block]);
  const unlink = useCallback(() => {
    const index = blockIndexOf(outer, block.uid);
    if (index < 1) return;
    unlinkAt(outer, index);
    ReactEditor.focus(outer as ReactEditor);
  }, [outer, block.uid]);

  // Its bar's actions, in its own editor's block menu too (Ctrl+/ with the caret inside: the keyboard's way to them).
  const hostMenu = useMemo(
    () =>
      outerEditable
        ? {
            title: editorT('synced.label'),
            items: [
              { id: 'synced.copy', label: editorT('synced.copyAndSync'), run: copy },
              { id: 'synced.unsync', label: editorT('synced.unsync'), run: unlink },
            ],
          }
        : null,
    [outerEditable, copy, unlink],
  );
  const Nested = nested?.Editor;
  let body;
  if (tooDeep) body = <p className="synced-note">{editorT('synced.nested')}</p>;
  else if (loaded.status === 'loading') body = <p className="synced-note">{editorT('synced.loading')}</p>;
  else if (loaded.status !== 'ready' || !Nested)
    body = (
      <p className="synced-note synced-missing">
        {editorT(loaded.status === 'noAccess' ? 'synced.noAccess' : loaded.status === 'gone' ? 'synced.gone' : 'synced.loadFailed')}
      </p>
    );
  else
    body = (
      <HostBlockMenuContext.Provider value={hostMenu}>
        <Nested
          key={`${loaded.page.id}:${loaded.at ?? ''}`}
          page={loaded.page}
          blocks={loaded.blocks}
          canEdit={editable}
          embedded={{ label: editorT('synced.label') }}
          editorRef={inner}
          revealUid={revealUid}
          published={published}
          live={
            realtime && user && !published
              ? { connection: realtime, userId: user.id, since: loaded.at, onReloadNeeded: () => setReloads((n) => n + 1) }
              : undefined
          }
          onTitleEdited={() => undefined}
          saveTitle={async () => undefined}
          onSyncStatus={setStatus}
        />
      </HostBlockMenuContext.Provider>
    );
  const ok = loaded.status === 'ready';
  return (
    <div
      {...attributes}
      {...blockRootProps(block, `block-void block-synced${selected ? ' is-selected' : ''}`)}
      data-sync-status={status}
      data-synced-page={block.pageId}
    >
      <div contentEditable={false} className="synced">
        <div className="synced-bar" role="toolbar" aria-label={editorT('synced.label')}>
          <span className="synced-name">
            <SyncIcon size={14} />
            <span className="synced-name-text">{editorT('synced.label')}</span>
            {ok && !editable ? <span className="synced-readonly"> · {editorT('synced.readOnlyShort')}</span> : null}
          </span>
          {ok && outerEditable ? (
            <>
              <button type="button" className="synced-action" onMouseDown={(event) => event.preventDefault()} onClick={copy}>
                <span className="synced-long">{editorT('synced.copyAndSync')}</span>
                <span className="synced-short">{editorT('synced.copy')}</span>
              </button>
              <button type="button" className="synced-action" onMouseDown={(event) => event.preventDefault()} onClick={unlink}>
                {editorT('synced.unsync')}
              </button>
            </>
          ) : null}
          {ok ? (
            <button type="button" className="synced-action" onMouseDown={(event) => event.preventDefault()} onClick={() => setHistory(true)}>
              {editorT('synced.history')}
            </button>
          ) : null}
        </div>
        {ok && !editable ? <p className="visually-hidden">{editorT(ready?.page.inTrash ? 'synced.inTrash' : 'synced.readOnly')}</p> : null}
        {body}
        {history && ready ? (
          // The dialog is drawn over the page (a portal), but its events would still reach the page
          // editor's frame through React (a click there puts the caret under the last block).
          <div className="synced-dialog" onMouseDown={stopEvent} onClick={stopEvent} onPointerDown={stopEvent}>
            <Suspense fallback={null}>
              <HistoryDialog page={ready.page} onClose={() => setHistory(false)} />
            </Suspense>
          </div>
        ) : null}
      </div>
      {children}
    </div>
  );
}

/** «Копировать и синхронизировать»: the synced block to the clipboard, and a toast that says what to do with it. */
function copyWithToast(block: SyncedElement): void {
  const editor = drawnEditors.get(block.uid);
  copySynced(block.pageId, Promise.resolve(editor ? syncedContent(editor) : [])).then(
    () => showToast(editorT('synced.copied'), 'info', 5_000),
    () => showToast(editorT('synced.copyFailed'), 'error'),
  );
}

/** «Отвязать» the synced block at `index` (its blocks read from its editor, which must be drawn). */
function unlinkAt(editor: Editor, index: number): void {
  const block = editor.children[index] as SyncedElement | undefined;
  const inner = block ? drawnEditors.get(block.uid) : undefined;
  if (!inner) return;
  unsync(editor, index, syncedContent(inner));
  showToast(editorT('synced.unsynced'));
}

export const blockViews: BlockViews = { syncedBlock: SyncedView };

export const blockIcons: BlockIcons = { synced: () => <SyncIcon size={24} /> };

/** The slash menu's «Синхронизированный блок»: its page made first, then the block with an empty paragraph in it. */
export const blockMakers: BlockMakers = {
  syncedBlock: (editor, { path, pageId, nested }) => {
    if (nested) {
      showToast(editorT('synced.nested'), 'error');
      return;
    }
    const uid = (editor.children[path[0]] as { uid?: string } | undefined)?.uid;
    if (!uid) return;
    makeSynced(editor, pageId, { uid }, []).catch(() => showToast(editorT('synced.failed'), 'error'));
  },
};

/**
 * Text typed with the page's caret on a synced block (right after one is made, until its editor
 * takes the caret; or the block selected) goes into its editor, at its caret or the start of its
 * blocks, and its editor takes the focus — never dropped while it can be written.
 */
export const blockTypedOnto: BlockTypedOnto = {
  syncedBlock: (outer, index, text) => {
    const { uid, pageId } = outer.children[index] as SyncedElement;
    const editor = drawnEditors.get(uid);
    // Just made, its editor not drawn yet or not holding its starting blocks yet (its view puts
    // them in an effect after the drawing): the text waits with them, in order.
    if ((!editor || editor.children.length < 2) && typeIntoStarting(pageId, text)) return true;
    if (!editor || ReactEditor.isReadOnly(editor as ReactEditor) || editor.children.length < 2) return false;
    if (!editor.selection) Transforms.select(editor, Editor.start(editor, [1]));
    Transforms.insertText(editor, text);
    ReactEditor.focus(editor as ReactEditor);
    return true;
  },
};

/**
 * The block menu: on a synced block «Копировать и синхронизировать» and «Отвязать» (when its blocks
 * are drawn); on another block (with the blocks under it) «Копировать и синхронизировать» makes it
 * a synced block and copies that — not inside a synced block's own editor (they do not nest).
 */
export const blockMenuItems: BlockMenuItems = {
  syncedBlock: [
    {
      id: 'synced.copy',
      label: 'synced.copyAndSync',
      shows: (editor, index) => drawnEditors.has((editor.children[index] as SyncedElement).uid),
      run: (editor, index) => copyWithToast(editor.children[index] as SyncedElement),
    },
    {
      id: 'synced.unsync',
      label: 'synced.unsync',
      shows: (editor, index) => drawnEditors.has((editor.children[index] as SyncedElement).uid),
      run: (editor, index) => unlinkAt(editor, index),
    },
  ],
  any: [
    {
      id: 'synced.make',
      label: 'synced.copyAndSync',
      shows: (editor, index, { nested }) => !nested && movableIntoSynced(editor, index),
      run: (editor, index, { pageId }) => {
        const uid = (editor.children[index] as BlockElement).uid;
        const made = makeSynced(editor, pageId, { uid });
        // The clipboard is written now, in the click (browsers allow it there), with what it holds once made.
        copySynced(
          made.then(({ synced }) => synced.pageId),
          made.then(({ blocks }) => blocks),
        ).then(
          () => showToast(editorT('synced.copied'), 'info', 5_000),
          () => showToast(editorT('synced.failed'), 'error'),
        );
      },
    },
  ],
};
