import { PostgresAdapter, type Kysely } from 'kysely';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import type { Database, UserRow, WorkspaceRow } from '../db/types';
import { AppError } from '../errors';
import { nowIso } from '../time';

export interface WorkspaceWithRole {
  id: string;
  name: string;
  avatar: string | null;
  alias: string | null;
  is_private: number;
  role: WorkspaceRole;
}

/** The workspaces a user belongs to, oldest membership first (the first is their default). */
export function listUserWorkspaces(db: Kysely<Database>, userId: string): Promise<WorkspaceWithRole[]> {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.avatar', 'w.alias', 'w.is_private', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .orderBy('w.id')
    .execute() as Promise<WorkspaceWithRole[]>;
}

/** The user's role in a workspace, or undefined when they are not a member. */
export async function findMembership(
  db: Kysely<Database>,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceWithRole | undefined> {
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
async function lockWorkspace(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
  }
}

async function memberCount(trx: Kysely<Database>, workspaceId: string, role?: WorkspaceRole): Promise<number> {
  let query = trx.selectFrom('workspace_members').select((eb) => eb.fn.countAll<string | number>().as('n')).where('workspace_id', '=', workspaceId);
  if (role) query = query.where('role', '=', role);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface WorkspacePatch {
  name?: string;
  avatar?: string | null;
  private?: boolean;
}

/** Changes name, avatar or private. A workspace with other members cannot be made private. */
export async function updateWorkspace(db: Kysely<Database>, id: string, patch: WorkspacePatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, id);
    if (patch.private === true && (await memberCount(trx, id)) > 1) {
      throw new AppError(422, ERROR_CODES.validationFailed, 'a workspace with other members cannot be private; remove them first');
    }
    await trx
      .updateTable('workspaces')
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.avatar !== undefined ? { avatar: patch.avatar } : {}),
        ...(patch.private !== undefined ? { is_private: patch.private ? 1 : 0 } : {}),
      })
      .where('id', '=', id)
      .execute();
  });
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
    .select(['m.role', 'm.created_at as joined_at', 'u.id', 'u.email', 'u.name', 'u.avatar_url', 'u.telegram_id', 'u.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.role', 'in', roles && roles.length > 0 ? [...roles] : [...WORKSPACE_ROLES])
    .orderBy('m.created_at')
    .orderBy('u.id')
    .execute();
  return rows.map(({ role, joined_at, ...user }) => ({ role: role as WorkspaceRole, created_at: joined_at, user }));
}

/** One member with a wire role, or undefined (not a member, or a hidden role). */
export async function findMember(db: Kysely<Database>, workspaceId: string, userId: string): Promise<MemberWithUser | undefined> {
  const members = await db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'm.created_at as joined_at', 'u.id', 'u.email', 'u.name', 'u.avatar_url', 'u.telegram_id', 'u.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .execute();
  const row = members[0];
  if (!row || !isWireRole(row.role)) return undefined;
  const { role, joined_at, ...user } = row;
  return { role, created_at: joined_at, user };
}

/**
 * Adds users with their roles; users who are members already keep their role. Adding anyone
 * makes a private workspace non-private. Returns the ids actually added.
 */
export async function addMembers(
  db: Kysely<Database>,
  workspaceId: string,
  members: ReadonlyArray<{ userId: string; role: WorkspaceRole }>,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const existing = await trx
      .selectFrom('workspace_members')
      .select('user_id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', 'in', members.map((m) => m.userId))
      .execute();
    const present = new Set(existing.map((e) => e.user_id));
    const fresh = members.filter((m) => !present.has(m.userId));
    if (fresh.length === 0) return [];
    const now = nowIso();
    await trx
      .insertInto('workspace_members')
      .values(fresh.map((m) => ({ workspace_id: workspaceId, user_id: m.userId, role: m.role, created_at: now })))
      .execute();
    await trx.updateTable('workspaces').set({ is_private: 0 }).where('id', '=', workspaceId).execute();
    return fresh.map((m) => m.userId);
  });
}

const lastAdmin = () => new AppError(422, ERROR_CODES.workspaceLastAdmin, 'the workspace needs at least one admin');

/** Changes a member's role; the last admin cannot be demoted (422 workspace.last_admin). False when not a member. */
export async function setMemberRole(db: Kysely<Database>, workspaceId: string, userId: string, role: WorkspaceRole): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const member = await trx
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member || !isWireRole(member.role)) return false;
    if (member.role === role) return true;
    if (member.role === 'admin' && (await memberCount(trx, workspaceId, 'admin')) <= 1) throw lastAdmin();
    await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
    return true;
  });
}

/**
 * Removes a member; the last admin cannot be removed (422 workspace.last_admin). Their page
 * grants, favourites, visits and notification settings in this workspace go too, so a later
 * re-invite starts clean. False when not a member.
 */
export async function removeMember(db: Kysely<Database>, workspaceId: string, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const member = await trx
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member || !isWireRole(member.role)) return false;
    if (member.role === 'admin' && (await memberCount(trx, workspaceId, 'admin')) <= 1) throw lastAdmin();
    const pageIds = trx.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId);
    for (const table of ['page_members', 'favorites', 'page_visits', 'notification_settings'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).where('page_id', 'in', pageIds).execute();
    }
    await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
    return true;
  });
}
