import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { canEdit, canShare } from '../../../schema/policies/page';
import { api } from '../../app/api';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { useAppDispatch } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { PageIcon, RestoreIcon, TrashIcon } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { showToast } from '../../ui/Toast';
import { loadSection, pageLoaded, pageRemoved } from '../pages/pagesSlice';
import { closeTrash, useTrashOpen } from './openTrash';
import './trash.css';

/** The trash search waits this long after the last keystroke. */
export const TRASH_SEARCH_DEBOUNCE_MS = 300;

type TrashItem = WireElement & { trashedAt?: string };
type Listing = { status: 'loading' } | { status: 'ready'; items: TrashItem[]; next: string | null } | { status: 'failed' };

const TRASH_MESSAGES: FeatureMessages = {
  network: 'page.errors.network',
  'page.parent_in_trash': 'trash.errors.parentInTrash',
  'page.not_in_trash': 'trash.errors.notInTrash',
  forbidden: 'trash.errors.forbidden',
  generic: 'trash.errors.generic',
};

export function trashMessage(t: (key: string) => string, error: unknown): string {
  return errorMessage(t, error, TRASH_MESSAGES);
}

function parsePages(data: unknown[]): TrashItem[] {
  return data.flatMap((item) => {
    const parsed = wireElementSchema.safeParse(item);
    return parsed.success ? [{ ...parsed.data, trashedAt: (item as { trashedAt?: string }).trashedAt }] : [];
  });
}

/** Mounted once by the app: shows the trash dialog while openTrash() has it open. */
export function TrashHost() {
  const open = useTrashOpen();
  return open ? <TrashDialog onClose={closeTrash} /> : null;
}

/** «Корзина»: pages in the trash, searchable by title; restore, or delete forever after a confirmation. */
export function TrashDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TrashItem | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(query.trim()), TRASH_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const load = useCallback(async (q: string, cursor: string | null, signal?: AbortSignal) => {
    const params = new URLSearchParams();
    if (q) params.set('q', JSON.stringify(q));
    if (cursor) params.set('cursor', JSON.stringify(cursor));
    const { data, meta } = await api<unknown[]>(`/api/v3/spaces/trash${params.size ? `?${params}` : ''}`, { signal });
    const m = meta as { hasMoreNext?: boolean; nextCursor?: string } | undefined;
    return { items: parsePages(data), next: m?.hasMoreNext ? (m.nextCursor ?? null) : null };
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    setListing((l) => (l.status === 'ready' ? l : { status: 'loading' }));
    load(search, null, controller.signal)
      .then((page) => setListing({ status: 'ready', ...page }))
      .catch(() => !controller.signal.aborted && setListing({ status: 'failed' }));
    return () => controller.abort();
  }, [load, search]);

  const loadMore = async () => {
    if (listing.status !== 'ready' || !listing.next) return;
    try {
      const more = await load(search, listing.next);
      setListing({ status: 'ready', items: [...listing.items, ...more.items], next: more.next });
    } catch {
      showToast(t('trash.errors.load'), 'error');
    }
  };

  const drop = (id: string) => setListing((l) => (l.status === 'ready' ? { ...l, items: l.items.filter((p) => p.id !== id) } : l));

  const restore = async (item: TrashItem) => {
    setBusy(item.id);
    try {
      const { data } = await api<unknown>(`/api/v3/spaces/trash/${encodeURIComponent(item.id)}/restore`, { method: 'POST' });
      const page = wireElementSchema.parse(data);
      dispatch(pageLoaded(page));
      drop(item.id);
      void dispatch(loadSection('private'));
      void dispatch(loadSection('favorite'));
      if (page.section === 'all' || page.path.length > 0) void dispatch(loadSection('all'));
      showToast(t('trash.restored'));
    } catch (error) {
      showToast(trashMessage(t, error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const removeForever = async (item: TrashItem) => {
    setConfirming(null);
    setBusy(item.id);
    try {
      await api(`/api/v3/spaces/trash/${encodeURIComponent(item.id)}/remove`, { method: 'POST' });
      dispatch(pageRemoved(item.id));
      drop(item.id);
      showToast(t('trash.deleted'));
    } catch (error) {
      showToast(trashMessage(t, error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const date = (iso: string) => new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

  return (
    <>
      <Dialog title={t('trash.title')} onClose={onClose} className="trash-dialog">
        <SearchField className="trash-search" autoFocus value={query} placeholder={t('trash.search')} onChange={(e) => setQuery(e.target.value)} />
        {listing.status === 'loading' && <div className="trash-placeholder">{t('loading')}</div>}
        {listing.status === 'failed' && (
          <p className="trash-placeholder" role="alert">
            {t('trash.errors.load')}
          </p>
        )}
        {listing.status === 'ready' && listing.items.length === 0 && <p className="trash-placeholder">{search ? t('trash.nothingFound') : t('trash.empty')}</p>}
        {listing.status === 'ready' && listing.items.length > 0 && (
          <ul className="trash-list" aria-label={t('trash.title')}>
            {listing.items.map((item) => (
              <li key={item.id} className="trash-item">
                <button
                  type="button"
                  className="trash-open"
                  onClick={() => {
                    onClose();
                    navigate(`/${item.id}`);
                  }}
                >
                  <span className="trash-icon" aria-hidden>
                    {item.icon ?? <PageIcon size={16} />}
                  </span>
                  <span className="trash-text">
                    <span className="trash-title">{item.title || t('untitled')}</span>
                    {item.trashedAt && <span className="trash-date">{t('trash.deletedAt', { date: date(item.trashedAt) })}</span>}
                  </span>
                </button>
                {canEdit(item.accessLevel) && (
                  <Button
                    kind="flat"
                    size="xxs"
                    disabled={busy === item.id}
                    aria-label={`${t('trash.restore')}: ${item.title || t('untitled')}`}
                    title={t('trash.restore')}
                    onClick={() => void restore(item)}
                  >
                    <RestoreIcon size={16} />
                  </Button>
                )}
                {canShare(item.accessLevel) && (
                  <Button
                    kind="flat"
                    size="xxs"
                    className="trash-delete"
                    disabled={busy === item.id}
                    aria-label={`${t('trash.deleteForever')}: ${item.title || t('untitled')}`}
                    title={t('trash.deleteForever')}
                    onClick={() => setConfirming(item)}
                  >
                    <TrashIcon size={16} />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {listing.status === 'ready' && listing.next && (
          <Button kind="flat" size="xs" className="trash-more" onClick={() => void loadMore()}>
            {t('trash.loadMore')}
          </Button>
        )}
      </Dialog>
      {confirming && (
        <Dialog
          title={t('trash.confirmTitle')}
          onClose={() => setConfirming(null)}
          className="dialog-small"
          footer={
            <>
              <Button kind="outline" size="s" onClick={() => setConfirming(null)}>
                {t('trash.cancel')}
              </Button>
              <Button size="s" className="button-danger" onClick={() => void removeForever(confirming)}>
                {t('trash.deleteForever')}
              </Button>
            </>
          }
        >
          <p className="confirm-text">{t('trash.confirmText', { title: confirming.title || t('untitled') })}</p>
        </Dialog>
      )}
    </>
  );
}
