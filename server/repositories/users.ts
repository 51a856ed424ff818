import { scopedWorkspace } from '../auth/tokenScope';
import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import { USER_SETTINGS, type UserSettings } from '../../schema/user';
import type { Database, UserRow } from '../db/types';
import { isUniqueViolation } from '../errors';
import { nowIso } from '../time';

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Notes a retention goal the user reached, once (a repeat keeps the first); answers when it was first reached. */
export async function recordGoal(db: Kysely<Database>, userId: string, goal: string): Promise<string> {
  await db
    .insertInto('retention_goals')
    .values({ user_id: userId, goal, reached_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'goal']).doNothing())
    .execute();
  const row = await db.selectFrom('retention_goals').select('reached_at').where('user_id', '=', userId).where('goal', '=', goal).executeTakeFirstOrThrow();
  return row.reached_at;
}

/** Users by id (those that exist), for naming people: id, name and e-mail. */
export async function findUsersByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Array<Pick<UserRow, 'id' | 'name' | 'email'>>> {
  return ids.length === 0 ? [] : db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', ids).execute();
}

export function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new user with a private workspace of their own, where they are admin. */
export async function createUserWithWorkspace(db: Kysely<Database>, email: string): Promise<UserRow> {
  return db.transaction().execute((trx) => insertUserWithWorkspace(trx, email));
}

/** createUserWithWorkspace inside a transaction the caller runs (invitations create accounts with other writes). */
export async function insertUserWithWorkspace(trx: Kysely<Database>, email: string): Promise<UserRow> {
  const now = nowIso();
  const user: UserRow = {
    id: newId(),
    email,
    email_typed: null,
    name: email.split('@')[0],
    avatar_url: null,
    telegram_id: null,
    created_at: now,
  };
  await trx.insertInto('users').values(user).execute();
  const workspaceId = newId();
  await trx.insertInto('workspaces').values({ id: workspaceId, name: user.name, avatar: null, alias: null, is_private: 1, created_at: now }).execute();
  await trx.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: user.id, role: 'admin', created_at: now }).execute();
  return user;
}

/** The user with this e-mail, created (with a private workspace) on first use; safe against a parallel create. */
export async function findOrCreateUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow> {
  const existing = await findUserByEmail(db, email);
  if (existing) return existing;
  try {
    return await createUserWithWorkspace(db, email);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await findUserByEmail(db, email);
    if (!winner) throw error;
    return winner;
  }
}

/**
 * The person signing in with this e-mail (`typed` as they wrote it: matched in lower case), created
 * on first use; the way they wrote it is kept to be shown (`email_typed`, null when it is the
 * lower-case form), so «Ivan.Petrov@Example.ru» reads as typed.
 */
export async function signingInUser(db: Kysely<Database>, typed: string): Promise<UserRow> {
  const user = await findOrCreateUserByEmail(db, typed.toLowerCase());
  const shown = typed === user.email ? null : typed;
  if (user.email_typed === shown) return user;
  await db.updateTable('users').set({ email_typed: shown }).where('id', '=', user.id).execute();
  return { ...user, email_typed: shown };
}

/** A person's e-mail as shown: as they typed it when signing in, else the lower-case form. */
export const shownEmail = (user: Pick<UserRow, 'email' | 'email_typed'>): string => user.email_typed ?? user.email;

/**
 * Of these user ids, the users a viewer may see: themselves and anyone who shares a workspace
 * with them. Unknown ids and strangers are simply absent.
 */
export async function findVisibleUsers(db: Kysely<Database>, viewerId: string, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  // A workspace token's request: the people of that workspace only (server/auth/tokenScope.ts).
  const only = scopedWorkspace(viewerId);
  return db
    .selectFrom('users as u')
    .selectAll('u')
    .where('u.id', 'in', [...ids])
    .where((eb) =>
      eb.or([
        eb('u.id', '=', viewerId),
        eb.exists(
          eb
            .selectFrom('workspace_members as theirs')
            .innerJoin('workspace_members as mine', 'mine.workspace_id', 'theirs.workspace_id')
            .select('theirs.user_id')
            .whereRef('theirs.user_id', '=', 'u.id')
            .where('mine.user_id', '=', viewerId)
            .$if(only !== null, (q) => q.where('mine.workspace_id', '=', only!)),
        ),
      ]),
    )
    .execute();
}

export async function updateUserProfile(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string; avatar_url?: string | null },
): Promise<UserRow | undefined> {
  if (changes.name === undefined && changes.avatar_url === undefined) return findUserById(db, id);
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** A user's stored settings: key → JSON text. */
export async function listUserSettings(db: Kysely<Database>, userId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('user_settings').select(['key', 'value']).where('user_id', '=', userId).execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** A user's every known setting: the stored value when it is still valid, else the default. */
export async function readUserSettings(db: Kysely<Database>, userId: string): Promise<UserSettings> {
  const stored = await listUserSettings(db, userId);
  const settings: Record<string, unknown> = {};
  for (const [key, { schema, default: fallback }] of Object.entries(USER_SETTINGS)) {
    const raw = stored.get(key);
    let value: unknown = fallback;
    if (raw !== undefined) {
      try {
        const parsed = schema.safeParse(JSON.parse(raw));
        if (parsed.success) value = parsed.data;
      } catch {
        // keep the default
      }
    }
    settings[key] = value;
  }
  return settings as UserSettings;
}

/** Stores one setting (JSON text), replacing an earlier value. */
export async function saveUserSetting(db: Kysely<Database>, userId: string, key: string, value: string): Promise<void> {
  const updatedAt = nowIso();
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, key, value, updated_at: updatedAt })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: updatedAt }))
    .execute();
}
