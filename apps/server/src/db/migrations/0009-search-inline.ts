/**
 * Squashed into 0004 (decision 0008): the search index is installed from `modules/search-index`.
 * Kept, empty, because Kysely refuses to migrate a database that ran a migration it no longer has.
 */
export function up(): Promise<void> {
  return Promise.resolve();
}
