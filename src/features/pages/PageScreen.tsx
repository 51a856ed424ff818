import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { WireBlock } from '../../../schema/block';
import { canEdit, type WireElement } from '../../../schema/element';
import type { SyncStatus } from '../../../plugins/withBlockSync';
import { ApiRequestError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { DocumentEditor } from '../../editor/DocumentEditor';
import { loadBlocks } from '../../editor/blockApi';
import { ErrorScreen, type ErrorKind } from '../../ui/ErrorScreen';
import { switchWorkspace } from '../workspaces/switchWorkspace';
import { Spinner } from '../../ui/Spinner';
import { CommentsButton, CommentsPanel, useCommentsPanel } from '../comments/CommentsPanel';
import { fetchPage, pageChangedElsewhere, pageLoaded, pageTitleEdited, renamePage, selectPageById } from './pagesSlice';
import { Breadcrumbs } from './Breadcrumbs';
import { PageHeader } from './PageHeader';
import { FavoriteButton, PageMenu } from './PageMenu';
import './page.css';
import { PublicPageScreen } from '../public/PublicPageScreen';
import { ShareButton } from '../sharing/ShareDialog';
import { PresenceAvatars } from '../presence/PresenceAvatars';
import { useRealtime } from '../../app/RealtimeProvider';
import { TrashedPageBanner } from '../trash/TrashedPageBanner';

type Loaded = { status: 'loading' } | { status: 'ready'; page: WireElement; blocks: WireBlock[]; at: string | undefined } | { status: 'failed'; kind: ErrorKind };

const STATUS_ORDER: SyncStatus[] = ['saved', 'pending', 'offline', 'error'];

/** The page shows "saved" only when the title and every block are saved. */
function worstStatus(...statuses: SyncStatus[]): SyncStatus {
  return statuses.reduce((worst, s) => (STATUS_ORDER.indexOf(s) > STATUS_ORDER.indexOf(worst) ? s : worst), 'saved');
}

function errorKind(error: unknown): ErrorKind {
  if (!(error instanceof ApiRequestError) || error.status === undefined) return 'network';
  if (error.status === 401) return 'unauthorized';
  if (error.status === 403) return 'noAccess';
  if (error.status === 404 || error.status === 400) return 'notFound';
  return 'generic';
}

/** A page by uid: loads it and its blocks, then edits them. */
function PageEditorScreen({ pageUid }: { pageUid: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const livePage = useAppSelector((state) => selectPageById(state, pageUid));
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [blockStatus, setBlockStatus] = useState<SyncStatus>('saved');
  const [titleStatus, setTitleStatus] = useState<SyncStatus>('saved');
  const syncStatus = worstStatus(blockStatus, titleStatus);
  const comments = useCommentsPanel();
  const realtime = useRealtime();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let cancelled = false;
    Promise.all([fetchPage(pageUid), loadBlocks(pageUid)])
      .then(([page, { blocks, at }]) => {
        if (cancelled) return;
        // A link to a page of another workspace of yours shows that workspace around it.
        if (page.workspaceId) dispatch(switchWorkspace(page.workspaceId));
        dispatch(pageLoaded(page));
        setLoaded({ status: 'ready', page, blocks, at });
      })
      .catch((error: unknown) => !cancelled && setLoaded({ status: 'failed', kind: errorKind(error) }));
    return () => {
      cancelled = true;
    };
  }, [dispatch, pageUid, reloads]);

  // The page went into or out of the trash while open (restored from the banner, or by someone
  // else): load it again, so the editor is read-only exactly while it is in the trash and holds
  // the content as it is now.
  const trashChanged = loaded.status === 'ready' && livePage !== undefined && livePage.inTrash !== loaded.page.inTrash;
  useEffect(() => {
    if (trashChanged) setReloads((n) => n + 1);
  }, [trashChanged]);

  const onTitleEdited = useCallback(
    (title: string) => {
      dispatch(pageTitleEdited({ id: pageUid, title }));
      setTitleStatus('pending');
    },
    [dispatch, pageUid],
  );
  const saveTitle = useCallback(
    async (title: string) => {
      setTitleStatus('pending');
      try {
        await dispatch(renamePage({ id: pageUid, title })).unwrap();
        setTitleStatus('saved');
      } catch {
        setTitleStatus('error');
      }
    },
    [dispatch, pageUid],
  );

  useEffect(() => {
    const title = livePage?.title || t('untitled');
    document.title = title;
  }, [livePage?.title, t]);

  if (loaded.status === 'loading') return <Spinner />;
  // No access or no such page: it may be a published page (by id or alias), shown read-only.
  if (loaded.status === 'failed' && (loaded.kind === 'noAccess' || loaded.kind === 'notFound')) return <PublicPageScreen pageId={pageUid} notPublicKind={loaded.kind} />;
  if (loaded.status === 'failed') return <ErrorScreen kind={loaded.kind} email={user?.email} />;
  const current = livePage ?? loaded.page;
  const editable = canEdit(current.accessLevel) && !current.inTrash;
  return (
    <div className="page">
      <header className="page-topbar">
        <Breadcrumbs page={current} />
        <div className="page-topbar-actions">
          {!editable && <span className="page-readonly">{t('page.readOnly')}</span>}
          <span className="page-sync" data-status={syncStatus} aria-live="polite">
            {t(`sync.${syncStatus}`)}
          </span>
          <PresenceAvatars pageId={loaded.page.id} />
          <ShareButton page={current} />
          <CommentsButton open={comments.open} toggle={comments.toggle} />
          <FavoriteButton page={current} />
          <PageMenu page={current} />
        </div>
      </header>
      {current.inTrash && <TrashedPageBanner page={current} />}
      <PageHeader page={current} editable={editable} />
      <DocumentEditor
        // A new editor for each load (a reload after too much changed: error 110), not for the request.
        key={loaded.at}
        live={
          realtime && user
            ? { connection: realtime, userId: user.id, since: loaded.at, onReloadNeeded: () => setReloads((n) => n + 1), onPageEdited: (changed) => dispatch(pageChangedElsewhere(changed)) }
            : undefined
        }
        page={loaded.page}
        blocks={loaded.blocks}
        canEdit={canEdit(loaded.page.accessLevel) && !loaded.page.inTrash}
        onTitleEdited={onTitleEdited}
        saveTitle={saveTitle}
        onSyncStatus={setBlockStatus}
        onChildPageCreated={(child) => dispatch(pageLoaded(child))}
      />
      {comments.open && <CommentsPanel page={current} onClose={comments.close} commentId={comments.commentId} />}
    </div>
  );
}

export default function PageScreen() {
  const { pageUid = '' } = useParams();
  return <PageEditorScreen key={pageUid} pageUid={pageUid} />;
}
