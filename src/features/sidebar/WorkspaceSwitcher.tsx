import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { WireWorkspace } from '../../../schema/workspace';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { CheckIcon, PlusIcon, SelectorIcon } from '../../ui/icons';
import { useUnreadCounts } from '../inbox/InboxEntry';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { switchWorkspace } from '../workspaces/switchWorkspace';
import { WorkspaceSettingsHost, WorkspaceSettingsMenuItem } from '../workspaces/WorkspaceSettings';
import { unreadCount } from '../../ui/unreadCount';
import { registerPopoverAnchor } from '../../ui/modal';

/* The workspace switcher with unread counts (kept by the inbox slice: GET /api/notifications/counts). */

function Badge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <span className="unread-badge" aria-label={t('sidebar.unread', { count })} title={t('sidebar.unread', { count })}>
      {unreadCount(count)}
    </span>
  );
}

/** On the switcher: what is unread in the user's other workspaces (the active one's count is on «Входящие»). */
function ElsewhereBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <span className="unread-badge is-elsewhere" role="img" aria-label={t('sidebar.unreadElsewhere', { count })} title={t('sidebar.unreadElsewhere', { count })}>
      {unreadCount(count)}
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

/** The active workspace's name; its menu lists the user's workspaces, «Создать пространство» and «Настройки пространства». */
export function WorkspaceSwitcher() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useAppSelector(selectActiveWorkspace);
  const list = useAppSelector((state) => state.workspaces.list);
  const counts = useUnreadCounts();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Open: the focus on the checked workspace, ↑/↓ round the items; Escape gives it back to the
  // button, and a dialog opened from an item gives it back there too (registerPopoverAnchor).
  useLayoutEffect(() => {
    const panel = menu.current;
    if (!open || !panel) return;
    registerPopoverAnchor(panel, button.current);
    (panel.querySelector<HTMLElement>('[aria-checked="true"]') ?? panel.querySelector<HTMLElement>('.workspace-menu-item'))?.focus();
    return () => registerPopoverAnchor(panel, null);
  }, [open]);
  const arrows = (event: ReactKeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('.workspace-menu-item') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    items[(index + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !ref.current?.contains(event.target as Node)) {
        if (event instanceof KeyboardEvent && ref.current?.contains(document.activeElement)) button.current?.focus();
        setOpen(false);
      }
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
        ref={button}
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
        <div ref={menu} className="workspace-menu" role="menu" aria-label={t('sidebar.workspaces')} onKeyDown={arrows}>
          <div className="workspace-menu-title">{t('sidebar.workspaces')}</div>
          {list.map((w) => (
            <button
              key={w.id}
              type="button"
              role="menuitemradio"
              aria-checked={w.id === workspace?.id}
              className="workspace-menu-item"
              onClick={() => switchTo(w.id)}
            >
              <WorkspaceAvatar workspace={w} />
              <span className="workspace-menu-text">
                <span className="workspace-menu-name">{w.name}</span>
                <span className="workspace-menu-role">{t(`sidebar.roles.${w.role}`)}</span>
              </span>
              <Badge count={counts[w.id] ?? 0} />
              <span className="workspace-menu-check">{w.id === workspace?.id && <CheckIcon size={16} />}</span>
            </button>
          ))}
          <button
            type="button"
            role="menuitem"
            className="workspace-menu-item workspace-menu-create"
            onClick={() => {
              setOpen(false);
              navigate('/new-workspace');
            }}
          >
            <span className="sidebar-avatar workspace-menu-plus" aria-hidden>
              <PlusIcon size={14} />
            </span>
            <span className="workspace-menu-text">
              <span className="workspace-menu-name">{t('wizard.entry')}</span>
            </span>
          </button>
          <WorkspaceSettingsMenuItem onOpen={() => setOpen(false)} />
        </div>
      )}
      <WorkspaceSettingsHost />
    </div>
  );
}
