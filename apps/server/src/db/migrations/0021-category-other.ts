import type { Kysely } from 'kysely';

/**
 * The analysis's second category for a link it categorised, when one fitted almost as well
 * (decision 0024): the edit dialog offers it beside the first while the category is still the
 * analysis's (`category_by_analysis`). Nullable, so no existing row is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('category_other', 'text').execute();
}
