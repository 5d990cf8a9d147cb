import type { Kysely } from 'kysely';
import { applySearchSchema } from '../../modules/search-index/search-index.js';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: bulk writes (imports) index their links once, after writing them, instead of once
 * per link and once more per tag (`link_search_add`, and the transaction-local switch the indexing
 * triggers read; decision 0009 §5). Brought from the source like 0012: functions replaced in place,
 * the index's rows unchanged, no rebuild. SQLite: nothing differs.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await applySearchSchema(db, engine);
}
