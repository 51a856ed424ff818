import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { reportRetentionGoals } from '../../app/retention';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { ErrorScreen } from '../../ui/ErrorScreen';
import { Button } from '../../ui/Button';
import { CloseIcon, MenuIcon, SidebarIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { Resizer } from '../../ui/Resizer';
import { loadCurrentUser } from '../auth/authSlice';
import {
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
import { useIsPhone, useMediaQuery } from '../../ui/useIsPhone';
import { InboxHost } from '../inbox/InboxPanel';
import { useCommentsWidth } from '../comments/commentsWidth';
import { LiveShell } from '../realtime/LiveShell';
import { CsvImportHost } from '../database/csv/CsvImportHost';
import { QuickFindHost } from '../search/QuickFind';
import { SkipLinks } from './SkipLinks';
import './shell.css';
import { reportError } from '../../app/report';

/** The least room the page keeps beside an open comments panel before the panel lies over it instead (px). */
const PAGE_ROOM_MIN = 480;

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
  // The page makes room for the comments panel, as wide as it is (while its edge is dragged too),
  // when it keeps PAGE_ROOM_MIN beside the sidebar and a docked inbox; else the panel lies over it.
  const commentsWidth = useCommentsWidth();
  const inboxPanel = useAppSelector((state) => state.uiSettings.inboxPanel);
  const besideComments = (open ? (liveWidth ?? width) : 0) + (inboxPanel.pinned ? inboxPanel.width : 0) + commentsWidth;
  const commentsOver = useMediaQuery(`(max-width: ${besideComments + PAGE_ROOM_MIN - 1}px)`);
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
    saveUserSetting('activeWorkspace', invitedTo.id).catch((error: unknown) =>
      reportError('settings', { message: 'the active workspace was not saved', error }),
    );
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

  const style = { '--tree-width': `${liveWidth ?? width}px`, '--comments-width': `${commentsWidth}px` } as CSSProperties;

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
      <Resizer
        width={liveWidth ?? width}
        min={TREE_WIDTH_MIN}
        max={TREE_WIDTH_MAX}
        defaultWidth={TREE_WIDTH_DEFAULT}
        edge="right"
        label={t('sidebar.resize')}
        className="shell-resizer"
        onLive={setLiveWidth}
        onDone={(w) => dispatch(pageTreeWidthSet(w))}
      />
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
    <div
      className={['shell', isPhone ? 'is-phone' : '', isPhone || !open ? 'is-tree-closed' : '', !isPhone && commentsOver ? 'is-comments-over' : '']
        .filter(Boolean)
        .join(' ')}
      style={isPhone ? undefined : style}
    >
      <SkipLinks showMenu={() => (isPhone ? setDrawerOpen(true) : dispatch(pageTreeOpenSet(true)))} />
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
