import type { Kysely } from 'kysely';
import type { WorkspaceRole } from '../../../schema/constants';
import { INVITE_LIMIT, canDoInWorkspace, canRemoveMember, keepsAnAdmin, withinInviteLimit, type WorkspaceAction } from '../../../schema/policies/workspace';
import { ERROR_CODES } from '../../../schema/errors';
import { emailSchema } from '../../../schema/user';
import type { NewMember } from '../../../schema/workspace';
import type { Database, UserRow } from '../../db/types';
import { AppError, forbidden, notFound, rateLimited } from '../../errors';
import {
  admitPeople,
  countInvitedSince,
  countMembers,
  deleteMembership,
  findMemberRole,
  findMembership,
  findWorkspace,
  inMembershipTransaction,
  isWireRole,
  resolvePeople,
  setMemberRoleRow,
  type NamedPerson,
  type WorkspaceWithRole,
} from '../../repositories/workspaces';
import type { DomainEvent } from '../../events/events';

/**
 * Refuses (429 rate_limited) bringing `count` more people into workspaces when the inviter has
 * brought in INVITE_LIMIT.people within its window already (members/add and page sharing
 * together; the count is read under a lock on the inviter, `countInvitedSince`).
 */
export async function checkInviteQuota(trx: Kysely<Database>, inviterId: string, count: number, people: number = INVITE_LIMIT.people): Promise<void> {
  if (count === 0) return;
  const recently = await countInvitedSince(trx, inviterId, new Date(Date.now() - INVITE_LIMIT.windowMs).toISOString());
  if (!withinInviteLimit(recently, count, { people })) {
    const minutes = Math.round(INVITE_LIMIT.windowMs / 60_000);
    throw rateLimited(`you may bring at most ${people} people into workspaces in ${minutes} minutes (${recently} so far); try again later`, {
      limit: people,
      recently,
      adding: count,
    });
  }
}

const lastAdmin = () => new AppError(422, ERROR_CODES.workspaceLastAdmin, 'the workspace needs at least one admin');

/**
 * A change of one member (their role, their membership) in a transaction holding the workspace's
 * membership lock, so two admins demoting each other at once cannot leave it without an admin:
 * 404 for no such member; 422 workspace.last_admin when it would take the last admin away.
 */
async function changeMember(
  db: Kysely<Database>,
  workspaceId: string,
  memberId: string,
  change: (trx: Kysely<Database>) => Promise<void>,
  changes: (role: WorkspaceRole) => boolean = () => true,
) {
  await inMembershipTransaction(db, workspaceId, async (trx) => {
    const role = await findMemberRole(trx, workspaceId, memberId);
    if (!role || !isWireRole(role)) throw notFound('member');
    if (!changes(role)) return;
    if (!keepsAnAdmin(role, await countMembers(trx, workspaceId, 'admin'))) throw lastAdmin();
    await change(trx);
  });
}

/** The caller's membership of a workspace: 404 when there is no such workspace, 403 for outsiders. */
async function membershipIn(db: Kysely<Database>, workspaceId: string, userId: string): Promise<WorkspaceWithRole> {
  if (!(await findWorkspace(db, workspaceId))) throw notFound('workspace');
  const membership = await findMembership(db, workspaceId, userId);
  if (!membership || !isWireRole(membership.role)) throw forbidden('this workspace');
  return membership;
}

/** The caller's membership, when their role allows the action on the workspace (403 otherwise). */
export async function authorizeWorkspace(db: Kysely<Database>, workspaceId: string, userId: string, action: WorkspaceAction): Promise<WorkspaceWithRole> {
  const membership = await membershipIn(db, workspaceId, userId);
  if (!canDoInWorkspace(membership.role, action)) throw forbidden('this workspace action');
  return membership;
}

/**
 * Adds people to a workspace by user id or e-mail, each with a role (admins only; an e-mail
 * nobody has yet makes an account). Everything is checked before anything is written (known user
 * ids, nobody named twice, the caller's invitation quota, the caller's role as of now, under the
 * members' lock: a parallel demotion may have won): a refused call creates no account. Answers
 * the people named and, by their place in the body, those this call brought in (to be mailed).
 */
export async function addWorkspaceMembers(
  db: Kysely<Database>,
  userId: string,
  workspaceId: string,
  entries: readonly NewMember[],
  invitePeople: number = INVITE_LIMIT.people,
): Promise<{ workspace: WorkspaceWithRole; people: NamedPerson[]; admitted: Map<number, UserRow> }> {
  const workspace = await authorizeWorkspace(db, workspaceId, userId, 'manageMembers');
  const outcome = await inMembershipTransaction(db, workspace.id, async (trx) => {
    const current = await findMembership(trx, workspace.id, userId);
    if (!current || !canDoInWorkspace(current.role, 'manageMembers')) throw forbidden('this workspace action');
    const people = await resolvePeople(
      trx,
      workspace.id,
      entries.map((e) => (e.userId !== undefined ? { userId: e.userId } : { email: e.email as string })),
      'body.members',
    );
    const newcomers = people.filter((p) => !p.member);
    await checkInviteQuota(trx, userId, newcomers.length, invitePeople);
    const admitted = await admitPeople(
      trx,
      workspace.id,
      userId,
      newcomers.map((person) => ({ person, role: entries[person.index].role as WorkspaceRole })),
    );
    return { people, admitted: new Map(newcomers.map((p, i) => [p.index, admitted[i]])) };
  });
  return { workspace, ...outcome };
}

/**
 * Adds a list of e-mails (a pasted list, a CSV file's) to a workspace with one role (admins): what
 * is not an e-mail is reported rather than refusing the rest, an address named twice counts once,
 * members already are reported; the others are added as `addWorkspaceMembers` adds them — all or
 * none, within the caller's invitation quota (a list larger than what is left of it is refused
 * whole, 429, nothing written).
 */
export async function addWorkspaceMemberList(
  db: Kysely<Database>,
  userId: string,
  workspaceId: string,
  list: { emails: readonly string[]; role: WorkspaceRole },
  invitePeople: number = INVITE_LIMIT.people,
): Promise<{ workspace: WorkspaceWithRole; admitted: UserRow[]; alreadyMembers: UserRow[]; invalid: string[] }> {
  const invalid: string[] = [];
  const emails = new Set<string>();
  for (const raw of list.emails) {
    const parsed = emailSchema.safeParse(raw);
    if (parsed.success) emails.add(parsed.data);
    else invalid.push(raw);
  }
  if (emails.size === 0) {
    // Nothing to add: still only for admins (a participant learns nothing from a list of non-addresses).
    return { workspace: await authorizeWorkspace(db, workspaceId, userId, 'manageMembers'), admitted: [], alreadyMembers: [], invalid };
  }
  const entries = [...emails].map((email) => ({ email, role: list.role }));
  const { workspace, people, admitted } = await addWorkspaceMembers(db, userId, workspaceId, entries, invitePeople);
  const alreadyMembers = people.flatMap((p) => (p.member && p.user ? [p.user] : []));
  return { workspace, admitted: people.flatMap((p) => (admitted.has(p.index) ? [admitted.get(p.index) as UserRow] : [])), alreadyMembers, invalid };
}

/** Changes a member's role (admins; never the last admin's). 404 for no such member. A lower role may take pages away (a guest has no shared section): `accessLost`. */
export async function changeMemberRole(
  db: Kysely<Database>,
  callerId: string,
  workspaceId: string,
  memberId: string,
  role: WorkspaceRole,
): Promise<{ workspace: WorkspaceWithRole; events: DomainEvent[] }> {
  const workspace = await authorizeWorkspace(db, workspaceId, callerId, 'manageMembers');
  await changeMember(
    db,
    workspace.id,
    memberId,
    (trx) => setMemberRoleRow(trx, workspace.id, memberId, role),
    (current) => current !== role,
  );
  return { workspace, events: [{ kind: 'accessLost', userId: memberId }] };
}

/** Removes a member (admins), or the caller leaves (anyone; never the last admin). 404 for no such member. Nothing of the workspace's pages may reach them any more: `accessLost`. */
export async function removeWorkspaceMember(db: Kysely<Database>, callerId: string, workspaceId: string, memberId: string): Promise<{ events: DomainEvent[] }> {
  const workspace = await membershipIn(db, workspaceId, callerId);
  if (!canRemoveMember(workspace.role, callerId, memberId)) throw forbidden('removing members');
  await changeMember(db, workspace.id, memberId, (trx) => deleteMembership(trx, workspace.id, memberId));
  return { events: [{ kind: 'accessLost', userId: memberId }] };
}
