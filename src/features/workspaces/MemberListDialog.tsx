import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkspaceRole } from '../../../schema/constants';
import { MAX_WORKSPACE_MEMBERS_PER_LIST, emailsInList, type MemberListOutcome } from '../../../schema/workspace';
import { useAddMemberListMutation } from '../../app/serverApi';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { FilePicker } from '../../ui/FilePicker';
import { workspaceError } from './workspaceErrors';

const ROLES: WorkspaceRole[] = ['admin', 'participant', 'guest'];
/** What a list or CSV file may be picked as. */
const LIST_ACCEPT = '.csv,.txt,text/csv,text/plain';
/** Addresses shown by name in the preview and the outcome; the rest are counted. */
const SHOWN = 200;

/**
 * A list file's text (FileReader: every engine has it). Read as UTF-8: the addresses are ASCII
 * either way; names in a Windows-1251 file come out garbled, but names are passed over.
 */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}

/** The invitation quota's refusal (429 with `details.limit`): how many people the caller may still add. */
function quotaLeft(error: unknown): { left: number; limit: number } | null {
  const details = (error as { details?: unknown } | null)?.details;
  if (typeof details !== 'object' || details === null) return null;
  const { limit, recently } = details as { limit?: unknown; recently?: unknown };
  return typeof limit === 'number' && typeof recently === 'number' ? { left: Math.max(0, limit - recently), limit } : null;
}

function Addresses({ label, items, className }: { label: string; items: readonly string[]; className?: string }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <div className={`ws-list-group ${className ?? ''}`}>
      <p className="ws-list-title">{label}</p>
      <ul className="ws-list-addresses" aria-label={label}>
        {items.slice(0, SHOWN).map((item, i) => (
          <li key={`${i}-${item}`}>{item}</li>
        ))}
      </ul>
      {items.length > SHOWN && <p className="share-muted">{t('workspaceSettings.list.andMore', { count: items.length - SHOWN })}</p>}
    </div>
  );
}

/**
 * «Добавить списком» (workspace settings, admins): a pasted list or a CSV file of e-mails, the
 * addresses found and what is not an address before anything is sent, then what the server did —
 * added, members already, not addresses (`members/add_list`, docs/api/workspaces.md).
 */
export function MemberListDialog({ workspaceId, onClose }: { workspaceId: string; onClose(): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [role, setRole] = useState<WorkspaceRole>('participant');
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<MemberListOutcome | null>(null);
  const [addList, { isLoading: adding }] = useAddMemberListMutation();
  const found = useMemo(() => emailsInList(text), [text]);
  const tooMany = found.emails.length > MAX_WORKSPACE_MEMBERS_PER_LIST;

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      setText(await readText(file));
      setFileName(file.name);
    } catch {
      setError(t('workspaceSettings.list.unreadable'));
    }
  };

  const send = async () => {
    if (found.emails.length === 0 || tooMany) return;
    setError(null);
    try {
      const answer = await addList({ workspaceId, emails: found.emails, role }).unwrap();
      // What the preview already knew was no address is reported with what the server refused.
      setOutcome({ ...answer.data, invalid: [...found.invalid, ...answer.data.invalid] });
    } catch (e) {
      const quota = quotaLeft(e);
      setError(quota ? t('workspaceSettings.list.overQuota', quota) : workspaceError(t, e));
    }
  };

  // Once the list is sent: what came of it, in the same dialog.
  const outcomeView = outcome && (
    <>
      <p className="ws-list-summary" role="status">
        {t('workspaceSettings.list.outcome', { added: outcome.added.length, members: outcome.alreadyMembers.length, invalid: outcome.invalid.length })}
      </p>
      <Addresses label={t('workspaceSettings.list.added')} items={outcome.added.map((u) => u.email)} />
      <Addresses label={t('workspaceSettings.list.alreadyMembers')} items={outcome.alreadyMembers.map((u) => u.email)} />
      <Addresses label={t('workspaceSettings.list.refused')} items={outcome.invalid} className="is-invalid" />
    </>
  );

  return (
    <Dialog
      title={t('workspaceSettings.list.title')}
      onClose={onClose}
      className="ws-list-dialog"
      footer={
        outcome ? (
          <Button kind="solid" size="s" onClick={onClose}>
            {t('workspaceSettings.list.done')}
          </Button>
        ) : (
          <>
            <Button kind="flat" size="s" onClick={onClose}>
              {t('workspaceSettings.cancel')}
            </Button>
            <Button kind="solid" size="s" disabled={adding || found.emails.length === 0 || tooMany} onClick={() => void send()}>
              {adding ? t('workspaceSettings.adding') : t('workspaceSettings.list.add', { count: found.emails.length })}
            </Button>
          </>
        )
      }
    >
      {outcomeView || (
        <>
          <p className="share-muted">{t('workspaceSettings.list.hint')}</p>
          <textarea
            className="input ws-list-input"
            rows={6}
            value={text}
            placeholder={t('workspaceSettings.list.placeholder')}
            aria-label={t('workspaceSettings.list.label')}
            onChange={(e) => {
              setText(e.target.value);
              setFileName(null);
            }}
          />
          <div className="share-invite-row">
            <FilePicker accept={LIST_ACCEPT} label={t('workspaceSettings.list.file')} onFiles={([file]) => void readFile(file)}>
              {(open) => (
                <Button kind="outline" size="xs" onClick={open}>
                  {t('workspaceSettings.list.chooseFile')}
                </Button>
              )}
            </FilePicker>
            {fileName && <span className="share-muted">{fileName}</span>}
            <select
              className="input-compact"
              value={role}
              aria-label={t('workspaceSettings.addRole')}
              onChange={(e) => setRole(e.target.value as WorkspaceRole)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`workspaceSettings.roles.${r}`)}
                </option>
              ))}
            </select>
          </div>
          {text.trim() !== '' && (
            <div className="ws-list-preview">
              <p className="ws-list-summary" role="status">
                {t('workspaceSettings.list.preview', { found: found.emails.length, invalid: found.invalid.length })}
              </p>
              {tooMany && <p className="share-hint is-error">{t('workspaceSettings.list.tooMany', { max: MAX_WORKSPACE_MEMBERS_PER_LIST })}</p>}
              <Addresses label={t('workspaceSettings.list.found')} items={found.emails} />
              <Addresses label={t('workspaceSettings.list.invalid')} items={found.invalid} className="is-invalid" />
            </div>
          )}
          {error && (
            <p className="share-error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
