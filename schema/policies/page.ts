import type { AccessLevel, SectionId, WorkspaceRole } from '../constants';

/**
 * Who may do what on a page, from the access level alone: the pure rules both sides apply (the
 * server's `server/policies/page.ts` works out the levels from the database).
 */

/**
 * read: view (and comment); edit: change content, add pages below, trash and restore;
 * share: share and publish; manage: move elsewhere in the tree and delete forever (full access).
 */
export type PageAction = 'read' | 'edit' | 'share' | 'manage';

/** May a user with this level do this action? Sharing, publishing and managing need full access. */
export function allows(level: AccessLevel, action: PageAction): boolean {
  if (action === 'read') return level !== 'none';
  if (action === 'edit') return level === 'edit' || level === 'full';
  return level === 'full';
}

/** canEdit / canShare as the spec derives them from the access level. */
export function canEdit(level: AccessLevel): boolean {
  return allows(level, 'edit');
}
export function canShare(level: AccessLevel): boolean {
  return allows(level, 'share');
}

/**
 * What a workspace role gives on a page without any grant, by the section of its tree's root:
 * only the shared `all` section gives anything — admins full, participants edit, guests nothing.
 */
export function roleDefault(role: WorkspaceRole, rootSection: string | null): AccessLevel {
  if ((rootSection as SectionId | null) !== 'all') return 'none';
  if (role === 'admin') return 'full';
  if (role === 'participant') return 'edit';
  return 'none';
}

/**
 * A private section root is its creator's: a page becomes a root of someone's private section
 * only when they created it — nobody moves someone else's page into their own private section.
 */
export function mayBePrivateRootOf(page: { createdBy: string }, userId: string): boolean {
  return page.createdBy === userId;
}
