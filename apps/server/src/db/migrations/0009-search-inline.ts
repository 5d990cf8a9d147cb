import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only: a search row keeps its ids and its ranking vector in the row; only `document`
 * goes out of line.
 *
 * Migration 0006 set `toast_tuple_target = 128` on `link_search` so that a row whose `document`
 * (page text included) passed PostgreSQL's ~2 kB toasting threshold would shrink to a narrow row.
 * PostgreSQL shrinks such a row by moving every attribute it can out of line until the row fits,
 * not only the largest: the link id, the owner id and `rank_document` went to the TOAST table too,
 * in every row of a link with page text. Each search then fetched them from there, row by row:
 * the title walks read `rank_document` out of line, and every comparison of a sort by link id
 * fetched both ids (3,534 GIN rows of a 100k-link user sorted by id: 83,012 TOAST blocks and 249,037
 * TOAST index blocks, 120 ms of 134 ms; bench/RESULTS.md, "Search speed, round 5").
 *
 * The default target is back: a row over the threshold moves `document` (the largest attribute,
 * `external`) out and stops once under ~2 kB. The ids are `plain` storage, never moved or
 * compressed, whatever a row holds. The rows of links with page text are rewritten with fresh ids
 * and ranking vector, so they are laid out anew (`document` keeps its out-of-line value, which is
 * not copied). The two GIN indexes are dropped for the rewrite and built again once, as in 0008.
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
  // A new value for each column to bring back in line (the same text), so the row is formed again
  // under the new rules; `words` and `document` are left out, so their triggers do not fire.
  await sql`
    update link_search s
    set link_id = s.link_id || '', user_id = s.user_id || '', rank_document = s.rank_document || ''::tsvector
    where exists (select 1 from page_contents p where p.link_id = s.link_id)`.execute(db);
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  await sql`create index link_search_document on link_search using gin (document)`.execute(db);
  await sql`create index link_search_head on link_search using gin (link_search_head(rank_document, user_id))`.execute(
    db,
  );
}
