import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { WireNotification } from '../../../schema/notification';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { BellIcon, CheckAllIcon, CheckIcon, CloseIcon, InboxIcon, MoreIcon, PinIcon, TrashIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { relativeTime } from '../comments/content';
import { displayName, useUsers } from '../comments/userLookup';
import { useIsPhone } from '../../ui/useIsPhone';
import { ActionMenu, MenuItem } from '../../ui/ActionMenu';
import { inboxPanelSet, PANEL_WIDTH_DEFAULT, PANEL_WIDTH_MAX, PANEL_WIDTH_MIN } from '../settings/uiSettings';
import { Resizer } from '../../ui/Resizer';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import {
  allWorkspacesSet,
  isInboxFilter,
  loadNotifications,
  loadUnreadCounts,
  markAllRead,
  removeAllNotifications,
  removeNotification,
  setNotificationRead,
  type InboxFilter,
} from './inboxSlice';
import { NotificationSettingsHost } from './NotificationSettingsDialog';
import { closeInbox, openInbox, useInboxOpen } from './openInbox';
import { usePageTitle } from './pageTitles';
import './inbox.css';
import { errorMessage, type ApiFailure, type FeatureMessages } from '../../app/errors';
import { unreadCount } from '../../ui/unreadCount';

type T = (key: string, options?: Record<string, unknown>) => string;

const FILTERS: InboxFilter[] = ['all', 'unread', 'read'];

const INBOX_MESSAGES: FeatureMessages = {
  network: 'inbox.errors.network',
  not_found: 'inbox.errors.notFound',
  forbidden: 'inbox.errors.forbidden',
  generic: 'inbox.errors.generic',
};

/** A refused inbox call in Russian; no failure kept: no connection. */
export function inboxError(t: T, failure: ApiFailure | undefined): string {
  return errorMessage(t, failure ?? { status: undefined, message: '' }, INBOX_MESSAGES);
}

/** Where a notification leads: its page, and the comment for comment notifications, the block for a reminder. */
export function notificationHref(n: WireNotification): string {
  const page = `/${encodeURIComponent(n.context.elementId)}`;
  if ('blockId' in n.context) return `${page}?block=${encodeURIComponent(n.context.blockId)}`;
  return 'commentId' in n.context ? `${page}?commentId=${encodeURIComponent(n.context.commentId)}` : page;
}

/** Who acted: the comment's author, the reactor, or who shared the page. */
const actorOf = (n: WireNotification) => ('senderId' in n.context ? n.context.senderId : n.context.sourceId);

/** What they did, after the name (the name is shown in bold before it). */
function actionText(t: T, n: WireNotification): string {
  switch (n.name) {
    case 'comments.create':
      return t('inbox.text.comment');
    case 'comments.mention_user':
      return t('inbox.text.mention');
    case 'comments.replied':
      return t('inbox.text.reply');
    case 'comments.reaction':
      return n.context.reactionCount > 1
        ? t('inbox.text.reactionOthers', { code: n.context.reactionCode, count: n.context.reactionCount - 1 })
        : t('inbox.text.reaction', { code: n.context.reactionCode });
    case 'element_members.invite.member':
      return t('inbox.text.invite');
    case 'reminders.due':
      return n.context.label;
  }
}

/** The comment's text as it was, shortened; or what it carried when it had no text. */
function excerptOf(t: T, n: WireNotification): string | null {
  if (!('content' in n.context)) return null;
  const text = n.context.content
    .map((token) => token.text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (text) return text.length > 160 ? `${text.slice(0, 159)}…` : text;
  if (n.context.composition.attachesCount > 0) return t('inbox.attachments', { count: n.context.composition.attachesCount });
  return null;
}

/** Re-renders every minute, so «5 минут назад» stays true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function ItemMenu({ item }: { item: WireNotification }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const toggleRead = async () => {
    const result = await dispatch(setNotificationRead({ id: item.id, read: !item.is_read }));
    if (setNotificationRead.rejected.match(result)) showToast(inboxError(t, result.payload), 'error');
  };
  const remove = async () => {
    const result = await dispatch(removeNotification(item.id));
    if (removeNotification.rejected.match(result)) showToast(inboxError(t, result.payload), 'error');
    else showToast(t('inbox.toasts.removed'));
  };
  return (
    <ActionMenu label={t('inbox.actions')} trigger={<MoreIcon size={16} />} buttonClassName="inbox-item-more" menuClassName="inbox-menu">
      {(close) => {
        const run = (action: () => Promise<unknown>) => () => {
          close();
          void action();
        };
        return (
          <>
            <MenuItem icon={item.is_read ? <span className="inbox-dot" /> : <CheckIcon size={16} />} onClick={run(toggleRead)}>
              {item.is_read ? t('inbox.markUnread') : t('inbox.markRead')}
            </MenuItem>
            <MenuItem icon={<TrashIcon size={16} />} danger onClick={run(remove)}>
              {t('inbox.remove')}
            </MenuItem>
          </>
        );
      }}
    </ActionMenu>
  );
}

function NotificationItem({
  item,
  now,
  onOpen,
  showWorkspace,
}: {
  item: WireNotification;
  now: number;
  onOpen(item: WireNotification): void;
  showWorkspace: boolean;
}) {
  const { t } = useTranslation();
  const workspaceName = useAppSelector((state) =>
    showWorkspace && item.workspace_id ? state.workspaces.list.find((w) => w.id === item.workspace_id)?.name : undefined,
  );
  const [actor] = useUsers([actorOf(item)]);
  const title = usePageTitle(item.context.elementId);
  // A reminder is the reader's own: «Напоминание» and a bell rather than their name.
  const reminder = item.name === 'reminders.due';
  const name = reminder ? t('inbox.reminder') : displayName(actor, t('inbox.someone'));
  const excerpt = excerptOf(t, item);
  return (
    <li className={['inbox-item', item.is_read ? '' : 'is-unread'].filter(Boolean).join(' ')} data-notification-id={item.id}>
      <button type="button" className="inbox-item-main" onClick={() => onOpen(item)}>
        <span className={`avatar${reminder ? ' inbox-reminder-icon' : ''}`} aria-hidden>
          {reminder ? <BellIcon size={16} /> : name.slice(0, 1).toUpperCase()}
        </span>
        <span className="inbox-item-body">
          <span className="inbox-item-text">
            <strong>{name}</strong>
            {reminder ? ': ' : ' '}
            {actionText(t, item)}
          </span>
          <span className="inbox-item-page">
            {title === undefined ? '…' : title || t('untitled')}
            {workspaceName && (
              <span className="inbox-item-workspace workspace-tag" title={t('inbox.workspaceOf', { name: workspaceName })}>
                {workspaceName}
              </span>
            )}
          </span>
          {excerpt && <span className="inbox-item-excerpt">{excerpt}</span>}
          <time className="inbox-item-time" dateTime={item.created_at} title={new Date(item.created_at).toLocaleString('ru')}>
            {relativeTime(item.created_at, now, t('comments.justNow'))}
          </time>
        </span>
        {!item.is_read && <span className="inbox-dot" role="img" aria-label={t('inbox.unreadDot')} />}
      </button>
      <ItemMenu item={item} />
    </li>
  );
}

/** The inbox: the active workspace's notifications with filters, read state, removal; docked when pinned. */
export function InboxPanel({ docked, onClose }: { docked: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isPhone = useIsPhone();
  const workspace = useAppSelector(selectActiveWorkspace);
  const workspaceCount = useAppSelector((state) => state.workspaces.list.length);
  // «Все пространства» (offered with more than one): every workspace's notifications, each named.
  const everywhere = useAppSelector((state) => state.inbox.allWorkspaces) && workspaceCount > 1;
  const workspaceId = everywhere ? null : (workspace?.id ?? null);
  const stored = useAppSelector((state) => state.uiSettings.inboxPanel);
  const filter: InboxFilter = isInboxFilter(stored.filter) ? stored.filter : 'all';
  const { items, status, nextCursor, loadingMore } = useAppSelector((state) => state.inbox);
  const unread = useAppSelector((state) => (workspaceId ? (state.inbox.counts[workspaceId] ?? 0) : state.inbox.total));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // Resizable from its right edge (the setting `inboxPanel.width`); a drag draws each step and saves its end.
  const [liveWidth, setLiveWidth] = useState<number | null>(null);
  const width = liveWidth ?? stored.width;
  const panel = useRef<HTMLElement>(null);
  const now = useNow();

  // Opening, switching filter or workspace: the list and the counts are asked for again.
  useEffect(() => {
    void dispatch(loadNotifications({ workspaceId, filter }));
    void dispatch(loadUnreadCounts());
  }, [dispatch, workspaceId, filter]);

  useEffect(() => {
    if (!docked) panel.current?.focus();
  }, [docked]);

  // Unpinned, Escape and a click outside close it (menus and dialogs it opened count as inside).
  useEffect(() => {
    if (docked) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('.dialog-backdrop, .inbox-menu')) onClose();
    };
    const onDown = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (!target || panel.current?.contains(target) || target.closest?.('.popover, .dialog-backdrop, [data-inbox-toggle]')) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [docked, onClose]);

  const setFilter = (next: InboxFilter) => dispatch(inboxPanelSet({ filter: next }));
  const togglePin = () => {
    if (docked) openInbox();
    dispatch(inboxPanelSet({ pinned: !docked }));
  };

  const openItem = (item: WireNotification) => {
    if (!item.is_read) {
      void dispatch(setNotificationRead({ id: item.id, read: true })).then((result) => {
        if (setNotificationRead.rejected.match(result) && result.payload?.status !== 404) showToast(inboxError(t, result.payload), 'error');
      });
    }
    navigate(notificationHref(item));
  };

  const readAll = async () => {
    setBusy(true);
    const result = await dispatch(markAllRead({ workspaceId }));
    setBusy(false);
    if (markAllRead.rejected.match(result)) showToast(inboxError(t, result.payload), 'error');
    else showToast(t('inbox.toasts.allRead'));
  };

  const removeAll = async () => {
    setConfirming(false);
    setBusy(true);
    const result = await dispatch(removeAllNotifications({ workspaceId }));
    setBusy(false);
    if (removeAllNotifications.rejected.match(result)) showToast(inboxError(t, result.payload), 'error');
    else showToast(t('inbox.toasts.removedAll'));
  };

  const onTabKey = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = FILTERS[(FILTERS.indexOf(filter) + (event.key === 'ArrowRight' ? 1 : FILTERS.length - 1)) % FILTERS.length];
    setFilter(next);
    (event.currentTarget.querySelector(`[data-filter="${next}"]`) as HTMLElement | null)?.focus();
  };

  return (
    <aside
      ref={panel}
      className={['inbox-panel', docked ? 'is-docked' : 'is-floating', isPhone ? 'is-phone' : ''].filter(Boolean).join(' ')}
      aria-label={t('inbox.title')}
      tabIndex={-1}
      style={isPhone ? undefined : { width }}
    >
      {!isPhone && (
        <Resizer
          width={width}
          min={PANEL_WIDTH_MIN}
          max={PANEL_WIDTH_MAX}
          defaultWidth={PANEL_WIDTH_DEFAULT}
          edge="right"
          label={t('inbox.resize')}
          onLive={setLiveWidth}
          onDone={(next) => dispatch(inboxPanelSet({ width: next }))}
        />
      )}
      <header className="inbox-head">
        <h2 className="inbox-title">
          {t('inbox.title')}
          {unread > 0 && <span className="inbox-title-count">{unreadCount(unread)}</span>}
        </h2>
        <div className="inbox-head-actions">
          <Button
            kind="flat"
            size="xxs"
            aria-label={t('inbox.readAll')}
            title={t('inbox.readAll')}
            disabled={busy || unread === 0}
            onClick={() => void readAll()}
          >
            <CheckAllIcon size={18} />
          </Button>
          <Button
            kind="flat"
            size="xxs"
            aria-label={t('inbox.removeAll')}
            title={t('inbox.removeAll')}
            disabled={busy || (status === 'ready' && items.length === 0 && filter === 'all')}
            onClick={() => setConfirming(true)}
          >
            <TrashIcon size={18} />
          </Button>
          {!isPhone && (
            <Button
              kind="flat"
              size="xxs"
              className={docked ? 'inbox-pin is-on' : 'inbox-pin'}
              aria-label={docked ? t('inbox.unpin') : t('inbox.pin')}
              title={docked ? t('inbox.unpin') : t('inbox.pin')}
              aria-pressed={docked}
              onClick={togglePin}
            >
              <PinIcon size={18} filled={docked} />
            </Button>
          )}
          <Button kind="flat" size="xxs" aria-label={t('inbox.close')} title={t('inbox.close')} onClick={onClose}>
            <CloseIcon size={18} />
          </Button>
        </div>
      </header>
      <div className="inbox-tabs-row">
        <div className="inbox-tabs" role="tablist" aria-label={t('inbox.filtersLabel')} onKeyDown={onTabKey}>
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              role="tab"
              data-filter={f}
              aria-selected={f === filter}
              tabIndex={f === filter ? 0 : -1}
              className={f === filter ? 'inbox-tab is-active' : 'inbox-tab'}
              onClick={() => setFilter(f)}
            >
              {t(`inbox.filters.${f}`)}
            </button>
          ))}
        </div>
        {workspaceCount > 1 && (
          <label className="inbox-everywhere">
            <input type="checkbox" checked={everywhere} onChange={(event) => dispatch(allWorkspacesSet(event.target.checked))} />
            <span>{t('inbox.allWorkspaces')}</span>
          </label>
        )}
      </div>
      <div className="inbox-scroll" role="tabpanel" aria-busy={status === 'loading'}>
        {status === 'failed' ? (
          <div className="inbox-state" role="alert">
            <p>{t('inbox.errors.load')}</p>
            <Button kind="outline" size="s" onClick={() => void dispatch(loadNotifications({ workspaceId, filter }))}>
              {t('inbox.retry')}
            </Button>
          </div>
        ) : status !== 'ready' && items.length === 0 ? (
          <div className="inbox-state">
            <p>{t('inbox.loading')}</p>
          </div>
        ) : items.length === 0 ? (
          <div className="inbox-state">
            <span className="inbox-state-icon" aria-hidden>
              <InboxIcon size={28} />
            </span>
            <p className="inbox-state-title">{t(`inbox.empty.${filter}`)}</p>
            <p className="inbox-state-hint">{t('inbox.emptyHint')}</p>
          </div>
        ) : (
          <>
            <ul className="inbox-list">
              {items.map((item) => (
                <NotificationItem key={item.id} item={item} now={now} onOpen={openItem} showWorkspace={everywhere} />
              ))}
            </ul>
            {nextCursor && (
              <div className="inbox-more">
                <Button kind="flat" size="s" disabled={loadingMore} onClick={() => void dispatch(loadNotifications({ workspaceId, filter, more: true }))}>
                  {loadingMore ? t('inbox.loading') : t('inbox.loadMore')}
                </Button>
              </div>
            )}
          </>
        )}
      </div>
      {confirming && (
        <Dialog
          title={t('inbox.confirmRemoveAllTitle')}
          onClose={() => setConfirming(false)}
          className="dialog-small"
          footer={
            <>
              <Button kind="outline" size="s" onClick={() => setConfirming(false)}>
                {t('inbox.cancel')}
              </Button>
              <Button kind="solid" size="s" className="inbox-danger" onClick={() => void removeAll()}>
                {t('inbox.removeAll')}
              </Button>
            </>
          }
        >
          <p className="inbox-confirm-text">{t('inbox.confirmRemoveAllText')}</p>
        </Dialog>
      )}
    </aside>
  );
}

/**
 * Mounted once by the shell: the inbox panel while it is open or pinned (pinned docks it beside
 * the page; a phone always gets a full-screen sheet), and the per-page settings dialog.
 */
export function InboxHost() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const open = useInboxOpen();
  const pinned = useAppSelector((state) => state.uiSettings.inboxPanel.pinned);
  const isPhone = useIsPhone();
  const docked = pinned && !isPhone;
  const visible = open || docked;

  // Unpinned, it closes when the app goes to another page.
  const lastLocation = useRef(location.key);
  useEffect(() => {
    if (lastLocation.current === location.key) return;
    lastLocation.current = location.key;
    if (!docked) closeInbox();
  }, [location.key, docked]);

  // Closing a docked panel unpins it; a phone's sheet leaves the desktop setting alone.
  const close = useCallback(() => {
    closeInbox();
    if (docked) dispatch(inboxPanelSet({ pinned: false }));
  }, [dispatch, docked]);

  return (
    <>
      {visible && <InboxPanel docked={docked} onClose={close} />}
      <NotificationSettingsHost />
    </>
  );
}
