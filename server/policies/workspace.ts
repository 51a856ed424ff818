import type { SectionId, WorkspaceRole } from '../../schema/constants';

/**
 * May a member with this role create a page in this section of the workspace?
 * Private: admins and participants. All: admins, and only in a non-private workspace.
 * Favorite and shared hold links to pages, never new pages.
 */
export function canCreateInSection(role: WorkspaceRole, section: SectionId, isPrivateWorkspace: boolean): boolean {
  if (section === 'private') return role === 'admin' || role === 'participant';
  if (section === 'all') return role === 'admin' && !isPrivateWorkspace;
  return false;
}

/** Guests see only the favorite and shared sections. */
export function visibleSections(role: WorkspaceRole): SectionId[] {
  return role === 'guest' ? ['favorite', 'shared'] : ['favorite', 'all', 'shared', 'private'];
}

/** What a member may do to the workspace itself. */
export type WorkspaceAction = 'update' | 'delete' | 'listMembers' | 'manageMembers';

/**
 * Admins do everything; participants may see who is in the workspace; guests, who only see
 * pages shared with them, may not even list the members.
 */
export function canDoInWorkspace(role: WorkspaceRole, action: WorkspaceAction): boolean {
  if (role === 'admin') return true;
  return action === 'listMembers' && role === 'participant';
}

/** Admins remove anyone; everyone may leave (the last admin never: the repository guards that). */
export function canRemoveMember(role: WorkspaceRole, actorId: string, memberId: string): boolean {
  return role === 'admin' || actorId === memberId;
}
