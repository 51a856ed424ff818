import { PUBLIC_IMAGE_TYPES, uploadPublicImage } from '../../editor/upload';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { WorkspaceRole } from '../../../schema/constants';
import { canDoInWorkspace, canRemoveMember } from '../../../schema/policies/workspace';
import { WORKSPACE_NAME_MIN, type WireWorkspace, type WireWorkspaceMember } from '../../../schema/workspace';
import { failureReason } from '../../app/errors';
import { useAddMembersMutation, useRemoveMemberMutation, useSetMemberRoleMutation, useWorkspaceMembersQuery } from '../../app/serverApi';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ExportDialog } from '../export/ExportDialog';
import { showToast } from '../../ui/Toast';
import { treeReset } from '../pages/pagesSlice';
import { useDebouncedInvitees } from '../sharing/invitees';
import '../sharing/share.css';
import { InviteeChips } from '../sharing/InviteeChips';
import { leaveWorkspace, selectActiveWorkspace, updateWorkspace } from './workspacesSlice';
import { workspaceError } from './workspaceErrors';
import { MemberListDialog } from './MemberListDialog';
import { WebhooksDialog } from './WebhooksDialog';
import { TokensDialog } from './TokensDialog';

export { workspaceError };
import './workspaceSettings.css';
import { FilePicker } from '../../ui/FilePicker';

/* Whether the settings dialog is open: one flag, so the switcher's menu can close while it stays. */
let open = false;
const listeners = new Set<() => void>();
const setOpen = (value: boolean) => {
  open = value;
  listeners.forEach((listener) => listener());
};
export const openWorkspaceSettings = () => setOpen(true);
export const closeWorkspaceSettings = () => setOpen(false);
const useSettingsOpen = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
    () => open,
  );

/** «Настройки пространства» in the workspace switcher's menu. */
export function WorkspaceSettingsMenuItem({ onOpen }: { onOpen?(): void }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="menu-separator" role="separator" />
      <button
        type="button"
        role="menuitem"
        className="workspace-menu-item workspace-settings-item"
        onClick={() => {
          onOpen?.();
          openWorkspaceSettings();
        }}
      >
        <span className="workspace-settings-gear" aria-hidden>
          ⚙
        </span>
        <span className="workspace-menu-text">{t('workspaceSettings.open')}</span>
      </button>
    </>
  );
}

/** Shows the settings of the active workspace while they are open. */
export function WorkspaceSettingsHost() {
  const isOpen = useSettingsOpen();
  const workspace = useAppSelector(selectActiveWorkspace);
  // The sidebar going away (collapsed, the phone drawer closed) closes the settings too.
  useEffect(() => closeWorkspaceSettings, []);
  if (!isOpen || !workspace) return null;
  return <WorkspaceSettings workspace={workspace} onClose={closeWorkspaceSettings} />;
}

const ROLES: WorkspaceRole[] = ['admin', 'participant', 'guest'];
export function WorkspaceSettings({ workspace, onClose }: { workspace: WireWorkspace; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const me = useAppSelector((state) => state.auth.user);
  // What the caller's role allows here (schema/policies/workspace.ts): admins change the workspace and its members.
  const mayUpdate = canDoInWorkspace(workspace.role, 'update');
  const mayManageMembers = canDoInWorkspace(workspace.role, 'manageMembers');

  const [name, setName] = useState(workspace.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const memberList = useWorkspaceMembersQuery(workspace.id, { refetchOnMountOrArgChange: true });
  const members = memberList.data ?? null;
  // Guests may not list the members (403).
  const membersNote = !memberList.isError
    ? null
    : failureReason(memberList.error) === 'forbidden'
      ? t('workspaceSettings.membersGuest')
      : workspaceError(t, memberList.error);
  const [setMemberRole] = useSetMemberRoleMutation();
  const [removeFromWorkspace] = useRemoveMemberMutation();
  const [addToWorkspace] = useAddMembersMutation();
  const [error, setError] = useState<string | null>(null);
  const [addText, setAddText] = useState('');
  const [addRole, setAddRole] = useState<WorkspaceRole>('participant');
  const [adding, setAdding] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [webhooks, setWebhooks] = useState(false);
  const [tokens, setTokens] = useState(false);
  const [addingList, setAddingList] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const invitees = useDebouncedInvitees(addText);

  const saveName = async () => {
    const trimmed = name.trim();
    if (trimmed.length < WORKSPACE_NAME_MIN) {
      setNameError(t('workspaceSettings.nameTooShort'));
      return;
    }
    setNameError(null);
    setSaving(true);
    try {
      await dispatch(updateWorkspace({ id: workspace.id, patch: { name: trimmed } })).unwrap();
      showToast(t('workspaceSettings.saved'));
    } catch (e) {
      setNameError(workspaceError(t, e));
    } finally {
      setSaving(false);
    }
  };

  const changeAvatar = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (!(PUBLIC_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setError(t('workspaceSettings.avatarBadType'));
      return;
    }
    setUploading(true);
    try {
      const avatar = await uploadPublicImage(file);
      await dispatch(updateWorkspace({ id: workspace.id, patch: { avatar } })).unwrap();
      showToast(t('workspaceSettings.saved'));
    } catch (e) {
      setError(workspaceError(t, e));
    } finally {
      setUploading(false);
    }
  };

  const removeAvatar = async () => {
    setError(null);
    try {
      await dispatch(updateWorkspace({ id: workspace.id, patch: { avatar: null } })).unwrap();
    } catch (e) {
      setError(workspaceError(t, e));
    }
  };

  const changeRole = async (member: WireWorkspaceMember, role: WorkspaceRole) => {
    setError(null);
    try {
      await setMemberRole({ workspaceId: workspace.id, userId: member.id, role }).unwrap();
      showToast(t('workspaceSettings.roleChanged'));
    } catch (e) {
      setError(workspaceError(t, e));
    }
  };

  const removeMember = async (member: WireWorkspaceMember) => {
    setError(null);
    try {
      await removeFromWorkspace({ workspaceId: workspace.id, userId: member.id }).unwrap();
      showToast(t('workspaceSettings.removed'));
    } catch (e) {
      setError(workspaceError(t, e));
    }
  };

  const addMembers = async () => {
    if (!invitees.valid.length) return;
    setError(null);
    setAdding(true);
    try {
      const answer = await addToWorkspace({ workspaceId: workspace.id, members: invitees.valid.map((email) => ({ email, role: addRole })) }).unwrap();
      const added = (answer.meta.added as string[] | undefined)?.length ?? invitees.valid.length;
      showToast(t('workspaceSettings.added', { count: added }));
      setAddText('');
    } catch (e) {
      setError(workspaceError(t, e));
    } finally {
      setAdding(false);
    }
  };

  const leave = async () => {
    if (!me) return;
    setLeaving(true);
    try {
      await dispatch(leaveWorkspace({ id: workspace.id, userId: me.id })).unwrap();
      dispatch(treeReset());
      showToast(t('workspaceSettings.left', { name: workspace.name }));
      onClose();
      navigate('/');
    } catch (e) {
      setConfirmLeave(false);
      setError(workspaceError(t, e));
    } finally {
      setLeaving(false);
    }
  };

  return (
    <Dialog title={t('workspaceSettings.title')} onClose={onClose} namesScreen className="workspace-settings">
      {!mayUpdate && <p className="ws-note">{t('workspaceSettings.adminOnly')}</p>}
      <section className="ws-section" aria-label={t('workspaceSettings.general')}>
        <div className="ws-general">
          <div className="ws-avatar-box">
            <span className="ws-avatar">{workspace.avatar ? <img src={workspace.avatar} alt="" /> : (workspace.name || '?').slice(0, 1).toUpperCase()}</span>
            {mayUpdate && (
              <div className="ws-avatar-actions">
                <FilePicker accept={PUBLIC_IMAGE_TYPES.join(',')} label={t('workspaceSettings.avatar')} onFiles={([file]) => void changeAvatar(file)}>
                  {(open) => (
                    <Button kind="outline" size="xs" disabled={uploading} onClick={open}>
                      {uploading ? t('workspaceSettings.avatarUploading') : t('workspaceSettings.avatarUpload')}
                    </Button>
                  )}
                </FilePicker>
                {workspace.avatar && (
                  <Button kind="flat" size="xs" onClick={() => void removeAvatar()}>
                    {t('workspaceSettings.avatarRemove')}
                  </Button>
                )}
              </div>
            )}
          </div>
          <form
            className="ws-name"
            onSubmit={(e) => {
              e.preventDefault();
              void saveName();
            }}
          >
            <label className="ws-label" htmlFor="ws-name-input">
              {t('workspaceSettings.name')}
            </label>
            <div className="ws-row">
              <input
                id="ws-name-input"
                className="ws-input"
                value={name}
                readOnly={!mayUpdate}
                aria-invalid={nameError ? true : undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  setNameError(null);
                }}
              />
              {mayUpdate && (
                <Button type="submit" kind="solid" size="s" disabled={saving || name.trim() === workspace.name}>
                  {t('workspaceSettings.save')}
                </Button>
              )}
            </div>
            {nameError && <span className="share-hint is-error">{nameError}</span>}
          </form>
        </div>
      </section>

      {error && (
        <p className="share-error" role="alert">
          {error}
        </p>
      )}

      <h3 className="share-section-title">{t('workspaceSettings.members')}</h3>
      {membersNote && <p className="share-muted">{membersNote}</p>}
      {!members && !membersNote && <p className="share-muted">{t('workspaceSettings.loading')}</p>}
      {members && (
        <ul className="share-members" aria-label={t('workspaceSettings.members')}>
          {members.map((m) => {
            const label = ('name' in m.user && m.user.name) || m.user.email;
            const isMe = m.id === me?.id;
            return (
              <li key={m.id} className="share-member" data-email={m.user.email}>
                <span className="avatar" aria-hidden>
                  {label.slice(0, 1).toUpperCase()}
                </span>
                <span className="share-person">
                  <span className="share-person-name">
                    {label}
                    {isMe && <span className="share-you"> {t('workspaceSettings.you')}</span>}
                  </span>
                  <span className="share-person-email">{m.user.email}</span>
                </span>
                {mayManageMembers ? (
                  <select
                    value={m.role}
                    aria-label={t('workspaceSettings.roleOf', { name: label })}
                    onChange={(e) => void changeRole(m, e.target.value as WorkspaceRole)}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {t(`workspaceSettings.roles.${r}`)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="ws-role">{t(`workspaceSettings.roles.${m.role}`)}</span>
                )}
                {!isMe && canRemoveMember(workspace.role, me?.id ?? '', m.id) && (
                  <Button
                    kind="flat"
                    size="xs"
                    className="share-remove"
                    aria-label={t('workspaceSettings.removeMember', { name: label })}
                    onClick={() => void removeMember(m)}
                  >
                    {t('workspaceSettings.remove')}
                  </Button>
                )}
                {mayManageMembers && isMe && <span className="share-remove-spacer" aria-hidden />}
              </li>
            );
          })}
        </ul>
      )}

      {mayManageMembers && (
        <form
          className="ws-add"
          onSubmit={(e) => {
            e.preventDefault();
            void addMembers();
          }}
        >
          <h3 className="share-section-title">{t('workspaceSettings.addTitle')}</h3>
          <div className="share-field">
            <textarea
              className="share-input"
              rows={2}
              value={addText}
              placeholder={t('workspaceSettings.addPlaceholder')}
              aria-label={t('workspaceSettings.addLabel')}
              onChange={(e) => setAddText(e.target.value)}
            />
          </div>
          <InviteeChips invitees={invitees} label={t('workspaceSettings.addLabel')} />
          <div className="share-invite-row">
            <select value={addRole} aria-label={t('workspaceSettings.addRole')} onChange={(e) => setAddRole(e.target.value as WorkspaceRole)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`workspaceSettings.roles.${r}`)}
                </option>
              ))}
            </select>
            <Button type="submit" kind="solid" size="s" disabled={adding || invitees.valid.length === 0}>
              {adding ? t('workspaceSettings.adding') : t('workspaceSettings.add')}
            </Button>
            <Button kind="outline" size="s" onClick={() => setAddingList(true)}>
              {t('workspaceSettings.list.open')}
            </Button>
          </div>
        </form>
      )}
      {addingList && <MemberListDialog workspaceId={workspace.id} onClose={() => setAddingList(false)} />}

      {canDoInWorkspace(workspace.role, 'export') && (
        <div className="ws-leave">
          <span className="share-person">
            <span className="share-person-name">{t('workspaceSettings.export')}</span>
            <span className="share-person-email ws-wrap">{t('workspaceSettings.exportHint')}</span>
          </span>
          <Button kind="outline" size="xs" className="ws-row-button" onClick={() => setExporting(true)}>
            {t('workspaceSettings.exportButton')}
          </Button>
        </div>
      )}
      {exporting && <ExportDialog subject={{ kind: 'workspace', workspaceId: workspace.id, name: workspace.name }} onClose={() => setExporting(false)} />}

      {mayUpdate && (
        <div className="ws-leave">
          <span className="share-person">
            <span className="share-person-name">{t('webhooks.open')}</span>
            <span className="share-person-email ws-wrap">{t('webhooks.openHint')}</span>
          </span>
          <Button kind="outline" size="xs" className="ws-row-button" onClick={() => setWebhooks(true)}>
            {t('webhooks.open')}
          </Button>
        </div>
      )}
      {webhooks && <WebhooksDialog workspaceId={workspace.id} onClose={() => setWebhooks(false)} />}

      {/* Every member makes access tokens for themselves (server/routes/workspaceTokens.ts). */}
      <div className="ws-leave">
        <span className="share-person">
          <span className="share-person-name">{t('tokens.open')}</span>
          <span className="share-person-email ws-wrap">{t('tokens.openHint')}</span>
        </span>
        <Button kind="outline" size="xs" className="ws-row-button" onClick={() => setTokens(true)}>
          {t('tokens.open')}
        </Button>
      </div>
      {tokens && <TokensDialog workspaceId={workspace.id} role={workspace.role} onClose={() => setTokens(false)} />}

      <div className="ws-leave">
        <span className="share-person">
          <span className="share-person-name">{t('workspaceSettings.leave')}</span>
          <span className="share-person-email ws-wrap">{t('workspaceSettings.leaveHint')}</span>
        </span>
        <Button kind="outline" size="xs" className="ws-leave-button" onClick={() => setConfirmLeave(true)}>
          {t('workspaceSettings.leave')}
        </Button>
      </div>

      {confirmLeave && (
        <Dialog
          title={t('workspaceSettings.leaveConfirmTitle')}
          onClose={() => setConfirmLeave(false)}
          className="dialog-small"
          footer={
            <>
              <Button kind="outline" size="s" onClick={() => setConfirmLeave(false)}>
                {t('workspaceSettings.cancel')}
              </Button>
              <Button kind="solid" size="s" className="ws-danger" disabled={leaving} onClick={() => void leave()}>
                {t('workspaceSettings.leaveConfirm')}
              </Button>
            </>
          }
        >
          <p className="ws-confirm-text">{t('workspaceSettings.leaveConfirmText', { name: workspace.name })}</p>
        </Dialog>
      )}
    </Dialog>
  );
}
