import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WORKSPACE_TOKENS_PER_MEMBER, type WireWorkspaceToken } from '../../../schema/accessToken';
import type { WorkspaceRole } from '../../../schema/constants';
import type { WireWorkspaceMember } from '../../../schema/workspace';
import { api } from '../../app/api';
import { errorMessage, failureReason, type FeatureMessages } from '../../app/errors';
import { useWorkspaceMembersQuery } from '../../app/serverApi';
import { useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { showToast } from '../../ui/Toast';
import { copyText } from '../pages/pageErrors';

/*
 * A workspace's access tokens (server/routes/workspaceTokens.ts), for every member: the caller's
 * own (an admin: everyone's, each named by its owner), each removed after a confirmation, and a new
 * one — a name, read-only or not — whose token is shown once, right after it is made, and is gone
 * when the dialog closes.
 */

/** A refused token call in Russian. A 422 is the name or the limit of tokens per person (`invalid`, or `limit` when the list says so). */
const TOKEN_MESSAGES: FeatureMessages = {
  network: 'workspaceSettings.errors.network',
  forbidden: 'tokens.errors.forbidden',
  'auth.token_not_allowed': 'tokens.errors.sessionOnly',
  not_found: 'tokens.errors.notFound',
  validation_failed: 'tokens.errors.invalid',
  generic: 'tokens.errors.generic',
};
const tokenError = (t: (key: string, options?: Record<string, unknown>) => string, error: unknown) =>
  errorMessage(t, error, TOKEN_MESSAGES, { limit: WORKSPACE_TOKENS_PER_MEMBER });

const base = (workspaceId: string) => `/api/v3/spaces/workspace/${encodeURIComponent(workspaceId)}/tokens`;

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });
const momentOf = (iso: string) => new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const memberName = (member: WireWorkspaceMember) => ('name' in member.user && member.user.name) || member.user.email;

export function TokensDialog({ workspaceId, role, onClose }: { workspaceId: string; role: WorkspaceRole; onClose(): void }) {
  const { t } = useTranslation();
  const me = useAppSelector((state) => state.auth.user);
  // The server lists an admin everyone's tokens (and lets them remove any): theirs are named by their owners.
  const admin = role === 'admin';
  const members = useWorkspaceMembersQuery(workspaceId, { skip: !admin });
  const [tokens, setTokens] = useState<WireWorkspaceToken[] | null>(null);
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The server refused the name (422): the name field is marked invalid and names the message.
  const [nameRefused, setNameRefused] = useState(false);
  const [listProblem, setListProblem] = useState<string | null>(null);
  // The token just made, the one time it is shown: kept in this dialog only.
  const [made, setMade] = useState<{ id: string; name: string; token: string } | null>(null);
  const [confirm, setConfirm] = useState<WireWorkspaceToken | null>(null);
  const [removing, setRemoving] = useState(false);
  const madeField = useRef<HTMLInputElement>(null);
  const ids = useId();

  const load = useCallback(async () => {
    try {
      setTokens((await api<WireWorkspaceToken[]>(base(workspaceId))).data);
    } catch (error) {
      setListProblem(tokenError(t, error));
    }
  }, [workspaceId, t]);
  useEffect(() => void load(), [load]);

  // The new token is focused and selected, ready to be copied.
  useEffect(() => {
    madeField.current?.focus();
    madeField.current?.select();
  }, [made]);

  const ownOnes = tokens?.filter((token) => token.userId === me?.id).length ?? 0;

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setNameRefused(false);
    setCreating(true);
    try {
      const { token, ...listed } = (
        await api<WireWorkspaceToken>(base(workspaceId), { method: 'POST', body: { name: name.trim(), ...(readOnly ? { readOnly: true } : {}) } })
      ).data;
      setTokens((list) => [listed, ...(list ?? []).filter((other) => other.id !== listed.id)]);
      setMade(token ? { id: listed.id, name: listed.name, token } : null);
      setName('');
      setReadOnly(false);
    } catch (error) {
      const refused = failureReason(error) === 'validation_failed';
      const atLimit = refused && ownOnes >= WORKSPACE_TOKENS_PER_MEMBER;
      setNameRefused(refused && !atLimit);
      setProblem(atLimit ? t('tokens.errors.limit', { limit: WORKSPACE_TOKENS_PER_MEMBER }) : tokenError(t, error));
    } finally {
      setCreating(false);
    }
  };

  const remove = async (token: WireWorkspaceToken) => {
    setRemoving(true);
    try {
      await api(`${base(workspaceId)}/${encodeURIComponent(token.id)}`, { method: 'DELETE' });
      showToast(t('tokens.deleted'));
    } catch (error) {
      showToast(tokenError(t, error), 'error');
      // Not found: already gone (removed elsewhere), so it leaves the list as well.
      if (failureReason(error) !== 'not_found') return;
    } finally {
      setRemoving(false);
      setConfirm(null);
    }
    setTokens((list) => list && list.filter((other) => other.id !== token.id));
    setMade((shown) => (shown?.id === token.id ? null : shown));
  };

  const copy = async (token: string) => {
    try {
      await copyText(token);
      showToast(t('tokens.copied'));
    } catch {
      showToast(t('tokens.copyFailed'), 'error');
    }
  };

  /** Whose token it is, for an admin looking at someone else's. */
  const ownerOf = (token: WireWorkspaceToken): string | null => {
    if (!admin || token.userId === me?.id) return null;
    if (members.isError) return t('tokens.ownerOther');
    if (!members.data) return null;
    const owner = members.data.find((member) => member.id === token.userId);
    return owner ? t('tokens.ownerOf', { name: memberName(owner) }) : t('tokens.ownerLeft');
  };

  return (
    <Dialog title={t('tokens.title')} onClose={onClose} className="tokens-dialog">
      <p className="ws-note">
        {t('tokens.hint')}{' '}
        <a href="/api/docs" target="_blank" rel="noopener noreferrer">
          {t('tokens.docs')}
        </a>
      </p>
      {listProblem && (
        <p className="share-error" role="alert">
          {listProblem}
        </p>
      )}
      {tokens === null && !listProblem && <p className="share-muted">{t('tokens.loading')}</p>}
      {tokens && tokens.length === 0 && <p className="share-muted">{t('tokens.none')}</p>}
      {tokens && tokens.length > 0 && (
        <ul className="tokens-list" aria-label={t('tokens.list')}>
          {tokens.map((token) => {
            const owner = ownerOf(token);
            return (
              <li key={token.id} className="tokens-item">
                <span className="tokens-title">
                  <span className="tokens-name">{token.name}</span>
                  {token.readOnly && <span className="tokens-badge">{t('tokens.readOnlyBadge')}</span>}
                </span>
                <span className="tokens-meta">
                  {t('tokens.created', { date: dateOf(token.createdAt) })}
                  {' · '}
                  {token.lastUsedAt ? t('tokens.lastUsed', { date: momentOf(token.lastUsedAt) }) : t('tokens.neverUsed')}
                </span>
                {owner && <span className="tokens-meta tokens-owner">{owner}</span>}
                <Button
                  kind="outline"
                  size="xs"
                  className="tokens-delete"
                  aria-label={t('tokens.deleteOf', { name: token.name })}
                  onClick={() => setConfirm(token)}
                >
                  {t('tokens.delete')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {made && (
        <div className="tokens-secret" role="status">
          <p className="tokens-once">{t('tokens.once')}</p>
          <label className="ws-label" htmlFor={`${ids}-made`}>
            {t('tokens.value')}
          </label>
          <div className="tokens-secret-row">
            <input
              id={`${ids}-made`}
              ref={madeField}
              className="ws-input tokens-value"
              readOnly
              value={made.token}
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.target.select()}
            />
            <Button kind="solid" size="s" onClick={() => void copy(made.token)}>
              {t('tokens.copy')}
            </Button>
          </div>
        </div>
      )}
      <form className="tokens-form" onSubmit={(event) => void create(event)}>
        <h3 className="share-section-title">{t('tokens.addTitle')}</h3>
        <label className="ws-label" htmlFor={`${ids}-name`}>
          {t('tokens.name')}
        </label>
        <input
          id={`${ids}-name`}
          className="ws-input"
          required
          maxLength={100}
          value={name}
          placeholder={t('tokens.namePlaceholder')}
          aria-invalid={nameRefused ? true : undefined}
          aria-describedby={nameRefused ? `${ids}-problem` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
            setNameRefused(false);
          }}
        />
        <label className="tokens-check">
          <input type="checkbox" checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />
          {t('tokens.readOnly')}
        </label>
        {problem && (
          <p id={`${ids}-problem`} className="share-error" role="alert">
            {problem}
          </p>
        )}
        <Button type="submit" size="s" disabled={creating || name.trim() === ''}>
          {creating ? t('tokens.creating') : t('tokens.create')}
        </Button>
      </form>
      {confirm && (
        <Dialog
          title={t('tokens.deleteConfirmTitle')}
          onClose={() => setConfirm(null)}
          className="dialog-small"
          footer={
            <>
              <Button kind="outline" size="s" onClick={() => setConfirm(null)}>
                {t('tokens.cancel')}
              </Button>
              <Button kind="solid" size="s" className="ws-danger" disabled={removing} onClick={() => void remove(confirm)}>
                {t('tokens.deleteConfirm')}
              </Button>
            </>
          }
        >
          <p className="ws-confirm-text">{t('tokens.deleteConfirmText', { name: confirm.name })}</p>
        </Dialog>
      )}
    </Dialog>
  );
}
