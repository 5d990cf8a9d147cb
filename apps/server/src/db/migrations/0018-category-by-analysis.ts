import type { Kysely } from 'kysely';

/**
 * Whether a link's category is the analysis's (it filled an empty one) rather than the user's: the
 * category model counts the user's own choices fully as neighbours, the analysis's less (decision
 * 0015). Recorded on the analysis's side, so saving a link writes no new column. Links categorised
 * before this read as the user's: which of their categories the analysis chose was not recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('links')
    .addColumn('category_by_analysis', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
