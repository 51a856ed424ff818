import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentAttach, CommentToken, WireComment, WireReaction } from '../../../schema/comment';
import type { AccessLevel } from '../../../schema/constants';
import { commentAllows } from '../../../schema/policies/comment';
import { useAppDispatch } from '../../app/store';
import { Button } from '../../ui/Button';
import { Composer } from './Composer';
import { deleteComment, editComment, toggleReaction, type CommentsErrorKind } from './commentsSlice';
import { relativeTime, tokensToDraft } from './content';
import { EditIcon, FileIcon, ReplyIcon, SmileIcon, TrashIcon } from '../../ui/icons';
import { displayName, useUsers } from './userLookup';

/** The fixed set of the reaction picker. */
export const REACTION_EMOJI = ['👍', '👎', '❤️', '😂', '🎉', '😮', '😢', '🔥', '👀', '🙏', '✅', '🚀'];

export interface CommentContext {
  pageId: string;
  workspaceId: string | null;
  selfId?: string;
  /** May write, react (any level but none, page not in the trash). */
  canWrite: boolean;
  /** The caller's level on the page: who may edit and delete which comment (`commentAllows`). */
  level: AccessLevel;
  canUpload: boolean;
  now: number;
  onError(kind: CommentsErrorKind): void;
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="comment-avatar" aria-hidden>
      {(name.trim() || '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

/** A comment's tokens as text with their modifiers; mentions and links stand out. */
export function CommentContent({ tokens }: { tokens: readonly CommentToken[] }) {
  return (
    <div className="comment-content">
      {tokens.map((token, index) => {
        let node: React.ReactNode = token.text;
        if (token.code) node = <code>{node}</code>;
        if (token.bold) node = <strong>{node}</strong>;
        if (token.italic) node = <em>{node}</em>;
        if (token.underline) node = <u>{node}</u>;
        if (token.struckOut) node = <s>{node}</s>;
        if (token.link)
          node = (
            <a href={token.link.href} target="_blank" rel="noopener noreferrer">
              {node}
            </a>
          );
        if (token.mention)
          node = (
            <span className="comment-mention" data-user-id={token.mention.userId}>
              {node}
            </span>
          );
        return <span key={index}>{node}</span>;
      })}
    </div>
  );
}

function Attaches({ attaches }: { attaches: readonly CommentAttach[] }) {
  const { t } = useTranslation();
  if (attaches.length === 0) return null;
  return (
    <ul className="comment-attaches">
      {attaches.map((attach) => {
        const full = attach.extension ? `${attach.name}.${attach.extension}` : attach.name;
        return (
          <li key={attach.id}>
            <a
              className="comment-attach comment-attach-link"
              href={`/api/file/${attach.id}`}
              download={full}
              aria-label={t('comments.download', { name: full })}
              title={full}
            >
              <FileIcon size={14} />
              <span className="comment-attach-name">{full}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function ReactionChip({ reaction, disabled, onToggle }: { reaction: WireReaction; disabled: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  const people = useUsers(reaction.lastReactors);
  const names = people.map((user, i) => displayName(user, reaction.lastReactors[i] ? '…' : '')).join(', ');
  const more = reaction.count - reaction.lastReactors.length;
  const tip = more > 0 ? t('comments.reactedByMore', { names, count: more }) : t('comments.reactedBy', { names });
  return (
    <button
      type="button"
      className="reaction-chip"
      aria-pressed={reaction.meReacted}
      data-me={reaction.meReacted || undefined}
      disabled={disabled}
      onClick={onToggle}
      title={tip}
      aria-label={`${reaction.code} ${reaction.count}: ${tip}`}
    >
      <span className="reaction-code">{reaction.code}</span>
      <span className="reaction-count">{reaction.count}</span>
    </button>
  );
}

function ReactionPicker({ onPick, onClose }: { onPick(code: string): void; onClose(): void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onClose();
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    ref.current?.querySelector('button')?.focus();
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  return (
    <div className="reaction-picker" ref={ref} role="menu" aria-label={t('comments.addReaction')}>
      {REACTION_EMOJI.map((code) => (
        <button key={code} type="button" role="menuitem" className="reaction-picker-item" onClick={() => onPick(code)} aria-label={code}>
          {code}
        </button>
      ))}
    </div>
  );
}

export interface CommentItemProps {
  comment: WireComment;
  ctx: CommentContext;
  highlighted?: boolean;
  /** Shown in the list: opens the thread. */
  onOpenThread?(): void;
}

/** One comment: who and when, the text, files, reactions, replies; the author's edit and delete. */
export function CommentItem({ comment, ctx, highlighted, onOpenThread }: CommentItemProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [author] = useUsers([comment.author.id]);
  const [mode, setMode] = useState<'view' | 'edit' | 'confirmDelete'>('view');
  const [picker, setPicker] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = displayName(author ?? comment.author, t('comments.unknownUser'));
  const onComment = { authorId: comment.author.id };
  const canEdit = ctx.canWrite && commentAllows(ctx.level, 'edit', ctx.selfId ?? '', onComment) && !comment.isDeleted;
  const canDelete = ctx.canWrite && commentAllows(ctx.level, 'delete', ctx.selfId ?? '', onComment) && !comment.isDeleted;
  const edited = comment.updatedAt !== comment.createdAt && !comment.isDeleted;

  async function react(code: string, on: boolean) {
    setPicker(false);
    const result = await dispatch(toggleReaction({ commentId: comment.id, code, on }));
    if (toggleReaction.rejected.match(result)) ctx.onError(result.payload ?? 'generic');
  }

  async function remove() {
    setBusy(true);
    const result = await dispatch(deleteComment({ pageId: ctx.pageId, commentId: comment.id }));
    setBusy(false);
    setMode('view');
    if (deleteComment.rejected.match(result)) ctx.onError(result.payload ?? 'generic');
  }

  async function save(content: CommentToken[], attaches: CommentAttach[]): Promise<boolean> {
    const result = await dispatch(editComment({ pageId: ctx.pageId, commentId: comment.id, content, attaches }));
    if (editComment.rejected.match(result)) {
      ctx.onError(result.payload ?? 'generic');
      return false;
    }
    setMode('view');
    return true;
  }

  return (
    <article
      className="comment"
      id={`comment-${comment.id}`}
      data-comment-id={comment.id}
      data-highlighted={highlighted || undefined}
      data-deleted={comment.isDeleted || undefined}
    >
      <Avatar name={comment.isDeleted ? '' : name} />
      <div className="comment-main">
        <div className="comment-meta">
          <span className="comment-author">{comment.isDeleted ? '' : name}</span>
          <time className="comment-time" dateTime={comment.createdAt} title={new Date(comment.createdAt).toLocaleString('ru')}>
            {relativeTime(comment.createdAt, ctx.now, t('comments.justNow'))}
          </time>
          {edited && <span className="comment-edited">· {t('comments.edited')}</span>}
          {mode === 'view' && (canEdit || canDelete || (ctx.canWrite && !comment.isDeleted)) && (
            <span className="comment-tools">
              {ctx.canWrite && !comment.isDeleted && (
                <button
                  type="button"
                  className="icon-button comment-icon-button"
                  aria-label={t('comments.addReaction')}
                  title={t('comments.addReaction')}
                  onClick={() => setPicker((v) => !v)}
                >
                  <SmileIcon size={15} />
                </button>
              )}
              {canEdit && (
                <button
                  type="button"
                  className="icon-button comment-icon-button"
                  aria-label={t('comments.edit')}
                  title={t('comments.edit')}
                  onClick={() => setMode('edit')}
                >
                  <EditIcon size={15} />
                </button>
              )}
              {canDelete && (
                <button
                  type="button"
                  className="icon-button comment-icon-button"
                  aria-label={t('comments.delete')}
                  title={t('comments.delete')}
                  onClick={() => setMode('confirmDelete')}
                >
                  <TrashIcon size={15} />
                </button>
              )}
            </span>
          )}
        </div>
        {picker && (
          <ReactionPicker
            onPick={(code) => void react(code, !comment.reactions.some((r) => r.code === code && r.meReacted))}
            onClose={() => setPicker(false)}
          />
        )}
        {mode === 'edit' ? (
          <Composer
            pageId={ctx.pageId}
            workspaceId={ctx.workspaceId}
            selfId={ctx.selfId}
            canUpload={ctx.canUpload}
            placeholder={t('comments.placeholder')}
            submitLabel={t('comments.save')}
            initial={{ ...tokensToDraft(comment.content), attaches: comment.attaches }}
            onSubmit={save}
            onCancel={() => setMode('view')}
            autoFocus
          />
        ) : comment.isDeleted ? (
          <div className="comment-content comment-deleted">{t('comments.deleted')}</div>
        ) : (
          <CommentContent tokens={comment.content} />
        )}
        {mode !== 'edit' && <Attaches attaches={comment.attaches} />}
        {mode === 'confirmDelete' && (
          <div className="comment-confirm" role="alertdialog" aria-label={t('comments.deleteConfirm')}>
            <span>{t('comments.deleteConfirm')}</span>
            <Button size="xs" kind="flat" onClick={() => setMode('view')} disabled={busy}>
              {t('comments.cancel')}
            </Button>
            <Button size="xs" kind="solid" tone="attention" className="comment-confirm-delete" onClick={() => void remove()} disabled={busy} autoFocus>
              {t('comments.delete')}
            </Button>
          </div>
        )}
        {(comment.reactions.length > 0 || onOpenThread) && (
          <div className="comment-footer">
            {comment.reactions.map((reaction) => (
              <ReactionChip key={reaction.code} reaction={reaction} disabled={!ctx.canWrite} onToggle={() => void react(reaction.code, !reaction.meReacted)} />
            ))}
            {onOpenThread && (comment.countReplies > 0 || ctx.canWrite) && (
              <button type="button" className="comment-replies" onClick={onOpenThread}>
                {comment.countReplies > 0 ? (
                  t('comments.replies', { count: comment.countReplies })
                ) : (
                  <>
                    <ReplyIcon size={14} /> {t('comments.reply')}
                  </>
                )}
              </button>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
