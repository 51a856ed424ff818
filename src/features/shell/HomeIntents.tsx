import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readHomeAction, useIntentParams } from '../../app/intents';
import { canDoInWorkspace } from '../../../schema/policies/workspace';
import { useAppSelector } from '../../app/store';
import { showToast } from '../../ui/Toast';
import { ProfileDialog } from '../profile/ProfileDialog';
import { WorkspaceSettings } from '../workspaces/WorkspaceSettings';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';

/**
 * Home's navigation intents (docs/intents.md): `?action=messenger&step=link` opens «Профиль и
 * настройки» and asks for the messenger code; `?action=share&object=workspace` opens the active
 * workspace's settings, where its admins invite people. Done once, then taken out of the address.
 */
export function HomeIntents() {
  const { t } = useTranslation();
  const { params, done } = useIntentParams();
  const workspace = useAppSelector(selectActiveWorkspace);
  const [open, setOpen] = useState<'messenger' | 'workspace' | null>(null);
  const handled = useRef(false);

  useEffect(() => {
    const intent = readHomeAction(params);
    if (!intent || handled.current || !workspace) return;
    handled.current = true;
    if (intent.action === 'messenger') setOpen('messenger');
    else if (intent.object === 'workspace' && canDoInWorkspace(workspace.role, 'manageMembers')) setOpen('workspace');
    else showToast(t(intent.object === 'workspace' ? 'intents.cannotInvite' : 'intents.unknown'), 'error');
    done('action', 'step', 'object');
  }, [params, workspace, done, t]);

  if (open === 'messenger') return <ProfileDialog linkMessenger onClose={() => setOpen(null)} />;
  if (open === 'workspace' && workspace) return <WorkspaceSettings workspace={workspace} onClose={() => setOpen(null)} />;
  return null;
}
