import { scopedWorkspace, workspaceInScope } from '../auth/tokenScope';
import type { Kysely } from 'kysely';
import { isPostgres } from '../db/connect';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../../schema/constants';
import { newId } from '../../schema/ids';
import type { Database, UserRow, WorkspaceRow } from '../db/types';
import { invalid, isUniqueViolation } from '../errors';
import { nowIso } from '../time';
import { inChunks } from '../db/inChunks';
import { insertUserWithWorkspace } from './users';

export interface WorkspaceWithRole {
  id: string;
  name: string;
  avatar: string | null;
  alias: string | null;
  is_private: number;
  role: WorkspaceRole;
}

/*
 * Every lookup of a user's own membership here counts only the workspace a workspace token
 * limits them to, while a request signed in with one runs (server/auth/tokenScope.ts): page
 * policies and workspace calls build on these, and so deny the others.
 */

/** The workspaces a user belongs to, oldest membership first (the first is their default). */
export function listUserWorkspaces(db: Kysely<Database>, userId: string): Promise<WorkspaceWithRole[]> {
  const only = scopedWorkspace(userId);
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.avatar', 'w.alias', 'w.is_private', 'm.role'])
    .where('m.user_id', '=', userId)
    .$if(only !== null, (q) => q.where('m.workspace_id', '=', only!))
    .orderBy('m.created_at')
    .orderBy('w.id')
    .execute() as Promise<WorkspaceWithRole[]>;
}

/** The user's role in a workspace, or undefined when they are not a member. */
export async function findMembership(db: Kysely<Database>, workspaceId: string, userId: string): Promise<WorkspaceWithRole | undefined> {
  if (!workspaceInScope(userId, workspaceId)) return undefined;
  return (await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.avatar', 'w.alias', 'w.is_private', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.workspace_id', '=', workspaceId)
    .executeTakeFirst()) as WorkspaceWithRole | undefined;
}

export function findWorkspace(db: Kysely<Database>, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export function isWireRole(role: string): role is WorkspaceRole {
  return (WORKSPACE_ROLES as readonly string[]).includes(role);
}

/** A new workspace with its creator as admin. */
export async function createWorkspace(
  db: Kysely<Database>,
  input: { name: string; avatar: string | null; isPrivate: boolean; userId: string },
): Promise<WorkspaceWithRole> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const workspace: WorkspaceRow = {
      id: newId(),
      name: input.name,
      avatar: input.avatar,
      alias: null,
      is_private: input.isPrivate ? 1 : 0,
      created_at: now,
    };
    await trx.insertInto('workspaces').values(workspace).execute();
    await trx.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: input.userId, role: 'admin', created_at: now }).execute();
    const { created_at: _created, ...rest } = workspace;
    return { ...rest, role: 'admin' };
  });
}

/**
 * Serializes membership changes of one workspace (PostgreSQL: a row lock on the workspace;
 * SQLite runs one write transaction at a time anyway), so two admins demoting each other at
 * once cannot leave the workspace without an admin.
 */
export async function lockWorkspace(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  if (isPostgres(trx)) {
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
  }
}

/** How many members a workspace has (with `role`: of that role). */
export async function countMembers(trx: Kysely<Database>, workspaceId: string, role?: WorkspaceRole): Promise<number> {
  let query = trx
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('workspace_id', '=', workspaceId);
  if (role) query = query.where('role', '=', role);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface WorkspacePatch {
  name?: string;
  avatar?: string | null;
  private?: boolean;
}

/** Changes name, avatar or private (the rules: commands/workspaces/update.ts). */
export async function updateWorkspaceRow(db: Kysely<Database>, id: string, patch: WorkspacePatch): Promise<void> {
  await db
    .updateTable('workspaces')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.avatar !== undefined ? { avatar: patch.avatar } : {}),
      ...(patch.private !== undefined ? { is_private: patch.private ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes a workspace and everything in it. Pages, blocks, page members, favourites, visits,
 * comments and reactions, notification settings and memberships go by foreign-key cascade;
 * notifications and file records (no foreign keys) are deleted here. Returns the storage keys
 * of the deleted files, whose bytes the caller removes once this has committed.
 */
export async function deleteWorkspace(db: Kysely<Database>, id: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const pageIds = trx.selectFrom('pages').select('id').where('workspace_id', '=', id);
    await trx
      .deleteFrom('notifications')
      .where((eb) => eb.or([eb('workspace_id', '=', id), eb('page_id', 'in', pageIds)]))
      .execute();
    const files = await trx
      .selectFrom('files')
      .select('storage_key')
      .where((eb) => eb.or([eb('workspace_id', '=', id), eb('page_id', 'in', pageIds)]))
      .execute();
    await trx
      .deleteFrom('files')
      .where((eb) => eb.or([eb('workspace_id', '=', id), eb('page_id', 'in', pageIds)]))
      .execute();
    await trx.deleteFrom('workspaces').where('id', '=', id).execute();
    return files.map((f) => f.storage_key);
  });
}

export interface MemberWithUser {
  role: WorkspaceRole;
  created_at: string;
  user: UserRow;
}

/** Members with a wire role (hidden roles are omitted), oldest first, optionally of some roles only. */
export async function listMembers(db: Kysely<Database>, workspaceId: string, roles?: readonly WorkspaceRole[]): Promise<MemberWithUser[]> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'm.created_at as joined_at', 'u.id', 'u.email', 'u.email_typed', 'u.name', 'u.avatar_url', 'u.telegram_id', 'u.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.role', 'in', roles && roles.length > 0 ? [...roles] : [...WORKSPACE_ROLES])
    .orderBy('m.created_at')
    .orderBy('u.id')
    .execute();
  return rows.map(({ role, joined_at, ...user }) => ({ role: role as WorkspaceRole, created_at: joined_at, user }));
}

/** One member with a wire role, or undefined (not a member, or a hidden role). */
export async function findMember(db: Kysely<Database>, workspaceId: string, userId: string): Promise<MemberWithUser | undefined> {
  if (!workspaceInScope(userId, workspaceId)) return undefined;
  const members = await db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'm.created_at as joined_at', 'u.id', 'u.email', 'u.email_typed', 'u.name', 'u.avatar_url', 'u.telegram_id', 'u.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .execute();
  const row = members[0];
  if (!row || !isWireRole(row.role)) return undefined;
  const { role, joined_at, ...user } = row;
  return { role, created_at: joined_at, user };
}

/** A person a call names: an existing user by id, or anyone by e-mail (already normalized). */
export type PersonRef = { userId: string } | { email: string };

/** A named person, resolved. */
export interface NamedPerson {
  /** Their position in the request's list. */
  index: number;
  ref: PersonRef;
  /** Their account; undefined for an e-mail without one (admitPeople creates it). */
  user: UserRow | undefined;
  /** Whether they are a member of the workspace already (with any role, hidden ones too). */
  member: boolean;
}

/**
 * Runs `work` in one transaction that first takes the workspace's membership lock, for calls that
 * add people (members/add, page member/add): their checks (who is a member, the inviter's
 * quota) and writes do not interleave with another such call. If a parallel sign-up created the
 * account of an invited address first (a unique violation), the whole transaction runs once more
 * and finds that account. `work` must do nothing but database work.
 */
export async function inMembershipTransaction<T>(db: Kysely<Database>, workspaceId: string, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        return work(trx);
      });
    } catch (error) {
      if (attempt >= 2 || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * Resolves the people a call names. Every `userId` must name a user, and nobody may be named twice
 * (twice by id, twice by e-mail, or by id and by e-mail at once); otherwise 422
 * validation_failed for the whole call, with `details` naming each bad entry as
 * `${prefix}.${index}` — the same answer from members/add and page member/add.
 */
export async function resolvePeople(trx: Kysely<Database>, workspaceId: string, refs: readonly PersonRef[], prefix: string): Promise<NamedPerson[]> {
  const byId = new Map<string, UserRow>();
  for (const chunk of inChunks([...new Set(refs.flatMap((r) => ('userId' in r ? [r.userId] : [])))])) {
    for (const user of await trx.selectFrom('users').selectAll().where('id', 'in', chunk).execute()) byId.set(user.id, user);
  }
  const byEmail = new Map<string, UserRow>();
  for (const chunk of inChunks([...new Set(refs.flatMap((r) => ('email' in r ? [r.email] : [])))])) {
    for (const user of await trx.selectFrom('users').selectAll().where('email', 'in', chunk).execute()) byEmail.set(user.email, user);
  }

  const problems: Array<{ path: string; message: string }> = [];
  const firstNamed = new Map<string, number>();
  const people: NamedPerson[] = refs.map((ref, index) => {
    const user = 'userId' in ref ? byId.get(ref.userId) : byEmail.get(ref.email);
    if ('userId' in ref && !user) problems.push({ path: `${prefix}.${index}.userId`, message: 'no such user' });
    const key = user ? `user:${user.id}` : 'userId' in ref ? `id:${ref.userId}` : `email:${ref.email}`;
    const first = firstNamed.get(key);
    if (first !== undefined) problems.push({ path: `${prefix}.${index}`, message: `names the same person as entry ${first}` });
    else firstNamed.set(key, index);
    return { index, ref, user, member: false };
  });
  if (problems.length > 0) throw invalid('some entries name no user, or the same person twice', problems);

  const members = new Set<string>();
  for (const chunk of inChunks(people.flatMap((p) => (p.user ? [p.user.id] : [])))) {
    const rows = await trx.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).where('user_id', 'in', chunk).execute();
    for (const row of rows) members.add(row.user_id);
  }
  for (const person of people) person.member = person.user !== undefined && members.has(person.user.id);
  return people;
}

/**
 * How many people `inviterId` brought into workspaces since `since` (all workspaces, from
 * workspace_members.invited_by), having taken a lock on the inviter (PostgreSQL: their user row)
 * so that their parallel calls cannot both pass on the same count.
 */
export async function countInvitedSince(trx: Kysely<Database>, inviterId: string, since: string): Promise<number> {
  if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', inviterId).forUpdate().execute();
  const row = await trx
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('invited_by', '=', inviterId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Makes people who are not members yet members with a role, recording who brought them in. An
 * e-mail without an account gets one first (with a private workspace of its own, as at
 * sign-up). Adding anyone makes a private workspace non-private. Returns the users in order.
 */
export async function admitPeople(
  trx: Kysely<Database>,
  workspaceId: string,
  inviterId: string,
  people: ReadonlyArray<{ person: NamedPerson; role: WorkspaceRole }>,
): Promise<UserRow[]> {
  if (people.length === 0) return [];
  const users: UserRow[] = [];
  for (const { person } of people) {
    if (person.member) throw new Error(`admitPeople: ${person.user?.id} is a member already`);
    users.push(person.user ?? (await insertUserWithWorkspace(trx, (person.ref as { email: string }).email)));
  }
  const now = nowIso();
  await trx
    .insertInto('workspace_members')
    .values(people.map(({ role }, i) => ({ workspace_id: workspaceId, user_id: users[i].id, role, created_at: now, invited_by: inviterId })))
    .execute();
  await trx.updateTable('workspaces').set({ is_private: 0 }).where('id', '=', workspaceId).execute();
  return users;
}

/** A member's stored role (undefined: not a member), read inside the caller's transaction. */
export async function findMemberRole(trx: Kysely<Database>, workspaceId: string, userId: string): Promise<string | undefined> {
  if (!workspaceInScope(userId, workspaceId)) return undefined;
  const row = await trx.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

export async function setMemberRoleRow(trx: Kysely<Database>, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

/**
 * Ends a membership: the member's page grants, favourites, visits, notification settings and
 * workspace tokens in this workspace go too, so a later re-invite starts clean — except their grants on the root
 * pages they created: those pages (and everything below them) stay theirs, out of everyone's
 * reach but people they were shared with, and come back to them when they are added again.
 */
export async function deleteMembership(trx: Kysely<Database>, workspaceId: string, userId: string): Promise<void> {
  const pageIds = trx.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId);
  const ownRoots = trx.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId).where('parent_id', 'is', null).where('created_by', '=', userId);
  await trx.deleteFrom('page_members').where('user_id', '=', userId).where('page_id', 'in', pageIds).where('page_id', 'not in', ownRoots).execute();
  for (const table of ['favorites', 'page_visits', 'notification_settings'] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).where('page_id', 'in', pageIds).execute();
  }
  // Their tokens for this workspace go too: re-added later, they do not come back to life.
  await trx.deleteFrom('access_tokens').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

/** A user's roles in any of these workspaces, by workspace (none: not a member). */
export async function rolesOfUser(db: Kysely<Database>, userId: string, workspaceIds: readonly string[]): Promise<Map<string, WorkspaceRole>> {
  const roles = new Map<string, WorkspaceRole>();
  for (const chunk of inChunks(workspaceIds.filter((id) => workspaceInScope(userId, id)))) {
    const rows = await db
      .selectFrom('workspace_members')
      .select(['workspace_id', 'role'])
      .where('user_id', '=', userId)
      .where('workspace_id', 'in', chunk)
      .execute();
    for (const row of rows) roles.set(row.workspace_id, row.role as WorkspaceRole);
  }
  return roles;
}

/** The ids among `userIds` that are members of the workspace. */
export async function membersAmong(db: Kysely<Database>, workspaceId: string, userIds: readonly string[]): Promise<Set<string>> {
  const members = new Set<string>();
  for (const chunk of inChunks([...userIds])) {
    const rows = await db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).where('user_id', 'in', chunk).execute();
    for (const row of rows) members.add(row.user_id);
  }
  return members;
}

/** The ids of a workspace's members. */
export async function listMemberIds(db: Kysely<Database>, workspaceId: string): Promise<string[]> {
  return (await db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).execute()).map((row) => row.user_id);
}
