import type { Kysely } from 'kysely';

/**
 * Who brought a member into a workspace (members/add, or sharing a page with someone from
 * outside): null for the creator and for rows made before this column. Invitations are limited
 * per inviting user by counting their recent rows here, so the limit holds across processes.
 * Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspace_members').addColumn('invited_by', 'text').execute();
  await db.schema.createIndex('workspace_members_invited_by').on('workspace_members').columns(['invited_by', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('workspace_members_invited_by').execute();
  await db.schema.alterTable('workspace_members').dropColumn('invited_by').execute();
}
