import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentAttach, CommentToken } from '../../../schema/comment';
import { COMMENT_LIMITS } from '../../../schema/comment';
import { uploadErrorKind, uploadFile, type UploadError } from '../../editor/upload';
import { Button } from '../../ui/Button';
import { draftToTokens, filterMembers, hasSubstance, mentionLabel, mentionQueryAt, splitFileName, type DraftMention } from './content';
import { useMentionable } from './members';
import { PaperclipIcon, SendIcon } from '../../ui/icons';

interface Upload {
  key: number;
  fileName: string;
  progress: number;
  status: 'uploading' | 'done' | 'failed';
  attach?: CommentAttach;
  error?: UploadError;
}

/** What a failed attach says (the rest: it failed). */
const UPLOAD_MESSAGES: Partial<Record<UploadError, string>> = { tooLarge: 'comments.uploadTooLarge', quotaExceeded: 'comments.uploadQuotaExceeded' };

export interface ComposerProps {
  pageId: string;
  workspaceId: string | null;
  selfId?: string;
  /** Files go to the page, which needs edit access (docs/api/files.md). */
  canUpload: boolean;
  placeholder: string;
  submitLabel: string;
  initial?: { text: string; mentions: DraftMention[]; attaches: CommentAttach[] };
  /** Resolves true when stored (the composer then empties), false to keep the draft. */
  onSubmit(content: CommentToken[], attaches: CommentAttach[]): Promise<boolean>;
  onCancel?(): void;
  autoFocus?: boolean;
}

let uploadKey = 0;

/** The comment editor: Enter sends, Shift+Enter breaks the line, `@` mentions, a clip attaches files. */
export function Composer({ pageId, workspaceId, selfId, canUpload, placeholder, submitLabel, initial, onSubmit, onCancel, autoFocus }: ComposerProps) {
  const { t } = useTranslation();
  const listId = useId();
  const [text, setText] = useState(initial?.text ?? '');
  const [mentions, setMentions] = useState<DraftMention[]>(initial?.mentions ?? []);
  const [attaches, setAttaches] = useState<CommentAttach[]>(initial?.attaches ?? []);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [sending, setSending] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [mentionClosed, setMentionClosed] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** Where the caret goes once the text with a picked mention is rendered. */
  const pendingCaret = useRef<number | null>(null);

  const mentionQuery = mentionClosed ? null : mentionQueryAt(text, caret);
  const members = useMentionable(workspaceId, pageId, mentionQuery !== null || mentions.length > 0);
  const candidates = mentionQuery ? filterMembers(members, mentionQuery.query, selfId) : [];
  const popupOpen = mentionQuery !== null;

  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    if (pendingCaret.current !== null) {
      el.focus();
      el.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [text]);

  useEffect(() => {
    if (autoFocus) {
      const el = textarea.current;
      el?.focus();
      el?.setSelectionRange(el.value.length, el.value.length);
    }
  }, [autoFocus]);

  useEffect(() => setActive(0), [mentionQuery?.query]);

  const uploading = uploads.some((u) => u.status === 'uploading');
  const allAttaches = [...attaches, ...uploads.flatMap((u) => (u.status === 'done' && u.attach ? [u.attach] : []))];

  async function submit() {
    if (sending) return;
    if (uploading) return;
    const content = draftToTokens(text, mentions);
    if (!hasSubstance(content, allAttaches)) {
      setHint(t('comments.emptyRefused'));
      return;
    }
    setSending(true);
    setHint(null);
    const stored = await onSubmit(content, allAttaches);
    setSending(false);
    if (stored) {
      setText('');
      setMentions([]);
      setAttaches([]);
      setUploads([]);
    }
    textarea.current?.focus();
  }

  function pick(index: number) {
    const user = candidates[index];
    if (!user || !mentionQuery) return;
    const label = mentionLabel(user);
    const next = text.slice(0, mentionQuery.start) + label + ' ' + text.slice(caret);
    const at = mentionQuery.start + label.length + 1;
    setText(next);
    setMentions((list) => [...list.filter((m) => m.label !== label), { userId: user.id, label }]);
    setCaret(at);
    pendingCaret.current = at;
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return;
    if (popupOpen && candidates.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + candidates.length) % candidates.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(active);
        return;
      }
    }
    if (popupOpen && event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setMentionClosed(true);
      return;
    }
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  }

  function onFiles(files: FileList | null) {
    if (!files) return;
    const room = COMMENT_LIMITS.attaches - allAttaches.length - uploads.filter((u) => u.status === 'uploading').length;
    for (const file of [...files].slice(0, Math.max(0, room))) {
      const key = (uploadKey += 1);
      setUploads((list) => [...list, { key, fileName: file.name, progress: 0, status: 'uploading' }]);
      const update = (patch: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
      uploadFile(pageId, file, { onProgress: (share) => update({ progress: share }) })
        .then((remote) => update({ status: 'done', progress: 1, attach: { id: remote.fileId, ...splitFileName(remote.title) } }))
        .catch((error: unknown) => update({ status: 'failed', error: uploadErrorKind(error) }));
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  const canSend = !sending && !uploading && (text.trim() !== '' || allAttaches.length > 0);

  return (
    <div className="comment-composer" data-sending={sending || undefined}>
      <div className="comment-composer-box">
        <textarea
          ref={textarea}
          className="comment-composer-input"
          value={text}
          rows={1}
          placeholder={placeholder}
          aria-label={placeholder}
          // A textarea may take no other role (ARIA in HTML), so not combobox nor aria-expanded: a
          // multi-line textbox with a suggestion list says so with aria-autocomplete, and names the
          // highlighted @-mention with aria-activedescendant (docs/web-app.md, «Editor and menus»).
          aria-autocomplete="list"
          aria-controls={popupOpen ? listId : undefined}
          aria-activedescendant={popupOpen && candidates.length > 0 ? `${listId}-${Math.min(active, candidates.length - 1)}` : undefined}
          maxLength={COMMENT_LIMITS.textLength}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
            setMentionClosed(false);
            setHint(null);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        {(attaches.length > 0 || uploads.length > 0) && (
          <ul className="comment-attaches comment-attaches-draft">
            {attaches.map((attach) => (
              <li key={attach.id} className="comment-attach">
                <span className="comment-attach-name">{attach.extension ? `${attach.name}.${attach.extension}` : attach.name}</span>
                <button
                  type="button"
                  className="comment-attach-remove"
                  aria-label={t('comments.removeAttach', { name: attach.name })}
                  onClick={() => setAttaches((list) => list.filter((a) => a.id !== attach.id))}
                >
                  ×
                </button>
              </li>
            ))}
            {uploads.map((upload) => (
              <li key={upload.key} className="comment-attach" data-status={upload.status}>
                <span className="comment-attach-name">{upload.fileName}</span>
                {upload.status === 'uploading' && (
                  <span
                    className="comment-upload-progress"
                    role="progressbar"
                    aria-label={t('comments.uploading', { name: upload.fileName, percent: Math.round(upload.progress * 100) })}
                    aria-valuenow={Math.round(upload.progress * 100)}
                    aria-valuemin={0}
                    aria-valuemax={100}
                  >
                    <span style={{ width: `${Math.round(upload.progress * 100)}%` }} />
                  </span>
                )}
                {upload.status === 'failed' && (
                  <span className="comment-attach-error">
                    {t(UPLOAD_MESSAGES[upload.error ?? 'failed'] ?? 'comments.uploadFailed', { name: upload.fileName })}
                  </span>
                )}
                {upload.status !== 'uploading' && (
                  <button
                    type="button"
                    className="comment-attach-remove"
                    aria-label={t('comments.removeAttach', { name: upload.fileName })}
                    onClick={() => setUploads((list) => list.filter((u) => u.key !== upload.key))}
                  >
                    ×
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="comment-composer-actions">
          {canUpload && (
            <>
              <button
                type="button"
                className="icon-button comment-icon-button"
                aria-label={t('comments.attach')}
                title={t('comments.attach')}
                onClick={() => fileInput.current?.click()}
              >
                <PaperclipIcon size={16} />
              </button>
              <input ref={fileInput} type="file" multiple hidden onChange={(event) => onFiles(event.target.files)} data-testid="comment-file-input" />
            </>
          )}
          <span className="comment-composer-spacer" />
          {onCancel && (
            <Button size="xs" kind="flat" onClick={onCancel}>
              {t('comments.cancel')}
            </Button>
          )}
          <Button
            size="xs"
            kind="solid"
            className="comment-send"
            disabled={!canSend}
            onClick={() => void submit()}
            aria-label={submitLabel}
            title={t('comments.hint')}
          >
            {onCancel ? submitLabel : <SendIcon size={15} />}
          </Button>
        </div>
      </div>
      {hint && (
        <p className="comment-composer-hint" role="status">
          {hint}
        </p>
      )}
      {popupOpen && (
        <ul className="mention-popup" id={listId} role="listbox" aria-label={t('comments.mentionList')}>
          {candidates.length === 0 ? (
            <li className="mention-empty" role="option" aria-disabled="true" aria-selected={false}>
              {t('comments.noMembers')}
            </li>
          ) : (
            candidates.map((user, index) => (
              <li
                key={user.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className="mention-option"
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(index);
                }}
                onMouseEnter={() => setActive(index)}
              >
                <span className="comment-avatar comment-avatar-s">{(user.name || user.email || '?').slice(0, 1).toUpperCase()}</span>
                <span className="mention-name">{user.name || user.email}</span>
                {user.name && <span className="mention-email">{user.email}</span>}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
