import type { Kysely } from 'kysely';

/**
 * Whether the user chose a link's category (typed or kept it when saving, edited it, set it in bulk,
 * imported it from their folders) rather than the analysis filling an empty one: the category model
 * counts the user's confirmed links fully as neighbours, the others less (decision 0015). Links saved
 * before it read as unconfirmed: which of their categories the user chose was not recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('links')
    .addColumn('category_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
