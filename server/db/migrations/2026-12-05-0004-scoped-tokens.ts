import type { Kysely } from 'kysely';

/**
 * Access tokens scoped to a workspace (issue 38, docs/api/auth.md «Workspace tokens»): a token
 * made for one workspace reaches that workspace only (`workspace_id`; null: a sign-in token of
 * `accesstoken/get`, reaching all its user's workspaces), may be read-only (`read_only`), and has
 * a name its maker gave it. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('access_tokens')
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('access_tokens').addColumn('name', 'text').execute();
  await db.schema
    .alterTable('access_tokens')
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('access_tokens_workspace').on('access_tokens').columns(['workspace_id', 'user_id']).execute();
}
