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
export type WorkspaceAction = 'update' | 'delete' | 'listMembers' | 'manageMembers' | 'export';

/**
 * Admins do everything; participants may see who is in the workspace and export what of it they
 * may read; guests, who only see pages shared with them, may not even list the members (they
 * export page by page).
 */
export function canDoInWorkspace(role: WorkspaceRole, action: WorkspaceAction): boolean {
  if (role === 'admin') return true;
  return (action === 'listMembers' || action === 'export') && role === 'participant';
}

/** Admins remove anyone; everyone may leave (the last admin never: the repository guards that). */
export function canRemoveMember(role: WorkspaceRole, actorId: string, memberId: string): boolean {
  return role === 'admin' || actorId === memberId;
}

/**
 * May a member with this role bring people from outside the workspace into it (members/add, or
 * sharing a page with someone who is not a member yet)? Only admins: everyone else shares with
 * existing members only. The owner of a personal (private) workspace is its admin.
 */
export function canBringInOutsiders(role: WorkspaceRole): boolean {
  return role === 'admin';
}

/**
 * How many people one user may bring into workspaces (any of them, through members/add and page
 * sharing together) within a sliding window: each is a membership, possibly a new account and an
 * invitation e-mail. Counted in the database (workspace_members.invited_by), so it holds across
 * server processes.
 */
export const INVITE_LIMIT = { people: 30, windowMs: 10 * 60 * 1000 } as const;
