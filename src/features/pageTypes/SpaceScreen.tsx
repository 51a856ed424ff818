import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { channels, REALTIME_EVENTS } from '../../../schema/realtime';
import { useRealtime } from '../../app/RealtimeProvider';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { openCsvImport } from '../database/csv/openCsvImport';
import { createChildPage, loadChildren, selectChildIds, selectPageById } from '../pages/pagesSlice';
import { createErrorKey } from '../pages/treeErrors';
import { CreatePageMenuButton, type NewPageKind } from './CreatePageMenu';
import { PageTypeIcon } from '../../ui/pageTypeIcons';

/** The folder's children follow other people's changes: its elementChildren channel, read again on every (re)join and change. */
function useLiveChildList(pageId: string) {
  const dispatch = useAppDispatch();
  const connection = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id);
  useEffect(() => {
    // Read on opening (a list the sidebar read long ago may be old); live, the join reads it again.
    void dispatch(loadChildren(pageId));
    if (!connection || !userId) return;
    return connection.subscribe(channels.elementChildren(pageId, userId), {
      onJoined: () => void dispatch(loadChildren(pageId)),
      onEvent: (event) => {
        if (event === REALTIME_EVENTS.edit) void dispatch(loadChildren(pageId));
      },
    });
  }, [connection, dispatch, pageId, userId]);
}

function ChildCard({ id }: { id: string }) {
  const { t } = useTranslation();
  const page = useAppSelector((state) => selectPageById(state, id));
  if (!page) return null;
  return (
    <li>
      <Link to={`/${id}`} className="space-card">
        <span className="space-card-icon" aria-hidden>
          {page.icon ?? <PageTypeIcon type={page.type} size={24} />}
        </span>
        <span className="space-card-text">
          <span className={page.title ? 'space-card-title' : 'space-card-title is-untitled'}>{page.title || t('untitled')}</span>
          <span className="space-card-type">{t(`pageTypes.names.${page.type}`)}</span>
        </span>
      </Link>
    </li>
  );
}

/**
 * A page of type Space: a folder. It lists its child pages (cards on a wide screen, a list on a
 * phone) that open on click, and lets editors make a new one of any type.
 */
export function SpaceScreen({ page, editable }: { page: WireElement; editable: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const childIds = useAppSelector((state) => selectChildIds(state, page.id));
  const status = useAppSelector((state) => state.pages.childrenStatus[page.id]);
  const [busy, setBusy] = useState(false);
  useLiveChildList(page.id);

  const create = async (kind: NewPageKind = 'Note') => {
    if (kind === 'csv') return openCsvImport({ kind: 'new', place: { parentId: page.id } });
    setBusy(true);
    const id = newId();
    const result = await dispatch(createChildPage({ parentId: page.id, id, type: kind }));
    setBusy(false);
    if (createChildPage.fulfilled.match(result)) navigate(`/${id}`);
    else showToast(t(createErrorKey(result.payload)), 'error');
  };

  let list;
  if (childIds === undefined) {
    list =
      status === 'failed' ? (
        <p className="type-page-note" role="alert">
          {t('sidebar.loadFailed')} ·{' '}
          <button type="button" className="link-button" onClick={() => void dispatch(loadChildren(page.id))}>
            {t('sidebar.retry')}
          </button>
        </p>
      ) : (
        <p className="type-page-note">{t('sidebar.loading')}</p>
      );
  } else if (childIds.length === 0) {
    list = (
      <div className="space-empty">
        <p className="space-empty-title">{t('pageTypes.space.empty')}</p>
        {editable && <p className="type-page-note">{t('pageTypes.space.emptyHint')}</p>}
      </div>
    );
  } else {
    list = (
      <ul className="space-grid" aria-label={t('pageTypes.space.list')}>
        {childIds.map((id) => (
          <ChildCard key={id} id={id} />
        ))}
      </ul>
    );
  }

  return (
    <div className="space-body">
      <div className="space-toolbar">
        <span className="space-count">{childIds ? t('pageTypes.space.count', { count: childIds.length }) : ''}</span>
        {editable && (
          <span className="space-create">
            <Button kind="outline" size="s" className="space-create-main" disabled={busy} onClick={() => void create()}>
              <PlusIcon size={16} />
              {t('pageTypes.space.newPage')}
            </Button>
            <CreatePageMenuButton
              label={t('pageTypes.space.newOfType')}
              className="button button-s button-outline space-create-more"
              disabled={busy}
              onPick={(kind) => void create(kind)}
            />
          </span>
        )}
      </div>
      {list}
    </div>
  );
}
