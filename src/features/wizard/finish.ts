import type { WireElement } from '../../../schema/element';
import type { WireWorkspace } from '../../../schema/workspace';
import { api, ApiRequestError } from '../../app/api';
import { parseInvitees } from '../sharing/invitees';
import { inviteRoleOf, type WizardState } from './wizardState';

/** What happened when the wizard finished; the screen turns it into navigation and messages. */
export interface FinishResult {
  workspace: WireWorkspace;
  /** The first copied template's root page (null: none chosen, or the copy failed). */
  firstPageId: string | null;
  templatesFailed: boolean;
  invitesFailed: ApiRequestError | null;
  profileFailed: boolean;
}

/**
 * Creates the workspace the wizard describes (POST /api/v3/spaces/workspace), copies the chosen
 * templates into it (POST /api/templates/{id}/copy: the `all` section of a shared workspace,
 * `private` of a private one), invites people with the role chosen for each (a member unless
 * another was chosen: issue 36 §2, where spec §4 made everyone an admin) and saves the user's name.
 * Only the workspace create is fatal (it throws, nothing else is tried); everything after it is
 * reported in the result, since the workspace exists by then.
 */
export async function finishWizard(state: WizardState, currentUser: { id: string; name: string } | null): Promise<FinishResult> {
  const { config } = state;
  const workspace = (
    await api<WireWorkspace>('/api/v3/spaces/workspace', {
      method: 'POST',
      body: { name: config.name.trim(), avatar: config.avatar, private: config.isPrivate },
    })
  ).data;

  let profileFailed = false;
  const userName = state.userName.trim();
  if (currentUser && userName !== '' && userName !== currentUser.name) {
    await api('/api/user', { method: 'POST', body: { id: currentUser.id, name: userName } }).catch(() => {
      profileFailed = true;
    });
  }

  let firstPageId: string | null = null;
  let templatesFailed = false;
  const section = config.isPrivate ? 'private' : 'all';
  for (const id of config.templates) {
    try {
      const { data } = await api<WireElement>(`/api/templates/${encodeURIComponent(id)}/copy`, {
        method: 'POST',
        body: { workspaceId: workspace.id, section },
      });
      firstPageId ??= data.id;
    } catch {
      templatesFailed = true;
      break;
    }
  }

  let invitesFailed: ApiRequestError | null = null;
  const invitees = config.isPrivate ? [] : parseInvitees(state.invites).valid;
  if (invitees.length > 0) {
    await api(`/api/v3/spaces/workspace/${encodeURIComponent(workspace.id)}/members/add`, {
      method: 'POST',
      body: { members: invitees.map((email) => ({ email, role: inviteRoleOf(state, email) })) },
    }).catch((error: unknown) => {
      invitesFailed = error instanceof ApiRequestError ? error : new ApiRequestError(undefined, undefined, String(error));
    });
  }

  return { workspace, firstPageId: templatesFailed ? null : firstPageId, templatesFailed, invitesFailed, profileFailed };
}
