import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { canEdit, canShare } from '../../../schema/policies/page';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { PageIcon, RestoreIcon, TrashIcon } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { showToast } from '../../ui/Toast';
import { useDeleteForeverMutation, useRestorePageMutation, useTrashInfiniteQuery, type TrashItem } from './trashApi';
import { closeTrash, useTrashOpen } from './openTrash';
import './trash.css';

/** The trash search waits this long after the last keystroke. */
export const TRASH_SEARCH_DEBOUNCE_MS = 300;

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

/** Mounted once by the app: shows the trash dialog while openTrash() has it open. */
export function TrashHost() {
  const open = useTrashOpen();
  return open ? <TrashDialog onClose={closeTrash} /> : null;
}

/** «Корзина»: pages in the trash, searchable by title; restore, or delete forever after a confirmation. */
export function TrashDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const listing = useTrashInfiniteQuery(search, { refetchOnMountOrArgChange: true });
  // While a new search loads, the last one's list stays; a search that failed shows its error, not the last list.
  const items = listing.isError && !listing.isFetching ? undefined : listing.data?.pages.flatMap((page) => page.items);
  const [restorePage] = useRestorePageMutation();
  const [deletePage] = useDeleteForeverMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TrashItem | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(query.trim()), TRASH_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const loadMore = async () => {
    if (!listing.hasNextPage || listing.isFetchingNextPage) return;
    const more = await listing.fetchNextPage();
    if (more.isError) showToast(t('trash.errors.load'), 'error');
  };

  const restore = async (item: TrashItem) => {
    setBusy(item.id);
    try {
      await restorePage(item.id).unwrap();
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
      await deletePage(item.id).unwrap();
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
      <Dialog title={t('trash.title')} onClose={onClose} namesScreen className="trash-dialog">
        <SearchField className="trash-search" autoFocus value={query} placeholder={t('trash.search')} onChange={(e) => setQuery(e.target.value)} />
        {!items && listing.isFetching && <div className="trash-placeholder">{t('loading')}</div>}
        {!items && listing.isError && !listing.isFetching && (
          <p className="trash-placeholder" role="alert">
            {t('trash.errors.load')}
          </p>
        )}
        {items && items.length === 0 && <p className="trash-placeholder">{search ? t('trash.nothingFound') : t('trash.empty')}</p>}
        {items && items.length > 0 && (
          <ul className="trash-list" aria-label={t('trash.title')}>
            {items.map((item) => (
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
        {items && listing.hasNextPage && !listing.isFetching && (
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
