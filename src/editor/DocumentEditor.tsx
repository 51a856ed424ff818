import { useCallback, useContext, useEffect, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { Editor, Range, Transforms, type BaseRange, type Descendant, type NodeEntry } from 'slate';
import { Editable, ReactEditor, Slate } from 'slate-react';
import { HistoryEditor } from 'slate-history';
import { blocksToSlate, type WireBlock } from '../../schema/block';
import { titleToSlate } from '../../schema/blocks';
import { PAGE_RENAME_DEBOUNCE_MS } from '../../schema/constants';
import { holdsDatabase, wireElementSchema, type WireElement } from '../../schema/element';
import { newId } from '../../schema/ids';
import { attachLiveSync, type LiveSyncOptions } from './liveSync';
import { createPageEditor } from './pageEditor';
import {
  applyRemoteBlock,
  applyRemoteTitle,
  removeRemoteBlocks,
  createBlockSyncQueue,
  readBlock,
  readClipboard,
  bareLinkOf,
  replaceWithServerCopy,
  revertRefusedBlock,
  type BlockSyncQueue,
  type SyncStatus,
} from '../../plugins';
import { worstStatus } from '../../plugins/withBlockSync';
import { NestedEditorsContext, type NestedEditor, type NestedEditors } from './nestedEditors';
import { BLOCK_MAKERS, BLOCK_TYPED_ONTO } from './blocks';
import { blockApi, blockApiAs } from './blockApi';
import type { BlockSyncApi } from '../../plugins/withBlockSync';
import { emptyTextBlock } from '../../plugins/withPageHeading';
import type { BlockElement } from '../../schema/slate';
import { useCodeDecorate } from '../../plugins/blocks/code/decorate';
import { AfterTitleContext, BlockElementView, TextPlaceholder, TokenLeaf } from './renderers';
import { useSlashMenu } from './SlashMenu';
import { usePagePicker } from './PagePicker';
import { pageLinkTitleFrom } from './pageLinkTargets';
import { useAppSelector, useAppStore } from '../app/store';
import { createLinkedViewPage } from '../features/pageTypes/linkedView';
import { insertDocumentBlock } from './blocks/insertDocumentBlock';
import { api as apiRequest, elementUrl } from '../app/api';
import { reportCloneError } from '../features/pages/pageErrors';
import { stopUnsupportedHistory } from '../app/historyInput';
import { useFloatingToolbar } from './FloatingToolbar';
import { useLinkCard } from './LinkCard';
import { usePasteLinkMenu } from './PasteLinkMenu';
import { BlockHandle } from './BlockHandle';
import { useBlockSelection } from './useBlockSelection';
import { caretBelowBlocks } from './clickBelow';
import { ChunkVisibilityProvider, renderChunk, revealBlock } from './lazyChunks';
import { scrollCaretIntoView } from './scrollCaret';
import { DatabaseHostContext, fillDatabaseOf, type DatabaseHost } from './blocks/databaseHost';
import { insertDatabaseBlock } from './blocks/insertDatabaseBlock';
import { preloadDatabases } from './blocks/databaseRows';
import { LeaveGuard } from './LeaveGuard';
import { useDatabaseRemovalDialog } from './DatabaseRemovalDialog';
import { pasteFiles } from './pasteFiles';
import { uploadsRunning, uploadsSettled } from './upload';
import { PresenceCarets } from '../features/presence/PresenceCarets';
import { useAiAssistant } from '../features/ai/AiAssistant';
import type { AiAction } from '../../schema/ai';
import { useTranslation } from 'react-i18next';
import { showToast } from '../ui/Toast';
import { syncSelectionFromDom } from './domSelection';
import { clickToRange, replayKeys } from './earlyInput';
import { takeEarlyClick, takeEarlyKeys } from '../app/serverTop';
import { focusAfter } from '../ui/focusRegions';
import './editor.css';

/** The data type every element drag of pragmatic-drag-and-drop carries (its element adapter's native key). */
const PRAGMATIC_DRAG = 'application/vnd.pdnd';

/** How often a synced block's editor that went with edits unsaved looks again whether they are saved. */
const EMBEDDED_RETRY_MS = 1_000;

/**
 * Calls `done` once the queue has nothing left to send, flushing it now and, while something is
 * left (a failed send waiting), again every EMBEDDED_RETRY_MS.
 */
function whenSaved(queue: BlockSyncQueue, done: () => void): void {
  const check = () => {
    if (queue.hasPending()) setTimeout(() => void queue.flush().then(check), EMBEDDED_RETRY_MS);
    else done();
  };
  void queue.flush().then(check);
}

/** How long a block revealed for a search result stays marked. */
const REVEAL_MARK_MS = 2_000;

/**
 * The caret as the browser has it, taken into the editor before someone else's change is put in:
 * a caret moved by a key the browser handles itself (Home, End, the arrows) reaches the editor's
 * selection only on the next `selectionchange` (throttled), and a change put in meanwhile would
 * put the caret back where it was (typing then landed at the old place: a flaky CI run of the
 * two-tab conflict test typed «Вторая: » at the end after Home).
 */
function caretFromDom(editor: Editor): void {
  try {
    if (!ReactEditor.isFocused(editor as ReactEditor)) return;
    const dom = window.getSelection();
    if (!dom || dom.rangeCount === 0) return;
    const range = ReactEditor.toSlateRange(editor as ReactEditor, dom, { exactMatch: false, suppressThrow: true });
    if (range && (!editor.selection || !Range.equals(range, editor.selection))) Transforms.select(editor, range);
  } catch {
    // A selection outside the editor's text (a void, a placeholder): the editor's own stays.
  }
}

/** A selection that reaches into the title (the first node) is moved to the first block's start. */
function keepOutOfTitle(editor: Editor): void {
  const { selection } = editor;
  if (!selection || editor.children.length < 2 || (selection.anchor.path[0] > 0 && selection.focus.path[0] > 0)) return;
  const start = Editor.start(editor, [1]);
  Transforms.select(editor, { anchor: selection.anchor.path[0] > 0 ? selection.anchor : start, focus: selection.focus.path[0] > 0 ? selection.focus : start });
}

export interface DocumentEditorProps {
  page: WireElement;
  blocks: WireBlock[];
  canEdit: boolean;
  /** Opens the AI assistant once, right after the editor is there (a link's `?action=ai&type=`; docs/intents.md). */
  startAi?: AiAction | null;
  /** A block to scroll to and show once the editor is there (a search result's `?block=`; docs/search.md); `onRevealed` after. */
  revealUid?: string | null;
  onRevealed?(): void;
  /**
   * The selection handed from the read-only top of a big page to the editor that takes over
   * (docs/web-app.md, «Opening a page»): written while read-only, taken (and focused) when
   * editable.
   */
  handover?: MutableRefObject<BaseRange | null>;
  /** Every title keystroke (for the sidebar); the server hears of it debounced. */
  onTitleEdited(title: string): void;
  /** Sends the title to the server. */
  saveTitle(title: string): Promise<void>;
  onSyncStatus(status: SyncStatus): void;
  /** The block endpoints edits are sent to (the benchmark passes one that never touches the network). */
  api?: BlockSyncApi;
  /** A page made from the editor (a nested-page block): the app adds it to its page list. */
  onChildPageCreated?(page: WireElement): void;
  /**
   * Opens a page (the app navigates to it): a child page made from the slash menu opens once
   * its block is saved, the caret in its title (a new page's editor puts it there).
   */
  onOpenPage?(pageId: string): void;
  /** Other people's edits, live (docs/realtime.md): the connection, who we are, when the blocks were read. */
  live?: Pick<LiveSyncOptions, 'connection' | 'userId' | 'since' | 'onReloadNeeded' | 'onPageEdited'>;
  /** A published page shown to anyone (src/features/public): a database's rows are listed but do not open. */
  published?: boolean;
  /** Shown under the title, before the blocks (a database row's fields). */
  afterTitle?: ReactNode;
  /** More decorations, besides code highlighting (the history view's changed words: src/features/history). */
  decorate?(entry: NodeEntry): Range[];
  /** Others' carets on the page drawn over it (default); not over the page as it was (the history view). */
  carets?: boolean;
  /**
   * Drawn inside a block of another page's editor (a synced block's blocks): no title, no leave
   * guard of its own — the page around it waits for it and counts it in its «Сохранено»
   * (`NestedEditorsContext`); `label` names the editor.
   */
  embedded?: { label: string };
  /** Given the Slate editor once it is made (a synced block's «Отвязать» reads its blocks). */
  editorRef?: MutableRefObject<Editor | null>;
}

/**
 * The page editor: the title and the blocks in one Slate document. Edits go to the server
 * through the block-sync queue (1 s per block, one request at a time); the title is saved 500 ms
 * after the last keystroke. Nothing is sent when the page is read-only.
 */
export function DocumentEditor({
  page,
  blocks,
  canEdit,
  startAi = null,
  revealUid = null,
  onRevealed,
  handover,
  onTitleEdited,
  saveTitle,
  onSyncStatus,
  api: givenApi,
  onChildPageCreated,
  onOpenPage,
  live,
  published = false,
  afterTitle = null,
  decorate: decorateMore,
  carets = true,
  embedded,
  editorRef,
}: DocumentEditorProps) {
  const callbacks = useRef({ onTitleEdited, saveTitle, onSyncStatus, onChildPageCreated, onOpenPage });
  callbacks.current = { onTitleEdited, saveTitle, onSyncStatus, onChildPageCreated, onOpenPage };
  // The page editor this one is drawn in (a synced block's), and the editors drawn in this one:
  // the status told is the worst of this editor's own and theirs.
  const outer = useContext(NestedEditorsContext);
  // Pages made from this editor (a nested page, a page link's new page) are children of the page —
  // of the page a synced block was made on, for that block's editor (its own page has no children).
  const childPagesOf = page.synced && page.parentId ? page.parentId : page.id;
  const isEmbedded = embedded !== undefined;
  // How many editable editors are drawn in this one (synced blocks): the page's leave guard waits for them.
  const [editableNested, setEditableNested] = useState(0);
  // A synced block's editor writes as itself: another editor of the same page in this tab (the
  // block shown twice) hears its writes as anyone else's, not as its own echo.
  const [clientId] = useState(() => (embedded ? newId() : undefined));
  const api = useMemo(() => givenApi ?? (clientId ? blockApiAs(clientId) : blockApi), [givenApi, clientId]);
  const ownStatus = useRef<SyncStatus>('saved');
  const nested = useRef(new Map<NestedEditor, SyncStatus>());
  const self = useRef<NestedEditor | null>(null);
  const tellStatus = useRef(() => {
    const status = worstStatus(ownStatus.current, ...nested.current.values());
    callbacks.current.onSyncStatus(status);
    if (embedded && self.current) outer?.status(self.current, status);
  });
  const store = useAppStore();
  // Select all + Backspace (or a cut) must not take a database and its rows away unasked.
  const databaseRemoval = useDatabaseRemovalDialog();
  const confirmDatabaseRemoval = useRef(databaseRemoval.confirm);
  confirmDatabaseRemoval.current = databaseRemoval.confirm;
  // A bare link pasted: the menu that offers to make it a bookmark or an embed (set below, once the hook exists).
  const offerPastedLink = useRef<(url: string) => void>(() => undefined);

  const { editor, queue, title } = useMemo(() => {
    const titleSync = { timer: undefined as ReturnType<typeof setTimeout> | undefined, pending: null as string | null };
    const flushTitle = () => {
      clearTimeout(titleSync.timer);
      const value = titleSync.pending;
      titleSync.pending = null;
      if (value !== null) void callbacks.current.saveTitle(value);
    };
    let syncQueue: BlockSyncQueue | null = null;
    const workspaceEditor = createPageEditor(
      canEdit
        ? {
            onBlockChanged: (uid, change) => syncQueue?.markDirty(uid, change),
            onTitleChanged: (value) => {
              callbacks.current.onTitleEdited(value);
              titleSync.pending = value;
              clearTimeout(titleSync.timer);
              titleSync.timer = setTimeout(flushTitle, PAGE_RENAME_DEBOUNCE_MS);
            },
          }
        : undefined,
      {
        // The answer given, the caret goes back to the page (Ctrl+Z then undoes the removal).
        confirmDatabaseRemoval: (databases) =>
          confirmDatabaseRemoval.current(databases).then((keep) => {
            setTimeout(() => ReactEditor.focus(workspaceEditor as ReactEditor), 0);
            return keep;
          }),
      },
    );
    syncQueue = createBlockSyncQueue({
      api,
      pageId: page.id,
      read: (uid) => readBlock(workspaceEditor, page.id, uid),
      onServerCopy: (block) => {
        caretFromDom(workspaceEditor);
        replaceWithServerCopy(workspaceEditor, block);
      },
      onRejected: (uid, _error, copy) => revertRefusedBlock(workspaceEditor, uid, copy),
      onStatus: (status) => {
        ownStatus.current = status;
        tellStatus.current();
      },
      onRemoteBlock: (block) => {
        caretFromDom(workspaceEditor);
        applyRemoteBlock(workspaceEditor, block);
      },
      onRemoteRemove: (uids) => {
        caretFromDom(workspaceEditor);
        removeRemoteBlocks(workspaceEditor, uids);
      },
    });
    syncQueue.seed(blocks);
    // A page with a database: the Table view's code and first rows are asked for now, with the
    // blocks (when the page screen has not asked already: each is asked for once).
    preloadDatabases(blocks);
    if (canEdit) {
      // Files pasted or dropped (nothing else on the clipboard) become image and file uploads; a
      // bare link is pasted as a link, then offered as a bookmark or an embed.
      const { insertData } = workspaceEditor;
      workspaceEditor.insertData = (data) => {
        const files = Array.from(data.files ?? []);
        if (files.length > 0 && !readClipboard(data)) {
          pasteFiles(workspaceEditor, files);
          return;
        }
        insertData(data);
        const link = bareLinkOf(data);
        if (link) offerPastedLink.current(link);
      };
    }
    // Copy writes a page link's current title as its text (HTML and plain text).
    workspaceEditor.pageLinkTitle = (pageId) => pageLinkTitleFrom(store.getState(), pageId);
    // A duplicated nested-page block points at a deep copy of its page, made here under this page.
    // If the copy cannot be made, the duplicated block goes again (it would point at nothing).
    workspaceEditor.copyPages = (pairs) => {
      for (const { from, to } of pairs) {
        apiRequest<unknown>(`${elementUrl(from)}/page/clone`, {
          method: 'POST',
          body: { id: to, workspaceId: page.workspaceId, toElement: childPagesOf },
        }).then(
          ({ data }) => callbacks.current.onChildPageCreated?.(wireElementSchema.parse(data)),
          (error: unknown) => {
            reportCloneError(error, { pageId: from, toElement: childPagesOf, workspaceId: page.workspaceId });
            const index = workspaceEditor.children.findIndex((node) => (node as { pageId?: string }).pageId === to);
            if (index > 0) HistoryEditor.withoutSaving(workspaceEditor, () => Transforms.removeNodes(workspaceEditor, { at: [index] }));
          },
        );
      }
    };
    // Text typed with the caret on a void block goes where its view says (a synced block: into its
    // own editor — right after one is made, the caret is on it until its editor takes it); else
    // it is dropped, as on any void.
    const { insertText } = workspaceEditor;
    workspaceEditor.insertText = (text, options) => {
      const selection = workspaceEditor.selection;
      if (!options?.at && selection && Range.isCollapsed(selection)) {
        const index = selection.anchor.path[0];
        const block = workspaceEditor.children[index] as BlockElement | undefined;
        if (block && BLOCK_TYPED_ONTO[block.type]?.(workspaceEditor, index, text)) return;
      }
      insertText(text, options);
    };
    // The document goes straight into the editor: given to <Slate> as initialValue, every node of
    // a big page would be walked and copied once more.
    workspaceEditor.children = [titleToSlate(page.id, page.title), ...blocksToSlate(blocks)] as Descendant[];
    if (editorRef) editorRef.current = workspaceEditor;
    return { editor: workspaceEditor, queue: syncQueue, title: { state: titleSync, flush: flushTitle } };
    // The editor is made once per page: the component is keyed by page id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Joined while mounted; a new connection (reconnecting is the connection's own business) joins again.
  const liveConnection = live?.connection;
  const liveUser = live?.userId;
  const liveRef = useRef(live);
  liveRef.current = live;
  useEffect(() => {
    if (!liveConnection || !liveUser) return;
    return attachLiveSync({
      connection: liveConnection,
      pageId: page.id,
      userId: liveUser,
      queue,
      since: liveRef.current?.since,
      clientId,
      onReloadNeeded: () => liveRef.current?.onReloadNeeded?.(),
      onPageEdited: (changed) => {
        // A title being typed here wins (it is sent shortly); otherwise theirs shows.
        if (title.state.pending === null) applyRemoteTitle(editor, changed.title);
        liveRef.current?.onPageEdited?.(changed);
      },
    });
  }, [liveConnection, liveUser, page.id, queue, editor, title, clientId]);

  const mounted = useRef(false);
  // A new database page comes with its database block: it is new all the same.
  const isNewPage =
    canEdit && !embedded && page.title === '' && (blocks.length === 0 || (holdsDatabase(page.type) && blocks.length === 1 && blocks[0].type === 'database'));
  useEffect(() => {
    // A new page starts with the caret in its title, as in Notion.
    if (!isNewPage) return;
    Transforms.select(editor, Editor.start(editor, [0]));
    ReactEditor.focus(editor);
  }, [editor, isNewPage]);

  // Unsaved: edits not yet on the server (here or in a synced block drawn here), or a file still uploading into a block.
  const unsaved = useCallback(
    () => queue.hasPending() || title.state.pending !== null || uploadsRunning() || [...nested.current.keys()].some((editor) => editor.unsaved()),
    [queue, title],
  );
  const save = useCallback(async () => {
    title.flush();
    await uploadsSettled();
    await Promise.all([queue.flush(), ...[...nested.current.keys()].map((editor) => editor.save())]);
  }, [queue, title]);
  // Drawn inside another page's editor: that page's leave guard and «Сохранено» count this one —
  // after it is gone too, until its edits are saved.
  useEffect(() => {
    if (!isEmbedded || !outer) return;
    const me: NestedEditor = { unsaved, save, editable: canEdit };
    self.current = me;
    const leave = outer.attach(me);
    tellStatus.current();
    // Gone (or attached again with new callbacks): counted until its edits are saved; then, if
    // the editor really went away (not React's StrictMode remount), its queue stops too.
    return () =>
      whenSaved(queue, () => {
        if (self.current === me) self.current = null;
        leave();
        if (!mounted.current) queue.dispose();
      });
  }, [isEmbedded, outer, unsaved, save, queue, canEdit]);
  const nestedEditors = useMemo<NestedEditors>(
    () => ({
      Editor: DocumentEditor,
      attach: (editor) => {
        nested.current.set(editor, 'saved');
        if (editor.editable) setEditableNested((n) => n + 1);
        return () => {
          nested.current.delete(editor);
          if (editor.editable) setEditableNested((n) => n - 1);
          tellStatus.current();
        };
      },
      status: (editor, status) => {
        if (!nested.current.has(editor)) return;
        nested.current.set(editor, status);
        tellStatus.current();
      },
      depth: (outer?.depth ?? -1) + 1,
      pageId: page.id,
      childPagesOf,
      workspaceId: page.workspaceId,
      published,
      reveal: { pending: null, listeners: new Set() },
    }),
    [outer, page.id, childPagesOf, page.workspaceId, published],
  );

  useEffect(() => {
    const warnIfUnsaved = (event: BeforeUnloadEvent) => {
      if (unsaved()) {
        // Send what we can right away; the browser asks the user whether to leave.
        void queue.flush();
        title.flush();
        event.preventDefault();
      }
    };
    window.addEventListener('beforeunload', warnIfUnsaved);
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.removeEventListener('beforeunload', warnIfUnsaved);
      // Leaving the page inside the app: send everything now rather than lose it. The queue
      // stops only if the editor really went away (React's StrictMode remounts at once).
      title.flush();
      // A synced block's editor goes while its page stays (the block removed by someone, its
      // chunk far away): it stops only once its edits are saved, counted in the page's status
      // and leave guard until then (the effect above, which also stops its queue).
      if (!isEmbedded || !outer)
        void queue.flush().then(() => {
          if (!mounted.current) queue.dispose();
        });
    };
  }, [queue, title, unsaved, isEmbedded, outer]);

  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  // What a database block needs from the page (src/features/database): the server's answers go in through the queue.
  const databaseHost = useMemo<DatabaseHost>(
    () => ({
      pageId: page.id,
      workspaceId: page.workspaceId,
      canEdit,
      receiveBlock: (block) => queue.receive(block),
      isSaved: (uid) => queue.versionOf(uid) !== undefined,
      flush: () => queue.flush(),
      live: liveConnection && liveUser ? { connection: liveConnection, userId: liveUser } : null,
      openPage: (id) => callbacks.current.onOpenPage?.(id),
      fillDatabaseId: fillDatabaseOf(page, blocks),
      // The page as the store has it now (a title typed since it was read): the linked view's title follows it.
      createLinkedView: (layoutId, viewName) => createLinkedViewPage(store.dispatch, store.getState().pages.entities[page.id] ?? page, layoutId, viewName),
      published,
    }),
    [page, blocks, canEdit, queue, liveConnection, liveUser, store, published],
  );
  // The AI assistant (src/features/ai): its panel under a block, opened from the slash menu and the selection toolbar.
  const ai = useAiAssistant(editor, canEdit, frame);
  const slash = useSlashMenu(
    editor,
    canEdit,
    (type, path) => {
      if (type === 'databaseBlock') {
        insertDatabaseBlock(editor, path);
        return true;
      }
      const maker = BLOCK_MAKERS[type];
      if (maker) {
        maker(editor, { path, pageId: page.id, workspaceId: page.workspaceId, nested: embedded !== undefined });
        return true;
      }
      if (type !== 'documentBlock') return false;
      // A nested page is created on the server first; the block follows once it exists. Once the
      // block is saved too (it links the page here), the new page opens with the caret in its title.
      const atUid = (editor.children[path[0]] as { uid?: string } | undefined)?.uid;
      void insertDocumentBlock(editor, apiRequest, childPagesOf, { atUid, onPageCreated: onChildPageCreated })
        .then(async ({ page: child }) => {
          await queue.flush();
          if (mounted.current && !queue.hasPending()) callbacks.current.onOpenPage?.(child.id);
        })
        .catch(() => undefined);
      return true;
    },
    ai.start,
  );
  // «Создать страницу «…»» in the page picker: a child page of this one with the typed title.
  const createLinkedPage = useCallback(
    async (title: string) => {
      const { data } = await apiRequest<unknown>(`${elementUrl(childPagesOf)}/children`, {
        method: 'POST',
        body: { id: newId(), title, type: 'Note', contentType: 'Element' },
      });
      const child = wireElementSchema.parse(data);
      callbacks.current.onChildPageCreated?.(child);
      return child;
    },
    [childPagesOf],
  );
  const pagePicker = usePagePicker(editor, canEdit, createLinkedPage);
  const toolbar = useFloatingToolbar(editor, canEdit, ai.improve);
  // A link asked for the assistant (docs/intents.md). Nothing is sent on a link alone: «Написать
  // с ИИ» opens its panel at rest under the last block (the person types the request);
  // «Продолжить текст» and «Улучшить» ask first (a toast with «Начать»), then continue the page's
  // text in an empty paragraph at its end, or improve all of its text.
  // Taking over from the read-only top (the server's drawing, then the app's own while a big page
  // loads): the caret where the person clicked, the focus, and the keys they typed meanwhile.
  useEffect(() => {
    if (!handover) return;
    const click = takeEarlyClick();
    if (click) handover.current = clickToRange(editor, click) ?? handover.current;
    // Read-only (the top of a big page): the editable editor that follows takes them.
    if (!canEdit) return;
    const keys = takeEarlyKeys();
    const selection = handover.current;
    handover.current = null;
    if (!selection) return;
    const valid = Editor.hasPath(editor, selection.anchor.path) && Editor.hasPath(editor, selection.focus.path);
    if (!valid) return;
    Transforms.select(editor, selection);
    ReactEditor.focus(editor as ReactEditor);
    replayKeys(editor, keys);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A search result's block: its chunk mounted, scrolled to the middle, marked a moment.
  useEffect(() => {
    if (!revealUid) return;
    const frame = requestAnimationFrame(() => {
      if (revealBlock(editor, revealUid)) {
        const element = ReactEditor.toDOMNode(editor as ReactEditor, editor).querySelector(`[data-block-id="${CSS.escape(revealUid)}"]`);
        element?.classList.add('is-found');
        setTimeout(() => element?.classList.remove('is-found'), REVEAL_MARK_MS);
      } else {
        // Not a block of this page: perhaps one in a synced block drawn here (or loading: it takes it once loaded).
        const { reveal } = nestedEditors;
        reveal.pending = [...reveal.listeners].some((listener) => listener(revealUid)) ? null : revealUid;
      }
      onRevealed?.();
    });
    return () => cancelAnimationFrame(frame);
  }, [revealUid]); // eslint-disable-line react-hooks/exhaustive-deps

  const aiStarted = useRef(false);
  const aiNow = useRef(ai);
  aiNow.current = ai;
  useEffect(() => {
    if (!startAi || !canEdit || aiStarted.current) return;
    aiStarted.current = true;
    const last = editor.children.length - 1;
    if (startAi === 'generate') {
      aiNow.current.start('generate', [last]);
      return;
    }
    const begin = () => {
      const end = editor.children.length - 1;
      if (startAi === 'improve') {
        if (end >= 1) aiNow.current.improve({ anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [end]) });
        return;
      }
      const lastBlock = editor.children[end] as BlockElement;
      if (end < 1 || lastBlock.type !== 'textBlock' || Editor.string(editor, [end]) !== '') {
        Transforms.insertNodes(editor, emptyTextBlock() as Descendant, { at: [end + 1] });
      }
      aiNow.current.start('continue', [editor.children.length - 1]);
    };
    showToast(t(startAi === 'improve' ? 'intents.ai.improve' : 'intents.ai.continue'), 'info', 15_000, { label: t('intents.ai.start'), run: begin });
  }, [startAi, canEdit, editor, t]);
  const linkCard = useLinkCard(editor, canEdit, frame, toolbar.openLink);
  const pasteLink = usePasteLinkMenu(editor, canEdit);
  offerPastedLink.current = pasteLink.offer;
  // Escape twice (block selection, then out) leaves the editor for the next Tab stop after it:
  // Tab itself indents (docs/web-app.md, «Accessibility» → «Editor and menus»).
  // In a panel that Escape closes (a row's peek), leaving is the panel's: the Escape goes on to it.
  const leaveEditor = useCallback(() => {
    const root = ReactEditor.toDOMNode(editor as ReactEditor, editor);
    if (root.closest('[role="dialog"]')) return false;
    // The Slate selection stays, so Shift+Tab back puts the caret where it was.
    if (!focusAfter(frame.current ?? root)) root.blur();
    return true;
  }, [editor]);
  const blockSelection = useBlockSelection(editor, canEdit, leaveEditor);
  // The block menu from the keyboard (Ctrl+/ as in Notion, the context-menu key, Shift+F10): BlockHandle fills this.
  const openBlockMenu = useRef<((index: number) => boolean) | null>(null);
  const menuByKey = useRef(0);
  const blockMenuKey = (event: React.KeyboardEvent): boolean => {
    if (!canEdit) return false;
    const ctrlSlash = (event.ctrlKey || event.metaKey) && !event.altKey && (event.code === 'Slash' || event.key === '/');
    const contextKey = event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10');
    if (!ctrlSlash && !contextKey) return false;
    const at = blockSelection.range ? blockSelection.range.focus : editor.selection ? Range.end(editor.selection).path[0] : -1;
    if (at < 1) return false;
    if (blockSelection.range) blockSelection.select(null);
    menuByKey.current = Date.now();
    return openBlockMenu.current?.(at) ?? false;
  };
  // The editor's accessible name: the page's title as it is now (the store follows every keystroke), or «Текст страницы».
  const liveTitle = useAppSelector((state) => state.pages.entities[page.id]?.title ?? page.title).trim();
  const popup = slash.popup ?? pagePicker.popup ?? pasteLink.popup;
  const decorateCode = useCodeDecorate();
  const decorate = useMemo(
    () =>
      decorateMore
        ? (entry: NodeEntry) => {
            const more = decorateMore(entry);
            return more.length > 0 ? [...decorateCode(entry), ...more] : decorateCode(entry);
          }
        : decorateCode,
    [decorateCode, decorateMore],
  );

  return (
    <NestedEditorsContext.Provider value={nestedEditors}>
      <DatabaseHostContext.Provider value={databaseHost}>
        <AfterTitleContext.Provider value={afterTitle}>
          <Slate
            editor={editor}
            onChange={() => {
              slash.onChange();
              pagePicker.onChange();
              linkCard.onChange();
              pasteLink.onChange();
              // The read-only top of a big page: where the person clicked goes to the editor after it.
              if (!canEdit && handover) handover.current = editor.selection;
              // A synced block's editor has a title no one sees (display: none): the caret never goes there (Ctrl+Home, ← at the start).
              if (isEmbedded) keepOutOfTitle(editor);
            }}
          >
            {slash.menu}
            {pagePicker.picker}
            {toolbar.toolbar}
            {/* The link just pasted has the paste's menu under it, not also its card. */}
            {pasteLink.menu ?? linkCard.card}
            {blockSelection.style}
            {/* Also when only a synced block in it is editable (its page's editors may edit it). One
                guard a page: a router heeds one blocker (the history dialog's read-only editor has none). */}
            {!embedded && (canEdit || editableNested > 0) ? <LeaveGuard unsaved={unsaved} save={save} /> : null}
            {databaseRemoval.dialog}
            <div
              className={embedded ? 'document-editor-frame is-embedded' : 'document-editor-frame'}
              ref={frame}
              onMouseDown={blockSelection.onMouseDown}
              // The context-menu key (and Shift+F10) also fire the browser's own menu after our block menu opened.
              onContextMenu={(event) => {
                if (Date.now() - menuByKey.current < 1_000) event.preventDefault();
              }}
              onClick={(event) => canEdit && !blockSelection.range && caretBelowBlocks(editor, event)}
            >
              {canEdit ? <BlockHandle editor={editor} container={frame} opener={openBlockMenu} /> : null}
              {canEdit ? <TextPlaceholder container={frame} /> : null}
              <ChunkVisibilityProvider editor={editor} frame={frame}>
                <Editable
                  className="document-editor"
                  readOnly={!canEdit}
                  // Slate gives the editable text role="textbox"; read-only it has none, and a name
                  // needs a role (axe aria-prohibited-attr): a document, named as the textbox is.
                  {...(canEdit ? {} : { role: 'document' })}
                  aria-label={embedded?.label ?? (liveTitle || t('editorLabel', { ns: 'documentEditor' }))}
                  // The slash menu and the page picker are worked from the text: their highlighted option named here.
                  aria-autocomplete={popup ? 'list' : undefined}
                  aria-controls={popup?.listId}
                  aria-activedescendant={popup?.activeId}
                  spellCheck
                  renderElement={BlockElementView}
                  renderLeaf={TokenLeaf}
                  renderChunk={renderChunk}
                  decorate={decorate}
                  scrollSelectionIntoView={scrollCaretIntoView}
                  // A drag that starts in a database block (a row, a column, a view tab, an option) is the
                  // database's own (pragmatic-drag-and-drop): Slate would take the whole block for what is
                  // dragged and, dropped in the lower half of the block, move the block after itself (a
                  // removal, which the database guard asks about). Nor is such a drag dropped into the text.
                  // The browser's undo and redo Slate does itself; a history action of any other type is reported, not done (spec §8).
                  onDOMBeforeInput={stopUnsupportedHistory}
                  onDragStart={(event) => (event.target as Element).closest?.('.database-block') != null}
                  onDrop={(event) => {
                    if (!event.dataTransfer.types.includes(PRAGMATIC_DRAG)) return false;
                    event.preventDefault();
                    return true;
                  }}
                  onKeyDown={(event) => {
                    // A character typed plainly goes through beforeinput, which reads the DOM selection itself.
                    const typing = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
                    if (!typing) syncSelectionFromDom(editor);
                    if (
                      slash.handleKey(event) ||
                      pagePicker.handleKey(event) ||
                      pasteLink.handleKey(event) ||
                      ai.handleKey(event) ||
                      blockMenuKey(event) ||
                      blockSelection.handleKey(event) ||
                      toolbar.handleKey(event) ||
                      (canEdit && linkCard.handleKey(event)) ||
                      editor.handleKey(event)
                    )
                      event.preventDefault();
                  }}
                />
              </ChunkVisibilityProvider>
              {carets && !embedded ? <PresenceCarets pageId={page.id} container={frame} /> : null}
              {ai.panel}
            </div>
          </Slate>
        </AfterTitleContext.Provider>
      </DatabaseHostContext.Provider>
    </NestedEditorsContext.Provider>
  );
}
