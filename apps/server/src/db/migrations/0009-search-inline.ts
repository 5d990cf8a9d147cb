import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only: a search row keeps its ids in line; only `document` goes out of line.
 *
 * Migration 0006 set `toast_tuple_target = 128` on `link_search` so that a row past PostgreSQL's
 * ~2 kB toasting threshold (page text, or long notes or descriptions) would shrink to a narrow row
 * with only its `document` out of line. PostgreSQL shrinks such a row by moving out of line every
 * attribute it can until the row fits, not only the largest: the link id, the owner id and `words`
 * went to the TOAST table too (`rank_document`, `main` storage, stayed). Any expression on an id
 * then fetched it from there, row by row: the owner test of the GIN branches, and every comparison
 * of a sort by link id (3,534 GIN rows of a 100k-link user sorted by id: 83,012 TOAST blocks and
 * 249,037 TOAST index blocks, 120 ms of 134 ms; bench/RESULTS.md, "Search speed, round 5").
 *
 * The default target is back: a row over the threshold moves `document` (the largest attribute,
 * `external`) out and stops once under ~2 kB. The ids are `plain` storage, never moved or
 * compressed whatever a row holds (stored with a 4-byte length header: 3 bytes more each). Rows
 * with an id out of line are rewritten with fresh ids, words and ranking vector, so they are laid
 * out anew; `document` keeps its out-of-line value, which is not copied. A later save would not
 * mend such a row: it rewrites the documents and words but carries the ids over as they are
 * stored. An id out of line reports its bytes alone to `pg_column_size`, one in line its length
 * header too. The two GIN indexes are dropped for the rewrite and built again once, as in 0008;
 * the rewritten rows' old versions are left to vacuum.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table link_search reset (toast_tuple_target)`.execute(db);
  await sql`alter table link_search alter column link_id set storage plain, alter column user_id set storage plain`.execute(
    db,
  );

  await sql`drop index link_search_document`.execute(db);
  await sql`drop index link_search_head`.execute(db);
  // A new value for each column to bring back in line (the same text). `document` is left out, so
  // the lexeme trigger does not fire; the words trigger does, and returns at once (words unchanged).
  await sql`
    update link_search s
    set link_id = s.link_id || '', user_id = s.user_id || '', words = s.words || '',
      rank_document = s.rank_document || ''::tsvector
    where pg_column_size(s.link_id) <= octet_length(s.link_id) or pg_column_size(s.user_id) <= octet_length(s.user_id)`.execute(
    db,
  );
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  await sql`create index link_search_document on link_search using gin (document)`.execute(db);
  await sql`create index link_search_head on link_search using gin (link_search_head(rank_document, user_id))`.execute(
    db,
  );
  await sql`analyze link_search`.execute(db);
}
