import type { Kysely } from 'kysely';
import { applySearchSchema } from '../../modules/search-index/search-index.js';
import type { Engine } from '../database.js';

/**
 * The search index on both engines (full-text index, its triggers, the typo and prefix word lists,
 * the vector log), installed from its source in `modules/search-index` and filled from the links.
 *
 * Migrations 0004–0010 built it step by step before the first release; they were squashed into
 * this one (decision 0008). A database that ran them is brought to the source by 0012.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await applySearchSchema(db, engine);
}
