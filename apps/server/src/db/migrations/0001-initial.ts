import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * The initial schema. One definition for both engines; the only differences are the binary type
 * (blob / bytea) and SQLite's need to declare generated columns inside CREATE TABLE.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const binary = engine === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_tokens_user').on('auth_tokens').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('normalized_url', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.generatedAlwaysAs(sql`lower(title)`).stored())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ai_description', 'text')
    .addColumn('category', 'text')
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_read_later', 'integer', (c) => c.notNull().defaultTo(0))
    // The spec's smart order: read-later scores 2, unread scores 1; indexed like any other sort key.
    .addColumn('smart_score', 'integer', (c) => c.generatedAlwaysAs(sql`is_read_later * 2 + (1 - is_read)`).stored())
    .addColumn('has_credentials', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favicon', 'text')
    .addColumn('analysis_status', 'text', (c) => c.notNull().defaultTo('done'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One index per sort the spec names, each led by user_id and ending in the newest-first tie-break.
  // Orders that are all-descending use these indexes backwards.
  const linkIndexes: [string, string[]][] = [
    ['links_user_url', ['user_id', 'normalized_url']],
    ['links_user_created', ['user_id', 'created_at', 'id']],
    ['links_user_updated', ['user_id', 'updated_at', 'created_at', 'id']],
    ['links_user_title', ['user_id', 'title_key', 'created_at', 'id']],
    ['links_user_unread_first', ['user_id', 'is_read', 'created_at desc', 'id desc']],
    ['links_user_read_later', ['user_id', 'is_read_later', 'created_at', 'id']],
    ['links_user_smart', ['user_id', 'smart_score', 'created_at', 'id']],
    ['links_user_category', ['user_id', 'category', 'created_at', 'id']],
  ];
  for (const [name, columns] of linkIndexes) {
    const index = db.schema.createIndex(name).on('links').columns(columns);
    await (name === 'links_user_url' ? index.unique() : index).execute();
  }

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('tags_user_name_key', ['user_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('link_tags')
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_tags_pk', ['link_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('link_tags_tag').on('link_tags').columns(['tag_id', 'link_id']).execute();

  await db.schema
    .createTable('credentials')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('iv', 'text', (c) => c.notNull())
    .addColumn('ciphertext', 'text', (c) => c.notNull())
    .addColumn('v', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('credentials_pk', ['link_id', 'id'])
    .execute();
  await db.schema.createIndex('credentials_user').on('credentials').column('user_id').execute();

  await db.schema
    .createTable('page_contents')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('content_hash', 'text')
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('embeddings')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dims', 'integer', (c) => c.notNull())
    .addColumn('vector', binary, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_at', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'run_at']).execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('plan', 'text')
    .addColumn('scheduled_plan', 'text')
    .addColumn('current_period_end', 'bigint')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('provider_customer_id', 'text')
    .addColumn('provider_subscription_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_provider_customer')
    .on('subscriptions')
    .columns(['provider', 'provider_customer_id'])
    .execute();

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkout_sessions_user').on('checkout_sessions').column('user_id').execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();
}
