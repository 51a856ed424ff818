import type { SectionId, WorkspaceRole } from '../constants';

/** Who may do what in a workspace, from the member's role: the pure rules both sides apply. */

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

/**
 * The sections a member sees (spec §6), in sidebar order: admins and participants all four,
 * guests only favourites and shared; `all` is gone in a private workspace (nobody creates pages
 * there).
 */
export function visibleSections(role: WorkspaceRole, isPrivateWorkspace: boolean): SectionId[] {
  if (role === 'guest') return ['favorite', 'shared'];
  return isPrivateWorkspace ? ['favorite', 'shared', 'private'] : ['favorite', 'all', 'shared', 'private'];
}

/**
 * May a member list a section's pages (GET section/{id})? The sections they see in a workspace
 * that is not private: in a private one `all` is not shown, yet its listing still answers — empty,
 * unless pages were put there before the workspace was made private (docs/api/pages.md, «Sections»).
 */
export function mayListSection(role: WorkspaceRole, section: SectionId): boolean {
  return visibleSections(role, false).includes(section);
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

/** Admins remove anyone; everyone may leave (the last admin never: `keepsAnAdmin`). */
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
 * How many people one user may bring into workspaces (any of them, through members/add,
 * members/add_list and page sharing together) within a sliding window: each is a membership,
 * possibly a new account and an invitation e-mail. Counted in the database
 * (workspace_members.invited_by), so it holds across server processes. 300 by default (the
 * server's INVITE_LIMIT_PER_10_MIN): an admin adds a team of a few hundred from one list in one
 * go (docs/adr/0002, «A team at once»).
 */
export const INVITE_LIMIT = { people: 300, windowMs: 10 * 60 * 1000 } as const;

/** The workspace keeps an admin when a member with `role` is demoted or goes: never its last one (`admins` admins now). */
export function keepsAnAdmin(role: WorkspaceRole, admins: number): boolean {
  return role !== 'admin' || admins > 1;
}

/** A workspace may be made private only while its one member is its owner: one with other members cannot (remove them first). */
export function mayBePrivate(members: number): boolean {
  return members <= 1;
}

/** Whether bringing `adding` more people keeps an inviter within the limit, having brought `recently` within its window. */
export function withinInviteLimit(recently: number, adding: number, limit: { people: number } = INVITE_LIMIT): boolean {
  return adding === 0 || recently + adding <= limit.people;
}
