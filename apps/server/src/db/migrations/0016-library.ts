import type { Kysely } from 'kysely';

/**
 * The library as a daily tool (decision 0014): why a link's analysis failed and when it started, so
 * the card can say so; the favicon kept as a small data URL (the browser never asks the page's host);
 * per-link open counts and per-month search counts for Profile. Counts live in tables of their own so
 * counting an open never touches `links` (its triggers keep the search index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('analysis_error', 'text').execute();
  await db.schema.alterTable('links').addColumn('analysis_error_status', 'integer').execute();
  await db.schema.alterTable('links').addColumn('analysis_started_at', 'bigint').execute();
  await db.schema.alterTable('links').addColumn('favicon_data', 'text').execute();
  await db.schema
    .createTable('link_clicks')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_clicked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_clicks_user').on('link_clicks').column('user_id').execute();
  await db.schema
    .createTable('search_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_counts_pk', ['user_id', 'month'])
    .execute();
}
