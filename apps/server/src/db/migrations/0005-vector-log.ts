import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * A log of the links whose vector changed, one row per move of `users.search_version` (`seq` is the
 * version that move produced), so a cached vector matrix can be brought up to date by re-reading
 * only those links instead of all of the user's vectors. Written by the same triggers that move the
 * version, in the same transaction: a version a reader sees always has its log rows.
 *
 * The log keeps the last LOG_KEEP moves of each user, pruned every PRUNE_EVERY moves; a cache older
 * than that finds rows missing (fewer rows than moves) and loads the whole matrix again.
 */
export const LOG_KEEP = 20000;
const PRUNE_EVERY = 1024;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('search_vector_log')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('link_id', 'text', (c) => c.notNull())
    .execute();
  // Not unique: a write must never fail on the log; a duplicate only makes a reader reload in full.
  await db.schema
    .createIndex('search_vector_log_user_seq')
    .on('search_vector_log')
    .columns(['user_id', 'seq'])
    .execute();
  if (engine === 'sqlite') await sqlite(db);
  else await postgres(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  /** Moves the owner's version and logs the link; `owner` selects the user id (nothing: no move). */
  const bump = (owner: string, linkId: string) =>
    sql.raw(`
      update users set search_version = search_version + 1 where id = (${owner});
      insert into search_vector_log(user_id, seq, link_id)
        select id, search_version, ${linkId} from users where id = (${owner});`);

  await sql`
    create trigger search_vector_log_prune after insert on search_vector_log
    when new.seq % ${sql.lit(PRUNE_EVERY)} = 0 begin
      delete from search_vector_log where user_id = new.user_id and seq <= new.seq - ${sql.lit(LOG_KEEP)};
    end`.execute(db);
  await sql`drop trigger links_search_delete`.execute(db);
  await sql`
    create trigger links_search_delete after delete on links begin
      delete from link_fts where rowid = (select rowid from search_docs where link_id = old.id);
      delete from search_docs where link_id = old.id;
      ${bump('select old.user_id', 'old.id')}
    end`.execute(db);
  for (const [event, row] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`drop trigger ${sql.raw(`embeddings_search_${event}`)}`.execute(db);
    await sql`
      create trigger ${sql.raw(`embeddings_search_${event}`)} after ${sql.raw(event)} on embeddings begin
        ${bump(`select user_id from links where id = ${row}.link_id`, `${row}.link_id`)}
      end`.execute(db);
  }
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function search_vector_moved(p_user_id text, p_link_id text) returns void language plpgsql as $$
    declare
      v bigint;
    begin
      update users set search_version = search_version + 1 where id = p_user_id returning search_version into v;
      if not found then
        return;
      end if;
      insert into search_vector_log(user_id, seq, link_id) values (p_user_id, v, p_link_id);
      if v % ${sql.lit(PRUNE_EVERY)} = 0 then
        delete from search_vector_log where user_id = p_user_id and seq <= v - ${sql.lit(LOG_KEEP)};
      end if;
    end
    $$`.execute(db);
  await sql`
    create or replace function links_search_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform search_vector_moved(old.user_id, old.id);
      else
        perform link_search_refresh(new.id);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create or replace function embeddings_search_changed() returns trigger language plpgsql as $$
    declare
      l text := case when tg_op = 'DELETE' then old.link_id else new.link_id end;
    begin
      perform search_vector_moved((select user_id from links where id = l), l);
      return null;
    end
    $$`.execute(db);
}
