import type { Kysely } from 'kysely';
import type { WorkspaceRole } from '../../schema/constants';
import type { Database } from '../db/types';

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
