import type { Kysely } from 'kysely';
import type { AccessLevel, WorkspaceRole } from '../../../schema/constants';
import { ERROR_CODES } from '../../../schema/errors';
import { roleDefault } from '../../../schema/policies/page';
import {
  needsHeldAbove,
  protectedMemberRefusal,
  type HeldAbove,
  type MemberLevelAfter,
  type MemberLevelChange,
  type ProtectedMemberReason,
} from '../../../schema/policies/sharing';
import type { Database, PageRow } from '../../db/types';
import { AppError } from '../../errors';
import { pageAccessLevel } from '../../policies/page';
import { findPage, pagePath } from '../../repositories/pages';
import { findMembership } from '../../repositories/workspaces';
import { grantsOfUser } from '../../repositories/pageMembers';

const protectedMember = (message: string) => new AppError(403, ERROR_CODES.sharingProtectedMember, message);

/** The root of the page's tree: the page itself at a section root. */
export async function rootOf(db: Kysely<Database>, page: PageRow): Promise<PageRow> {
  const rootId = pagePath(page)[0];
  if (rootId === undefined) return page;
  return (await findPage(db, rootId)) ?? page;
}

export async function roleIn(db: Kysely<Database>, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  return (await findMembership(db, workspaceId, userId))?.role;
}

/** The refusals of `protectedMemberRefusal` as the API words them. */
const PROTECTED_MESSAGES: Record<ProtectedMemberReason, string> = {
  ownerRoot: "the grant of the page tree's owner on its root page cannot be changed",
  ownerBelowFull: "the page tree's owner keeps full access on every page of it",
  fullThroughGrant: 'this person holds full access through a page above; only someone with full access there may lower it',
  fullThroughRole: 'an admin holds full access here through their role; only an admin may lower it',
};

/**
 * What `targetId` holds on `page` apart from a grant there (the facts `protectedMemberRefusal`
 * judges): the nearest ancestor grant of theirs, else their role in the tree's section; and, when
 * that is full, whether the caller holds full there too.
 */
async function heldAbove(db: Kysely<Database>, callerId: string, page: PageRow, root: PageRow, targetId: string): Promise<HeldAbove> {
  const ancestors = pagePath(page).reverse();
  const levelOn = await grantsOfUser(db, targetId, ancestors);
  const sourceId = ancestors.find((id) => levelOn.has(id));
  if (sourceId !== undefined) {
    const level = levelOn.get(sourceId) as AccessLevel;
    if (level !== 'full') return { level, from: 'grant' };
    const source = await findPage(db, sourceId);
    return { level, from: 'grant', callerFullThere: !!source && (await pageAccessLevel(db, callerId, source)) === 'full' };
  }
  const targetRole = await roleIn(db, page.workspace_id, targetId);
  const level = targetRole ? roleDefault(targetRole, root.section) : 'none';
  if (level !== 'full') return { level, from: 'role' };
  const callerRole = await roleIn(db, page.workspace_id, callerId);
  return { level, from: 'role', callerFullThere: !!callerRole && roleDefault(callerRole, root.section) === 'full' };
}

/**
 * Refuses (403 sharing.protected_member) a change that would leave `targetId` with less than full
 * access on `page` when they are protected there (`protectedMemberRefusal`,
 * docs/adr/0002-sharing-and-membership.md). `after` is the target's level on the page after the
 * change: a level, or `inherit` when the grant on the page is removed.
 */
export async function checkMayLower(
  db: Kysely<Database>,
  callerId: string,
  page: PageRow,
  root: PageRow,
  targetId: string,
  after: MemberLevelAfter,
): Promise<void> {
  const change: MemberLevelChange = { after, onRoot: page.id === root.id, targetOwnsTree: targetId === root.created_by };
  const above = needsHeldAbove(change) ? await heldAbove(db, callerId, page, root, targetId) : undefined;
  const refusal = protectedMemberRefusal(change, above);
  if (refusal) throw protectedMember(PROTECTED_MESSAGES[refusal]);
}
