import type { Kysely } from 'kysely';

/**
 * Tables for the whole main API: favourites, recents, comments and reactions, notifications and
 * their per-page settings, files, user settings, access tokens, messenger links, OAuth states;
 * soft delete for blocks and pages' publishing and trash fields. Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pages').addColumn('alias', 'text').execute();
  await db.schema.alterTable('pages').addColumn('published_by', 'text').execute();
  await db.schema.alterTable('pages').addColumn('published_at', 'text').execute();
  await db.schema.alterTable('pages').addColumn('trashed_at', 'text').execute();
  await db.schema.alterTable('pages').addColumn('trashed_by', 'text').execute();
  await db.schema.createIndex('pages_alias').on('pages').column('alias').unique().execute();
  await db.schema.createIndex('pages_trash').on('pages').columns(['workspace_id', 'in_trash']).execute();

  await db.schema.alterTable('blocks').addColumn('deleted_at', 'text').execute();

  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'page_id'])
    .execute();

  await db.schema
    .createTable('page_visits')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('visited_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_visits_pk', ['user_id', 'page_id'])
    .execute();
  await db.schema.createIndex('page_visits_recent').on('page_visits').columns(['user_id', 'visited_at']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('replied_comment_id', 'text')
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('attaches', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('comments_page').on('comments').columns(['page_id', 'created_at']).execute();
  await db.schema.createIndex('comments_replied').on('comments').columns(['replied_comment_id', 'created_at']).execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_id', 'user_id', 'code'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'page_id'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text')
    .addColumn('workspace_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('upload_token_hash', 'text')
    .addColumn('upload_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_page').on('files').column('page_id').execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_settings_pk', ['user_id', 'key'])
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();

  await db.schema
    .createTable('messenger_link_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'oauth_states',
    'messenger_link_tokens',
    'access_tokens',
    'user_settings',
    'files',
    'notification_settings',
    'notifications',
    'comment_reactions',
    'comments',
    'page_visits',
    'favorites',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('blocks').dropColumn('deleted_at').execute();
  await db.schema.dropIndex('pages_trash').execute();
  await db.schema.dropIndex('pages_alias').execute();
  for (const column of ['trashed_by', 'trashed_at', 'published_at', 'published_by', 'alias']) {
    await db.schema.alterTable('pages').dropColumn(column).execute();
  }
}
