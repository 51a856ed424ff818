import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { reportRetentionGoals } from '../../app/retention';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { ErrorScreen } from '../../ui/ErrorScreen';
import { Button } from '../../ui/Button';
import { CloseIcon, MenuIcon, SidebarIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { loadCurrentUser } from '../auth/authSlice';
import {
  clampTreeWidth,
  pageTreeOpenSet,
  pageTreeWidthSet,
  TREE_WIDTH_DEFAULT,
  TREE_WIDTH_MAX,
  TREE_WIDTH_MIN,
  useUiSettingsPersistence,
  useUiSettingsServerSync,
} from '../settings/uiSettings';
import { invitedLandingSaid, loadWorkspaces, useRememberActiveWorkspace } from '../workspaces/workspacesSlice';
import { showToast } from '../../ui/Toast';
import { saveUserSetting } from '../settings/serverSettings';
import { Sidebar } from '../sidebar/Sidebar';
import { useIsPhone } from '../../ui/useIsPhone';
import { InboxHost } from '../inbox/InboxPanel';
import { LiveShell } from '../realtime/LiveShell';
import { CsvImportHost } from '../database/csv/CsvImportHost';
import { QuickFindHost } from '../search/QuickFind';
import './shell.css';

const KEY_STEP = 16;

/** The sidebar's right edge: drag (or arrow keys) to resize; double-click for the default width. */
function Resizer({ width, onLive, onDone }: { width: number; onLive: (w: number | null) => void; onDone: (w: number) => void }) {
  const { t } = useTranslation();
  const start = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    start.current = { x: event.clientX, width };
    document.body.classList.add('is-resizing');
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    onLive(clampTreeWidth(start.current.width + event.clientX - start.current.x));
  };
  const finish = (event: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    const next = clampTreeWidth(start.current.width + event.clientX - start.current.x);
    start.current = null;
    document.body.classList.remove('is-resizing');
    onLive(null);
    onDone(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      onDone(clampTreeWidth(width + (event.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP)));
    }
  };
  return (
    <div
      className="shell-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('sidebar.resize')}
      aria-valuemin={TREE_WIDTH_MIN}
      aria-valuemax={TREE_WIDTH_MAX}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={finish}
      onPointerCancel={finish}
      onDoubleClick={() => onDone(TREE_WIDTH_DEFAULT)}
      onKeyDown={onKeyDown}
    />
  );
}

/** The signed-in frame: sidebar on the left (resizable, collapsible; a drawer on phones), the routed screen on the right. */
export function AppShell() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const authStatus = useAppSelector((state) => state.auth.status);
  const workspacesStatus = useAppSelector((state) => state.workspaces.status);
  const { open, width } = useAppSelector((state) => state.uiSettings.pageTree);
  const isPhone = useIsPhone();
  const [liveWidth, setLiveWidth] = useState<number | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useUiSettingsPersistence();
  useRememberActiveWorkspace();
  useUiSettingsServerSync(authStatus === 'signedIn' && workspacesStatus === 'ready');

  useEffect(() => {
    if (authStatus === 'unknown') void dispatch(loadCurrentUser());
    if (authStatus === 'signedIn' && workspacesStatus === 'idle') void dispatch(loadWorkspaces());
  }, [authStatus, workspacesStatus, dispatch]);

  // Invited, first sign-in: they landed in the team workspace they were invited to (workspacesSlice); said once.
  const invitedTo = useAppSelector((state) => state.workspaces.list.find((w) => w.id === state.workspaces.invitedTo) ?? null);
  useEffect(() => {
    if (!invitedTo) return;
    showToast(t('workspaces.invitedLanding', { name: invitedTo.name }), 'info', 8000);
    dispatch(invitedLandingSaid());
    // Remembered (the start's own choice is not written back otherwise): the next visit opens it, and says nothing.
    saveUserSetting('activeWorkspace', invitedTo.id).catch((error: unknown) => console.warn('settings: the active workspace was not saved', error));
  }, [invitedTo, dispatch, t]);

  // A returning user: the retention goals they reached go to our own server (src/app/retention.ts).
  const user = useAppSelector((state) => state.auth.user);
  useEffect(() => {
    if (user) void reportRetentionGoals(user);
  }, [user]);

  // The phone drawer closes after navigation, and with Escape.
  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: globalThis.KeyboardEvent) => event.key === 'Escape' && setDrawerOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  if (authStatus === 'signedOut') return <Navigate to="/login" replace />;
  if (workspacesStatus === 'failed') return <ErrorScreen kind="network" />;
  if (authStatus === 'unknown' || workspacesStatus !== 'ready') return <Spinner />;

  const style = { '--tree-width': `${liveWidth ?? width}px` } as CSSProperties;

  // The sidebar part changes with the layout; <main> keeps its place in the tree, so the page
  // (its editor and unsent edits) is not mounted again when the window crosses the phone width.
  const nav = isPhone ? (
    <>
      <Button
        kind="flat"
        size="xs"
        className="shell-reopen"
        aria-label={t('sidebar.openMenu')}
        title={t('sidebar.openMenu')}
        aria-expanded={drawerOpen}
        onClick={() => setDrawerOpen(true)}
      >
        <MenuIcon size={20} />
      </Button>
      {drawerOpen && (
        <>
          <div className="shell-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden />
          <div className="shell-drawer">
            <Sidebar onHide={() => setDrawerOpen(false)} hideLabel={t('sidebar.closeMenu')} hideIcon={<CloseIcon size={18} />} />
          </div>
        </>
      )}
    </>
  ) : open ? (
    <div className="shell-sidebar">
      <Sidebar onHide={() => dispatch(pageTreeOpenSet(false))} />
      <Resizer width={liveWidth ?? width} onLive={setLiveWidth} onDone={(w) => dispatch(pageTreeWidthSet(w))} />
    </div>
  ) : (
    <Button
      kind="flat"
      size="xs"
      className="shell-reopen"
      aria-label={t('sidebar.show')}
      title={t('sidebar.show')}
      onClick={() => dispatch(pageTreeOpenSet(true))}
    >
      <SidebarIcon size={20} />
    </Button>
  );

  return (
    <div className={isPhone ? 'shell is-phone is-tree-closed' : open ? 'shell' : 'shell is-tree-closed'} style={isPhone ? undefined : style}>
      {nav}
      <InboxHost />
      <main className="shell-main">
        <Outlet />
      </main>
      <LiveShell />
      <CsvImportHost />
      <QuickFindHost />
    </div>
  );
}
