import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { InboxIcon } from '../../ui/icons';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { loadUnreadCounts, selectUnreadCount, selectUnreadCounts } from './inboxSlice';
import { toggleInbox, useInboxOpen } from './openInbox';
import { unreadCount } from '../../ui/unreadCount';
import { useIsPhone } from '../../ui/useIsPhone';

/**
 * How often the unread counts are asked for while the sidebar is shown. New notifications arrive
 * live (src/features/realtime/liveShell.ts: counts read again on every notification and
 * reconnect), so this is only a slow fallback: it also catches what no event announces —
 * notifications read or removed in another tab, or one gone with the page it was about.
 */
export const COUNTS_POLL_MS = 5 * 60_000;

/**
 * Unread counts per workspace from the inbox slice; loads them now and then every
 * COUNTS_POLL_MS (live updates do the rest). Never on window focus (spec: no refetch on focus).
 */
export function useUnreadCounts(): Record<string, number> {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const load = () => void dispatch(loadUnreadCounts());
    load();
    const timer = setInterval(load, COUNTS_POLL_MS);
    return () => clearInterval(timer);
  }, [dispatch]);
  return useAppSelector(selectUnreadCounts);
}

/** «Входящие» in the sidebar: opens the inbox panel; shows the active workspace's unread count. */
export function InboxEntry() {
  const { t } = useTranslation();
  const workspace = useAppSelector(selectActiveWorkspace);
  const count = useAppSelector((state) => selectUnreadCount(state, workspace?.id));
  const open = useInboxOpen();
  const pinned = useAppSelector((state) => state.uiSettings.inboxPanel.pinned);
  // A docked panel is already open: the entry takes the focus there (on a phone the panel never docks).
  const isPhone = useIsPhone();
  const docked = pinned && !isPhone;
  const onClick = () => (docked ? document.querySelector<HTMLElement>('.inbox-panel')?.focus() : toggleInbox());
  // The name is what the entry shows («Входящие» and the badge's number: WCAG 2.5.3, the name
  // holds the visible text); what the number means is its description.
  const countId = useId();
  return (
    <button
      type="button"
      className={open || docked ? 'sidebar-tool inbox-entry is-active' : 'sidebar-tool inbox-entry'}
      data-inbox-toggle
      aria-describedby={count > 0 ? countId : undefined}
      aria-expanded={open || docked}
      onClick={onClick}
    >
      <InboxIcon size={16} aria-hidden />
      <span>{t('inbox.title')}</span>
      {count > 0 && (
        <>
          <span className="unread-badge inbox-entry-badge">{unreadCount(count)}</span>
          {/* Hidden, but read through aria-describedby (not part of the name from content). */}
          <span id={countId} hidden>
            {t('sidebar.unread', { count })}
          </span>
        </>
      )}
    </button>
  );
}
