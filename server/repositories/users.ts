import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import type { Database, UserRow } from '../db/types';
import { nowIso } from '../time';

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new user with a private workspace of their own, where they are admin. */
export async function createUserWithWorkspace(db: Kysely<Database>, email: string): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const user: UserRow = {
      id: newId(),
      email,
      name: email.split('@')[0],
      avatar_url: null,
      telegram_id: null,
      created_at: now,
    };
    await trx.insertInto('users').values(user).execute();
    const workspaceId = newId();
    await trx
      .insertInto('workspaces')
      .values({ id: workspaceId, name: user.name, avatar: null, alias: null, is_private: 1, created_at: now })
      .execute();
    await trx
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: user.id, role: 'admin', created_at: now })
      .execute();
    return user;
  });
}
