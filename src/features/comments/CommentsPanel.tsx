import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIntentParams } from '../../app/intents';
import type { CommentAttach, CommentToken } from '../../../schema/comment';
import type { WireElement } from '../../../schema/element';
import { commentAllows } from '../../../schema/policies/comment';
import { canEdit } from '../../../schema/policies/page';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { CommentItem, type CommentContext } from './CommentItem';
import { Composer } from './Composer';
import { commentsPanelOpened, commentsReset, createComment, loadComments, loadReplies, type CommentsErrorKind } from './commentsSlice';
import { BackIcon, CloseIcon, CommentIcon } from '../../ui/icons';
import { Resizer } from '../../ui/Resizer';
import { useIsPhone } from '../../ui/useIsPhone';
import { commentsPanelWidthSet, PANEL_WIDTH_DEFAULT, PANEL_WIDTH_MAX, PANEL_WIDTH_MIN } from '../settings/uiSettings';
import { setLiveCommentsWidth, useCommentsWidth } from './commentsWidth';
import './comments.css';

/** How long an addressed comment stays highlighted. */
const HIGHLIGHT_MS = 2_500;

/** Whether the panel is open; `?commentId=` opens it. Closing drops the parameter. */
export function useCommentsPanel() {
  const dispatch = useAppDispatch();
  // `?commentId=` is a navigation intent too (docs/intents.md): taken out of the address on close.
  const { params, done } = useIntentParams();
  const commentId = params.get('commentId');
  const panelOpen = useAppSelector((state) => state.comments.panelOpen);
  const open = panelOpen || commentId !== null;
  useEffect(() => {
    if (commentId) dispatch(commentsPanelOpened(true));
  }, [commentId, dispatch]);
  const close = useCallback(() => {
    dispatch(commentsPanelOpened(false));
    if (params.has('commentId')) done('commentId');
  }, [dispatch, params, done]);
  const toggle = useCallback(() => (open ? close() : dispatch(commentsPanelOpened(true))), [open, close, dispatch]);
  return { open, toggle, close, commentId };
}

/** The «Комментарии» button of the page top bar. */
export function CommentsButton({ open, toggle }: { open: boolean; toggle(): void }) {
  const { t } = useTranslation();
  return (
    <Button size="xs" kind="flat" className="comments-toggle" aria-pressed={open} onClick={toggle}>
      <CommentIcon size={16} />
      <span className="comments-toggle-label">{t('comments.toggle')}</span>
    </Button>
  );
}

function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export interface CommentsPanelProps {
  page: Pick<WireElement, 'id' | 'workspaceId' | 'accessLevel' | 'inTrash'>;
  onClose(): void;
  /** A comment to scroll to and highlight (`?commentId=`). */
  commentId?: string | null;
  /** Puts the caret in the new comment's field (a link's `?action=comment`). */
  compose?: boolean;
}

/** The page's comment threads on the right (a full-screen sheet on a phone). */
export function CommentsPanel({ page, onClose, commentId, compose = false }: CommentsPanelProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const self = useAppSelector((state) => state.auth.user);
  const state = useAppSelector((s) => s.comments);
  const [threadStack, setThreadStack] = useState<string[]>([]);
  const [error, setError] = useState<CommentsErrorKind | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const now = useNow();
  // Its width is the user's setting; a phone's sheet takes the screen.
  const isPhone = useIsPhone();
  const width = useCommentsWidth();

  const level = page.accessLevel;
  const ctx: CommentContext = {
    pageId: page.id,
    workspaceId: page.workspaceId,
    selfId: self?.id,
    canWrite: commentAllows(level, 'comment', self?.id ?? '') && !page.inTrash && !!self && !self.anonymous,
    level,
    // Files are added to a page by those who may edit it (the upload's rule on the server).
    canUpload: canEdit(level),
    now,
    onError: setError,
  };

  useEffect(() => {
    dispatch(commentsReset(page.id));
    void dispatch(loadComments(page.id));
  }, [dispatch, page.id]);

  const thread = threadStack[threadStack.length - 1] ?? null;
  const threadComment = thread ? state.byId[thread] : undefined;

  // A thread whose comment went away (deleted without replies) closes.
  useEffect(() => {
    if (thread && state.status === 'ready' && !threadComment) setThreadStack((stack) => stack.slice(0, -1));
  }, [thread, threadComment, state.status]);

  useEffect(() => {
    if (thread && !state.repliesStatus[thread]) void dispatch(loadReplies(thread));
  }, [dispatch, thread, state.repliesStatus]);

  // `?commentId=`: find the comment (top level, else among replies), open its thread, scroll, highlight.
  const store = useStore<RootState>();
  const located = useRef<string | null>(null);
  useEffect(() => {
    if (!commentId || state.status !== 'ready' || located.current === commentId) return;
    located.current = commentId;
    let alive = true;
    /** The ids from a top-level comment down to the one asked for, loading replies on the way. */
    async function findComment(id: string): Promise<string[] | null> {
      let level: string[][] = store.getState().comments.topIds.map((top) => [top]);
      for (let depth = 0; depth < 6 && level.length > 0; depth += 1) {
        const hit = level.find((chain) => chain[chain.length - 1] === id);
        if (hit) return hit;
        const next: string[][] = [];
        for (const chain of level) {
          const last = chain[chain.length - 1];
          if ((store.getState().comments.byId[last]?.countReplies ?? 0) === 0) continue;
          const result = await dispatch(loadReplies(last));
          if (!loadReplies.fulfilled.match(result)) continue;
          for (const reply of result.payload) next.push([...chain, reply.id]);
        }
        level = next;
      }
      return null;
    }
    void findComment(commentId).then((chain) => {
      if (!alive) return;
      setMissing(!chain);
      if (!chain) return;
      setThreadStack(chain.slice(0, -1));
      setHighlight(commentId);
    });
    return () => {
      alive = false;
      located.current = null;
    };
  }, [commentId, state.status, dispatch, store]);

  useEffect(() => {
    if (!highlight) return;
    const target = document.getElementById(`comment-${highlight}`);
    target?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const timer = setTimeout(() => setHighlight(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlight, thread, state.replies]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (!(event.target instanceof Node) || !document.querySelector('.comments-panel')?.contains(event.target)) return;
      if (threadStack.length > 0) setThreadStack((stack) => stack.slice(0, -1));
      else onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [threadStack.length, onClose]);

  async function write(content: CommentToken[], attaches: CommentAttach[]): Promise<boolean> {
    const result = await dispatch(createComment({ pageId: page.id, content, attaches, repliedComment: thread }));
    if (createComment.rejected.match(result)) {
      setError(result.payload ?? 'generic');
      return false;
    }
    setError(null);
    requestAnimationFrame(() => {
      const el = body.current;
      if (el) el.scrollTop = el.scrollHeight;
    });
    return true;
  }

  const replies = thread ? (state.replies[thread] ?? []) : [];
  const repliesStatus = thread ? state.repliesStatus[thread] : undefined;

  return (
    <aside className="comments-panel" aria-label={t('comments.title')} style={isPhone ? undefined : { width }}>
      {!isPhone && (
        <Resizer
          width={width}
          min={PANEL_WIDTH_MIN}
          max={PANEL_WIDTH_MAX}
          defaultWidth={PANEL_WIDTH_DEFAULT}
          edge="left"
          label={t('comments.resize')}
          onLive={setLiveCommentsWidth}
          onDone={(next) => dispatch(commentsPanelWidthSet(next))}
        />
      )}
      <header className="comments-header">
        {thread && (
          <button
            type="button"
            className="icon-button comment-icon-button"
            aria-label={t('comments.back')}
            title={t('comments.back')}
            onClick={() => setThreadStack((stack) => stack.slice(0, -1))}
          >
            <BackIcon size={18} />
          </button>
        )}
        <h2 className="comments-title">{thread ? t('comments.thread') : t('comments.title')}</h2>
        <button type="button" className="icon-button comment-icon-button" aria-label={t('comments.close')} title={t('comments.close')} onClick={onClose}>
          <CloseIcon size={18} />
        </button>
      </header>
      {error && (
        <div className="comments-error" role="alert">
          <span>{t(`comments.errors.${error}`)}</span>
          <button type="button" className="icon-button comment-icon-button" aria-label={t('comments.dismiss')} onClick={() => setError(null)}>
            <CloseIcon size={14} />
          </button>
        </div>
      )}
      {missing && (
        <div className="comments-notice" role="status">
          {t('comments.notFoundComment')}
        </div>
      )}
      <div className="comments-body" ref={body}>
        {state.status === 'loading' || state.status === 'idle' ? (
          <div className="comments-center">
            <Spinner />
          </div>
        ) : state.status === 'failed' ? (
          <div className="comments-center comments-failed" role="alert">
            <p>{state.loadError && state.loadError !== 'generic' ? t(`comments.errors.${state.loadError}`) : t('comments.loadFailed')}</p>
            {state.loadError !== 'forbidden' && state.loadError !== 'unauthorized' && (
              <Button size="s" kind="outline" onClick={() => void dispatch(loadComments(page.id))}>
                {t('comments.retry')}
              </Button>
            )}
          </div>
        ) : thread && threadComment ? (
          <div className="comments-thread">
            <CommentItem comment={threadComment} ctx={ctx} highlighted={highlight === threadComment.id} />
            <div className="comments-divider">
              {threadComment.countReplies > 0 ? t('comments.replies', { count: threadComment.countReplies }) : t('comments.noReplies')}
            </div>
            {repliesStatus === 'loading' && replies.length === 0 ? (
              <div className="comments-center">
                <Spinner />
              </div>
            ) : (
              replies.map((id) =>
                state.byId[id] ? (
                  <CommentItem
                    key={id}
                    comment={state.byId[id]}
                    ctx={ctx}
                    highlighted={highlight === id}
                    onOpenThread={state.byId[id].countReplies > 0 ? () => setThreadStack((stack) => [...stack, id]) : undefined}
                  />
                ) : null,
              )
            )}
          </div>
        ) : state.topIds.length === 0 ? (
          <div className="comments-center comments-empty">
            <span className="comments-empty-icon">
              <CommentIcon size={28} />
            </span>
            <p className="comments-empty-title">{t('comments.empty')}</p>
            {ctx.canWrite && <p className="comments-empty-hint">{t('comments.emptyHint')}</p>}
          </div>
        ) : (
          <div className="comments-list">
            {state.topIds.map((id) =>
              state.byId[id] ? (
                <div className="comments-thread-card" key={id}>
                  <CommentItem comment={state.byId[id]} ctx={ctx} highlighted={highlight === id} onOpenThread={() => setThreadStack([id])} />
                </div>
              ) : null,
            )}
          </div>
        )}
      </div>
      {page.inTrash ? (
        <div className="comments-readonly">{t('comments.readOnlyTrash')}</div>
      ) : (
        ctx.canWrite &&
        state.status === 'ready' && (
          <div className="comments-compose">
            <Composer
              key={thread ?? 'page'}
              pageId={page.id}
              workspaceId={page.workspaceId}
              selfId={self?.id}
              canUpload={ctx.canUpload}
              placeholder={thread ? t('comments.replyPlaceholder') : t('comments.placeholder')}
              submitLabel={t('comments.send')}
              onSubmit={write}
              autoFocus={thread !== null || compose}
            />
          </div>
        )
      )}
    </aside>
  );
}
