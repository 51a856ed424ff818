import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import type { SectionId } from '../../../schema/constants';
import { canEdit } from '../../../schema/policies/page';
import type { WireWorkspace } from '../../../schema/workspace';
import { newId } from '../../../schema/ids';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { Button } from '../../ui/Button';
import { CheckIcon, ChevronRightIcon, ChevronsLeftIcon, CloseIcon, PlusIcon, SearchIcon, SelectorIcon, TrashIcon } from '../../ui/icons';
import { CreatePageMenuButton, type NewPageKind } from '../pageTypes/CreatePageMenu';
import { PageTypeIcon } from '../pageTypes/typeIcons';
import { openCsvImport } from '../csvImport/openCsvImport';
import { openTrash } from '../trash/openTrash';
import { openSearch } from '../search/openSearch';
import { ImportDialog } from '../export/ImportDialog';
import { UploadIcon } from '../pageTypes/typeIcons';
import { ProfileDialog } from '../profile/ProfileDialog';
import { InboxEntry, useUnreadCounts } from '../inbox/InboxEntry';
import { signOut } from '../auth/authSlice';
import { treeSectionToggled } from '../settings/uiSettings';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { switchWorkspace } from '../workspaces/switchWorkspace';
import { canCreateIn, creatableRootSections, sectionsShown } from '../workspaces/workspaceRules';
import { WorkspaceSettingsHost, WorkspaceSettingsMenuItem } from '../workspaces/WorkspaceSettings';
import { LiveTreeContext, useLiveChildren, useLiveTree } from '../realtime/liveTree';
import { useRealtimeExpected } from '../../app/RealtimeProvider';
import {
  createChildPage,
  createNote,
  loadChildren,
  loadSection,
  movePageInTree,
  selectChildIds,
  selectPageById,
  selectSectionIds,
  type ApiFailure,
  type CreatablePageType,
} from './pagesSlice';

type RootSection = 'private' | 'all';

const isRootSection = (section: SectionId): section is RootSection => section === 'private' || section === 'all';

export function createErrorKey(failure: ApiFailure | undefined): string {
  if (!failure || failure.status === undefined) return 'sidebar.errors.network';
  if (failure.status === 403) return 'sidebar.errors.createForbidden';
  if (failure.status === 404) return 'sidebar.errors.notFound';
  if (failure.code === 'page.in_trash') return 'sidebar.errors.inTrash';
  return 'sidebar.errors.createFailed';
}

function moveErrorKey(failure: ApiFailure | undefined): string {
  if (!failure || failure.status === undefined) return 'sidebar.errors.network';
  if (failure.status === 403) return 'sidebar.errors.moveForbidden';
  if (failure.status === 404) return 'sidebar.errors.notFound';
  if (failure.code === 'page.move_cycle') return 'sidebar.errors.moveCycle';
  if (failure.code === 'page.in_trash') return 'sidebar.errors.inTrash';
  if (failure.status === 422) return 'sidebar.errors.moveInvalid';
  return 'sidebar.errors.moveFailed';
}

/** Creates a page (a Note unless `type` says otherwise) in a section and opens it. */
export function useCreatePage(onError?: (message: string) => void) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const create = async (section: RootSection = 'private', type: CreatablePageType = 'Note') => {
    setBusy(true);
    try {
      const page = await dispatch(createNote({ section, id: newId(), type })).unwrap();
      navigate(`/${page.id}`);
    } catch {
      // The page is gone again (createNote rolls back); say so.
      onError?.(t(navigator.onLine === false ? 'sidebar.errors.network' : 'sidebar.errors.createFailed'));
    } finally {
      setBusy(false);
    }
  };
  return { create, busy };
}

function useMediaQuery(query: string): boolean {
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/** Phone layout (spec: below 601 px the sidebar is a drawer). */
export const PHONE_QUERY = '(max-width: 600px)';
export const useIsPhone = () => useMediaQuery(PHONE_QUERY);

/* ---- Tree state shared by the rows: what is expanded, what is being dragged and where it would land. ---- */

type DropPosition = 'before' | 'inside' | 'after';
interface DropTarget {
  key: string;
  position: DropPosition;
}

interface TreeApi {
  isExpanded(key: string): boolean;
  setExpanded(key: string, expanded: boolean): void;
  draggingId: string | null;
  dropTarget: DropTarget | null;
  startDrag(id: string): void;
  endDrag(): void;
  /** Whether the page being dragged may land relative to `targetId` (not itself, not below itself). */
  canDropOn(targetId: string): boolean;
  hover(target: DropTarget | null): void;
  drop(target: { id: string; parent: string; position: DropPosition; key: string } | { section: RootSection }): void;
  addChild(parentId: string, key: string, type?: NewPageKind): void;
  report(message: string): void;
}

const TreeContext = createContext<TreeApi | null>(null);
const useTree = () => {
  const tree = useContext(TreeContext);
  if (!tree) throw new Error('useTree outside the sidebar');
  return tree;
};

const DRAG_TYPE = 'application/x-page-id';

function dropPositionFor(event: DragEvent<HTMLElement>, allowInside: boolean): DropPosition {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / (rect.height || 1);
  if (!allowInside) return y < 0.5 ? 'before' : 'after';
  if (y < 0.25) return 'before';
  if (y > 0.75) return 'after';
  return 'inside';
}

function TreeRow({ id, parent, depth, section, movable }: { id: string; parent: string; depth: number; section: SectionId; movable: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const tree = useTree();
  const page = useAppSelector((state) => selectPageById(state, id));
  const childIds = useAppSelector((state) => selectChildIds(state, id));
  const childrenStatus = useAppSelector((state) => state.pages.childrenStatus[id]);
  const key = `${section}/${id}`;
  const expanded = tree.isExpanded(key);
  // A page shared from another workspace of the user's is marked with that workspace's name.
  const elsewhere = useAppSelector((state) => (depth === 0 && page && page.workspaceId && page.workspaceId !== state.workspaces.activeId ? state.workspaces.list.find((w) => w.id === page.workspaceId)?.name : undefined));

  useEffect(() => {
    if (expanded && childrenStatus === undefined) void dispatch(loadChildren(id));
  }, [expanded, childrenStatus, dispatch, id]);
  // Expanded: its children follow other people's changes (realtime).
  useLiveChildren(id, expanded);

  if (!page) return null;
  const editable = canEdit(page.accessLevel);
  const target = tree.dropTarget?.key === key ? tree.dropTarget.position : null;
  const label = page.title || t('untitled');

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!movable || !tree.draggingId || !tree.canDropOn(id)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const position = dropPositionFor(event, editable);
    if (tree.dropTarget?.key !== key || tree.dropTarget.position !== position) tree.hover({ key, position });
  };

  return (
    <li className="tree-item">
      <div
        className={['tree-row', target ? `drop-${target}` : '', tree.draggingId === id ? 'is-dragging' : ''].filter(Boolean).join(' ')}
        style={{ paddingLeft: `calc(${depth} * 16px + var(--space-1))` }}
        data-page-id={id}
        draggable={movable && editable}
        onDragStart={(event) => {
          event.dataTransfer.setData(DRAG_TYPE, id);
          event.dataTransfer.effectAllowed = 'move';
          tree.startDrag(id);
        }}
        onDragEnd={() => tree.endDrag()}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (target && !event.currentTarget.contains(event.relatedTarget as Node | null)) tree.hover(null);
        }}
        onDrop={(event) => {
          if (!target) return;
          event.preventDefault();
          tree.drop({ id, parent, position: target, key });
        }}
      >
        <button
          type="button"
          className={expanded ? 'tree-chevron is-open' : 'tree-chevron'}
          aria-label={`${expanded ? t('sidebar.collapse') : t('sidebar.expand')}: ${label}`}
          aria-expanded={expanded}
          onClick={() => tree.setExpanded(key, !expanded)}
        >
          <ChevronRightIcon size={14} />
        </button>
        <NavLink to={`/${id}`} className="sidebar-page" draggable={false}>
          <span className="sidebar-page-icon" aria-hidden>
            {page.icon ?? <PageTypeIcon type={page.type} size={16} />}
          </span>
          <span className={page.title ? 'sidebar-page-title' : 'sidebar-page-title is-untitled'}>{label}</span>
          {elsewhere && (
            <span className="sidebar-page-workspace workspace-tag" title={t('sidebar.inWorkspace', { name: elsewhere })}>
              {elsewhere}
            </span>
          )}
        </NavLink>
        {editable && (
          <>
            <CreatePageMenuButton label={`${t('sidebar.newChildOfType')}: ${label}`} onPick={(kind) => tree.addChild(id, key, kind)} />
            <button
              type="button"
              className="tree-add"
              aria-label={`${t('sidebar.newChildPage')}: ${label}`}
              title={t('sidebar.newChildPage')}
              onClick={() => tree.addChild(id, key)}
            >
              <PlusIcon size={14} />
            </button>
          </>
        )}
      </div>
      {expanded && (
        <ul className="tree-children" role="group">
          {childIds === undefined ? (
            childrenStatus === 'failed' ? (
              <li className="tree-note" style={{ paddingLeft: `calc(${depth + 1} * 16px + 28px)` }}>
                {t('sidebar.loadFailed')} ·{' '}
                <button type="button" className="link-button" onClick={() => void dispatch(loadChildren(id))}>
                  {t('sidebar.retry')}
                </button>
              </li>
            ) : (
              <li className="tree-note" style={{ paddingLeft: `calc(${depth + 1} * 16px + 28px)` }}>
                {t('sidebar.loading')}
              </li>
            )
          ) : childIds.length === 0 ? (
            <li className="tree-note" style={{ paddingLeft: `calc(${depth + 1} * 16px + 28px)` }}>
              {t('sidebar.noChildren')}
            </li>
          ) : (
            childIds.map((childId) => <TreeRow key={childId} id={childId} parent={id} depth={depth + 1} section={section} movable={movable} />)
          )}
        </ul>
      )}
    </li>
  );
}

function Section({ section, canCreate, onCreate, busy }: { section: SectionId; canCreate: boolean; onCreate: (kind?: NewPageKind) => void; busy: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const tree = useTree();
  const ids = useAppSelector((state) => selectSectionIds(state, section));
  const status = useAppSelector((state) => state.pages.sectionStatus[section]);
  const expanded = useAppSelector((state) => state.uiSettings.pageTree.sections[section]);
  const title = t(`sidebar.sections.${section}`);
  const movable = isRootSection(section);
  const headerTarget = tree.dropTarget?.key === `section/${section}`;

  return (
    <section className="sidebar-section" aria-label={title}>
      <div
        className={headerTarget ? 'sidebar-section-header drop-inside' : 'sidebar-section-header'}
        onDragOver={(event) => {
          if (!movable || !tree.draggingId) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          if (!headerTarget) tree.hover({ key: `section/${section}`, position: 'inside' });
        }}
        onDragLeave={(event) => {
          if (headerTarget && !event.currentTarget.contains(event.relatedTarget as Node | null)) tree.hover(null);
        }}
        onDrop={(event) => {
          if (!movable || !headerTarget) return;
          event.preventDefault();
          tree.drop({ section });
        }}
      >
        <button
          type="button"
          className="sidebar-section-toggle"
          aria-expanded={expanded}
          aria-label={t(expanded ? 'sidebar.collapseSection' : 'sidebar.expandSection', { section: title })}
          onClick={() => dispatch(treeSectionToggled({ section }))}
        >
          <span>{title}</span>
          <ChevronRightIcon size={12} className={expanded ? 'section-chevron is-open' : 'section-chevron'} />
        </button>
        {canCreate && (
          <span className="sidebar-section-create">
            <CreatePageMenuButton label={t('sidebar.newPageOfType')} className="button button-xxs button-flat sidebar-create-more" disabled={busy} onPick={onCreate} />
            <Button kind="flat" size="xxs" aria-label={t('sidebar.newPage')} title={t('sidebar.newPage')} disabled={busy} onClick={() => onCreate()}>
              <PlusIcon size={16} />
            </Button>
          </span>
        )}
      </div>
      {expanded &&
        (status === 'failed' && ids.length === 0 ? (
          <p className="sidebar-empty">
            {t('sidebar.loadFailed')} ·{' '}
            <button type="button" className="link-button" onClick={() => void dispatch(loadSection(section))}>
              {t('sidebar.retry')}
            </button>
          </p>
        ) : status === 'loading' && ids.length === 0 ? (
          <p className="sidebar-empty">{t('sidebar.loading')}</p>
        ) : ids.length === 0 ? (
          <p className="sidebar-empty">{t(`sidebar.sectionHints.${section}`)}</p>
        ) : (
          <ul className="sidebar-pages">
            {ids.map((id) => (
              <TreeRow key={id} id={id} parent={section} depth={0} section={section} movable={movable} />
            ))}
          </ul>
        ))}
    </section>
  );
}

/* ---- Workspace switcher with unread counts (kept by the inbox slice: GET /api/notifications/counts). ---- */

function Badge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <span className="unread-badge" aria-label={t('sidebar.unread', { count })} title={t('sidebar.unread', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

/** On the switcher: what is unread in the user's other workspaces (the active one's count is on «Входящие»). */
function ElsewhereBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <span className="unread-badge is-elsewhere" role="img" aria-label={t('sidebar.unreadElsewhere', { count })} title={t('sidebar.unreadElsewhere', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

function WorkspaceAvatar({ workspace }: { workspace: WireWorkspace | null }) {
  return (
    <span className="sidebar-avatar" aria-hidden>
      {(workspace?.name ?? '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

function WorkspaceSwitcher() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useAppSelector(selectActiveWorkspace);
  const list = useAppSelector((state) => state.workspaces.list);
  const counts = useUnreadCounts();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const switchTo = (id: string) => {
    setOpen(false);
    if (dispatch(switchWorkspace(id))) navigate('/');
  };

  return (
    <div className="workspace-switcher" ref={ref}>
      <button
        type="button"
        className="sidebar-workspace"
        aria-haspopup="menu"
        aria-expanded={open}
        title={t('sidebar.switchWorkspace')}
        onClick={() => setOpen((v) => !v)}
      >
        <WorkspaceAvatar workspace={workspace} />
        <span className="sidebar-workspace-name">{workspace?.name}</span>
        <ElsewhereBadge count={list.reduce((sum, w) => (w.id === workspace?.id ? sum : sum + (counts[w.id] ?? 0)), 0)} />
        <SelectorIcon size={14} className="sidebar-workspace-selector" />
      </button>
      {open && (
        <div className="workspace-menu" role="menu" aria-label={t('sidebar.workspaces')}>
          <div className="workspace-menu-title">{t('sidebar.workspaces')}</div>
          {list.map((w) => (
            <button key={w.id} type="button" role="menuitemradio" aria-checked={w.id === workspace?.id} className="workspace-menu-item" onClick={() => switchTo(w.id)}>
              <WorkspaceAvatar workspace={w} />
              <span className="workspace-menu-text">
                <span className="workspace-menu-name">{w.name}</span>
                <span className="workspace-menu-role">{t(`sidebar.roles.${w.role}`)}</span>
              </span>
              <Badge count={counts[w.id] ?? 0} />
              <span className="workspace-menu-check">{w.id === workspace?.id && <CheckIcon size={16} />}</span>
            </button>
          ))}
          <button type="button" role="menuitem" className="workspace-menu-item workspace-menu-create" onClick={() => { setOpen(false); navigate('/new-workspace'); }}>
            <span className="sidebar-avatar workspace-menu-plus" aria-hidden><PlusIcon size={14} /></span>
            <span className="workspace-menu-text"><span className="workspace-menu-name">{t('wizard.entry')}</span></span>
          </button>
          <WorkspaceSettingsMenuItem onOpen={() => setOpen(false)} />
        </div>
      )}
      <WorkspaceSettingsHost />
    </div>
  );
}

/* ---- The sidebar. ---- */

function useExpandedKeys(activePath: string[] | undefined, activeId: string | null) {
  const [expanded, setExpandedKeys] = useState<ReadonlySet<string>>(() => new Set());
  const pathKey = activePath?.join('/') ?? '';
  // Opening a page shows where it sits: its ancestors open (in the sections that hold them).
  useEffect(() => {
    if (!pathKey) return;
    setExpandedKeys((current) => {
      const next = new Set(current);
      for (const ancestor of pathKey.split('/')) for (const section of ['private', 'all', 'favorite', 'shared']) next.add(`${section}/${ancestor}`);
      return next;
    });
  }, [pathKey, activeId]);
  const setExpanded = useCallback((key: string, open: boolean) => {
    setExpandedKeys((current) => {
      if (current.has(key) === open) return current;
      const next = new Set(current);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  return { expanded, setExpanded };
}

const MESSAGE_MS = 6000;

/** The page tree: the workspace switcher, the sections by role with their page trees, and the signed-in user. */
export function Sidebar({ onHide, hideLabel, hideIcon }: { onHide?: () => void; hideLabel?: string; hideIcon?: ReactNode }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const store = useStore<RootState>();
  const location = useLocation();
  const workspace = useAppSelector(selectActiveWorkspace);
  const user = useAppSelector((state) => state.auth.user);
  const sections = useMemo(() => sectionsShown(workspace), [workspace]);
  // Files are imported as new pages: into the sections the caller may create pages in.
  const importSections = useMemo(() => creatableRootSections(workspace), [workspace]);
  const activeId = /^\/[^/]+$/.test(location.pathname) ? decodeURIComponent(location.pathname.slice(1)) : null;
  const activePath = useAppSelector((state) => (activeId ? state.pages.entities[activeId]?.path : undefined));
  const { expanded, setExpanded } = useExpandedKeys(activePath, activeId);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const [dropTarget, setDropTarget] = useState<DropTarget | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [creatingIn, setCreatingIn] = useState<string | null>(null);
  const report = useCallback((text: string) => setMessage(text), []);
  const { create, busy } = useCreatePage(report);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const workspaceId = workspace?.id;
  // The top level follows other people's changes (realtime); expanded rows listen to their children.
  const live = useLiveTree(workspaceId, sections);
  // Live, the join reads the lists (once: see useLiveTree), and here only a section shown since
  // (a new role) is read; without a connection, they are read here.
  const hasLive = useRealtimeExpected();
  const shownBefore = useRef<{ workspaceId: string; sections: readonly SectionId[] } | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    const before = shownBefore.current?.workspaceId === workspaceId ? shownBefore.current.sections : null;
    shownBefore.current = { workspaceId, sections };
    for (const section of sections) if (!hasLive || (before && !before.includes(section))) void dispatch(loadSection(section));
  }, [dispatch, workspaceId, sections, hasLive]);

  const tree = useMemo<TreeApi>(() => {
    const pages = () => store.getState().pages;
    const ensureChildren = async (id: string) => {
      if (!pages().children[id]) await dispatch(loadChildren(id));
      return pages().children[id] ?? [];
    };
    const move = async (id: string, dst: string, placeAfter: string | null) => {
      const result = await dispatch(movePageInTree({ id, dst, placeAfter }));
      if (movePageInTree.rejected.match(result)) report(t(moveErrorKey(result.payload)));
    };
    return {
      isExpanded: (key) => expanded.has(key),
      setExpanded,
      draggingId,
      dropTarget,
      startDrag: (id) => setDraggingId(id),
      endDrag: () => {
        setDraggingId(null);
        setDropTarget(null);
      },
      canDropOn: (targetId) => {
        if (!draggingId || targetId === draggingId) return false;
        return !(pages().entities[targetId]?.path ?? []).includes(draggingId);
      },
      hover: setDropTarget,
      drop: (target) => {
        const id = draggingId;
        setDraggingId(null);
        setDropTarget(null);
        if (!id) return;
        if ('section' in target) {
          void move(id, target.section, null);
          return;
        }
        if (target.position === 'inside') {
          setExpanded(target.key, true);
          void ensureChildren(target.id).then((children) => {
            const others = children.filter((c) => c !== id);
            return move(id, target.id, others[others.length - 1] ?? null);
          });
          return;
        }
        const siblings = (target.parent === 'private' || target.parent === 'all' ? pages().sections[target.parent] : pages().children[target.parent]) ?? [];
        const others = siblings.filter((c) => c !== id);
        const index = others.indexOf(target.id);
        const placeAfter = target.position === 'after' ? target.id : (others[index - 1] ?? null);
        void move(id, target.parent, placeAfter);
      },
      addChild: (parentId, key, kind = 'Note') => {
        if (kind === 'csv') return openCsvImport({ kind: 'new', place: { parentId } });
        setExpanded(key, true);
        setCreatingIn(parentId);
        void ensureChildren(parentId)
          .then(async () => {
            const result = await dispatch(createChildPage({ parentId, id: newId(), type: kind }));
            if (createChildPage.fulfilled.match(result)) navigate(`/${result.payload.id}`);
            else report(t(createErrorKey(result.payload)));
          })
          .finally(() => setCreatingIn(null));
      },
      report,
    };
  }, [dispatch, draggingId, dropTarget, expanded, navigate, report, setExpanded, store, t]);

  return (
    <nav className="sidebar" aria-label={t('sidebar.tree')} aria-busy={creatingIn !== null}>
      <div className="sidebar-header">
        <WorkspaceSwitcher />
        {onHide && (
          <Button kind="flat" size="xxs" className="sidebar-hide" aria-label={hideLabel ?? t('sidebar.hide')} title={hideLabel ?? t('sidebar.hide')} onClick={onHide}>
            {hideIcon ?? <ChevronsLeftIcon size={18} />}
          </Button>
        )}
      </div>
      <TreeContext.Provider value={tree}>
        <LiveTreeContext.Provider value={live}>
          <div className={draggingId ? 'sidebar-scroll is-dragging' : 'sidebar-scroll'}>
            {sections.map((section) => (
              <Section
                key={section}
                section={section}
                canCreate={canCreateIn(section, workspace)}
                busy={busy}
                onCreate={(kind = 'Note') => {
                  if (!isRootSection(section)) return;
                  if (kind === 'csv') return openCsvImport({ kind: 'new', place: { section } });
                  dispatch(treeSectionToggled({ section, expanded: true }));
                  void create(section, kind);
                }}
              />
            ))}
          </div>
        </LiveTreeContext.Provider>
      </TreeContext.Provider>
      {message && (
        <div className="sidebar-message" role="alert">
          <span>{message}</span>
          <button type="button" className="sidebar-message-close" aria-label={t('sidebar.dismiss')} onClick={() => setMessage(null)}>
            <CloseIcon size={14} />
          </button>
        </div>
      )}
      <div className="sidebar-tools">
        <button type="button" className="sidebar-tool" onClick={openSearch} aria-keyshortcuts="Control+K">
          <SearchIcon size={16} aria-hidden />
          <span>{t('search.open')}</span>
          <kbd className="sidebar-tool-key">{t('search.shortcut')}</kbd>
        </button>
        <InboxEntry />
        {importSections.length > 0 && (
          <button type="button" className="sidebar-tool" onClick={() => setImporting(true)}>
            <UploadIcon size={16} aria-hidden />
            <span>{t('export.importTool')}</span>
          </button>
        )}
        <button type="button" className="sidebar-tool" onClick={openTrash}>
          <TrashIcon size={16} aria-hidden />
          <span>{t('trash.title')}</span>
        </button>
      </div>
      {importing && workspace && <ImportDialog workspaceId={workspace.id} sections={importSections} onClose={() => setImporting(false)} />}
      <div className="sidebar-footer">
        <button type="button" className="sidebar-user" title={t('profile.open')} onClick={() => setProfileOpen(true)}>
          {user?.email}
        </button>
        {profileOpen && <ProfileDialog onClose={() => setProfileOpen(false)} />}
        <Button kind="flat" size="xs" onClick={() => void dispatch(signOut()).then(() => navigate('/login', { replace: true }))}>
          {t('sidebar.signOut')}
        </Button>
      </div>
    </nav>
  );
}

