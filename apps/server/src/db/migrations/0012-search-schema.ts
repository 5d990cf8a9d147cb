import type { Kysely } from 'kysely';
import { applySearchSchema } from '../../modules/search-index/search-index.js';
import type { Engine } from '../database.js';

/**
 * Brings the search index to its source (`modules/search-index`) on a database that ran the
 * development versions of 0004–0010, squashed into 0004 since (decision 0008): their functions,
 * triggers and views are replaced by the generated ones, and the index is rebuilt once from the
 * links (on PostgreSQL about a minute per million links). On a database 0004 installed, nothing.
 *
 * A later change to the search index is a migration like this one: the source edited, then
 * `applySearchSchema`, which replaces what differs and rebuilds the index when what it holds changes.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await applySearchSchema(db, engine);
}
