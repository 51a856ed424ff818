import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { BaseRange } from 'slate';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { pagePath } from '../../../plugins/blocks/document/block';
import type { WireBlock } from '../../../schema/block';
import { holdsDatabase, type WireElement } from '../../../schema/element';
import { canEdit, canShare } from '../../../schema/policies/page';
import type { WireUser } from '../../../schema/user';
import { readPageAction, useIntentParams, type PageAction } from '../../app/intents';
import { showToast } from '../../ui/Toast';
import { commentsPanelOpened } from '../comments/commentsSlice';
import { worstStatus, type SyncStatus } from '../../../plugins/withBlockSync';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { DocumentEditor } from '../../editor/DocumentEditor';
import { ErrorScreen, errorKindOf, type ErrorKind } from '../../ui/ErrorScreen';
import { switchWorkspace } from '../workspaces/switchWorkspace';
import { Spinner } from '../../ui/Spinner';
import { CommentsButton, CommentsPanel, useCommentsPanel } from '../comments/CommentsPanel';
import { startPageLoad, takePageLoad } from '../pages/pageLoad';
import { pageChangedElsewhere, pageLoaded, pageTitleEdited, renamePage, selectPageById } from '../pages/pagesSlice';
import { Breadcrumbs } from './Breadcrumbs';
import { PageHeader } from './PageHeader';
import { FavoriteButton, PageMenu } from './PageMenu';
import '../pages/page.css';
import { PublicPageScreen } from '../public/PublicPageScreen';
import { ShareButton } from '../sharing/ShareDialog';
import { PresenceAvatars } from '../presence/PresenceAvatars';
import { useRealtime } from '../../app/RealtimeProvider';
import { TrashedPageBanner } from '../trash/TrashedPageBanner';
import { SCREEN_PAGE_TYPES, TypedPage } from '../pageTypes/TypedPage';
import { stopEarlyInput, useServerTopTakeover } from '../../app/serverTop';
import { useDocumentTitle } from '../../app/documentTitle';

/** A database row's fields above its blocks (src/features/database; loaded only for row pages). */
const RowPageFields = lazy(() => import('../database/rows/RowPageFields'));
/** Above a database's row template opened as a page: what it is, and «Готово» (loaded only for template pages). */
const RowTemplateBanner = lazy(() => import('../database/rows/RowTemplateBanner'));

/**
 * `preview`: the page and the top of its blocks, drawn read-only while the rest of a big page
 * loads; `ready`: all of it, editable.
 */
type Loaded =
  | { status: 'loading' }
  | { status: 'preview' | 'ready'; page: WireElement; blocks: WireBlock[]; at: string | undefined }
  | { status: 'failed'; kind: ErrorKind };

/** Why a link's action cannot be done here (a translation key), or null. */
function intentRefusal(action: PageAction, page: WireElement, user: WireUser | null): string | null {
  if (page.inTrash) return 'intents.inTrash';
  if (action === 'share') return canShare(page.accessLevel) ? null : 'intents.cannotShare';
  if (action === 'comment') return user && !user.anonymous ? null : 'intents.cannotComment';
  return canEdit(page.accessLevel) ? null : 'intents.cannotEdit';
}

/** A page that did not load: its error screen (a 403 here is «no access», spec §8). */
const pageLoadErrorKind = (error: unknown): ErrorKind => errorKindOf(error, { pageLoad: true });

/** A page by uid: loads it and its blocks, then edits them. */
function PageEditorScreen({ pageUid }: { pageUid: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((state) => state.auth.user);
  const livePage = useAppSelector((state) => selectPageById(state, pageUid));
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [blockStatus, setBlockStatus] = useState<SyncStatus>('saved');
  const [titleStatus, setTitleStatus] = useState<SyncStatus>('saved');
  const syncStatus = worstStatus(blockStatus, titleStatus);
  const comments = useCommentsPanel();
  // A link's `?action=` (docs/intents.md): read once, done once the page is known.
  const { params, done } = useIntentParams();
  const [intent] = useState(() => readPageAction(params));
  // `?block=`: a search result's block, shown once the page is there (docs/search.md).
  const revealUid = params.get('block');
  const realtime = useRealtime();
  const [reloads, setReloads] = useState(0);
  // Where the person clicked in the read-only top of a big page, for the editor that takes over.
  const handover = useRef<BaseRange | null>(null);

  useEffect(() => {
    let cancelled = false;
    // Asked for at start when the address was this page's (src/main.tsx), else now; a reload after
    // error 110 reads it all again.
    const load = reloads === 0 ? takePageLoad(pageUid) : startPageLoad(pageUid);
    let shown = false;
    const show = (page: WireElement) => {
      if (shown) return;
      shown = true;
      // A link to a page of another workspace of yours shows that workspace around it.
      if (page.workspaceId) dispatch(switchWorkspace(page.workspaceId));
      dispatch(pageLoaded(page));
    };
    const fail = (error: unknown) => !cancelled && setLoaded({ status: 'failed', kind: pageLoadErrorKind(error) });
    const loadAll = (page: WireElement) =>
      load.blocks().then(({ blocks, at }) => {
        if (cancelled) return;
        show(page);
        setLoaded({ status: 'ready', page, blocks, at });
      }, fail);
    Promise.all([load.page, load.head]).then(([page, head]) => {
      if (cancelled) return;
      // A synced block's content (a notification of a comment in it, an old link): its page is the one it was made on.
      if (page.synced && page.parentId) {
        navigate(`${pagePath(page.parentId)}${window.location.search}`, { replace: true });
        return;
      }
      if (!head.hasMore) return void loadAll(page);
      // A big page: its top is drawn first, read-only; the rest is asked for once that is on the
      // screen (after the next frame), so it does not hold the first screen up.
      show(page);
      setLoaded((current) => (current.status === 'loading' ? { status: 'preview', page, blocks: head.blocks, at: head.at } : current));
      requestAnimationFrame(() => setTimeout(() => void loadAll(page), 0));
    }, fail);
    return () => {
      cancelled = true;
    };
  }, [dispatch, navigate, pageUid, reloads]);

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

  const known = loaded.status === 'preview' || loaded.status === 'ready' ? (livePage ?? loaded.page) : null;
  const intentHandled = useRef(false);
  useEffect(() => {
    if (!intent || !known || intentHandled.current) return;
    intentHandled.current = true;
    const refusal = intentRefusal(intent.action, known, user);
    if (refusal) showToast(t(refusal), 'error');
    else if (intent.action === 'comment') dispatch(commentsPanelOpened(true));
    done('action', 'type');
  }, [intent, known, user, dispatch, done, t]);

  useDocumentTitle(livePage?.title || t('untitled'));

  // The top the server drew goes once this screen draws the page (or says why it cannot).
  useServerTopTakeover(loaded.status !== 'loading');
  // Keys typed before the editor could take them are kept only for a page one may edit, and only while it is open.
  const editable = known !== null && canEdit(known.accessLevel) && !known.inTrash;
  useEffect(() => {
    if (loaded.status === 'failed' || (known !== null && !editable)) stopEarlyInput();
  }, [loaded.status, known, editable]);
  useEffect(() => stopEarlyInput, []);

  if (loaded.status === 'loading') return <Spinner />;
  // No access or no such page: it may be a published page (by id or alias), shown read-only.
  if (loaded.status === 'failed' && (loaded.kind === 'noAccess' || loaded.kind === 'notFound'))
    return <PublicPageScreen pageId={pageUid} notPublicKind={loaded.kind} openAliasById />;
  if (loaded.status === 'failed') return <ErrorScreen kind={loaded.kind} email={user?.email} />;
  const current = livePage ?? loaded.page;
  const preview = loaded.status === 'preview';
  return (
    // A Database or data (Widget) page shows its database full width, a linked view (WidgetView) the view (docs/web-app.md, «Table view»).
    <div className={holdsDatabase(current.type) || current.type === 'WidgetView' ? 'page is-database' : 'page'} aria-busy={preview}>
      <header className="page-topbar">
        <Breadcrumbs page={current} />
        <div className="page-topbar-actions">
          {!editable && <span className="page-readonly">{t('page.readOnly')}</span>}
          {/* «Сохранено» is news only to those who can edit; anyone is told of no connection or a refused edit. */}
          {/* The read-only top of a big page says the rest is coming (typing waits for it). */}
          {preview ? (
            <span className="page-sync" data-status="loading" aria-live="polite">
              {t('sync.loading')}
            </span>
          ) : (
            (editable || syncStatus !== 'saved') && (
              <span className="page-sync" data-status={syncStatus} role="status" aria-live={syncStatus === 'error' ? 'assertive' : 'polite'}>
                {t(`sync.${syncStatus}`)}
              </span>
            )
          )}
          <PresenceAvatars pageId={loaded.page.id} />
          <ShareButton page={current} openAtStart={intent?.action === 'share'} />
          <CommentsButton open={comments.open} toggle={comments.toggle} />
          <FavoriteButton page={current} />
          <PageMenu page={current} />
        </div>
      </header>
      {current.inTrash && <TrashedPageBanner page={current} />}
      {current.rowTemplate && current.databaseId && (
        <Suspense fallback={null}>
          <RowTemplateBanner databaseId={current.databaseId} holderId={current.parentId} />
        </Suspense>
      )}
      <PageHeader page={current} editable={editable} openCover={intent?.action === 'cover'} />
      {SCREEN_PAGE_TYPES.has(loaded.page.type) ? (
        <TypedPage
          page={current}
          blocks={loaded.blocks}
          editable={editable && !preview}
          onTitleEdited={onTitleEdited}
          saveTitle={(title) => void saveTitle(title)}
        />
      ) : (
        <DocumentEditor
          // A new editor for each load (a reload after too much changed: error 110), not for the request.
          key={`${loaded.status}:${loaded.at}`}
          live={
            realtime && user && !preview
              ? {
                  connection: realtime,
                  userId: user.id,
                  since: loaded.at,
                  onReloadNeeded: () => setReloads((n) => n + 1),
                  onPageEdited: (changed) => dispatch(pageChangedElsewhere(changed)),
                }
              : undefined
          }
          page={loaded.page}
          blocks={loaded.blocks}
          canEdit={canEdit(loaded.page.accessLevel) && !loaded.page.inTrash && !preview}
          startAi={intent?.action === 'ai' && editable ? intent.aiType : null}
          revealUid={preview ? null : revealUid}
          onRevealed={() => done('block')}
          handover={handover}
          onTitleEdited={onTitleEdited}
          saveTitle={saveTitle}
          onSyncStatus={setBlockStatus}
          onChildPageCreated={(child) => dispatch(pageLoaded(child))}
          onOpenPage={(id) => navigate(pagePath(id))}
          afterTitle={
            current.databaseId ? (
              <Suspense fallback={null}>
                <RowPageFields
                  rowId={current.id}
                  databaseId={current.databaseId}
                  holderId={current.parentId}
                  workspaceId={current.workspaceId}
                  editable={editable}
                />
              </Suspense>
            ) : null
          }
        />
      )}
      {comments.open && <CommentsPanel page={current} onClose={comments.close} commentId={comments.commentId} compose={intent?.action === 'comment'} />}
    </div>
  );
}

export default function PageScreen() {
  const { pageUid = '' } = useParams();
  return <PageEditorScreen key={pageUid} pageUid={pageUid} />;
}
