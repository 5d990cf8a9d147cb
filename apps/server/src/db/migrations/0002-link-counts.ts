import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * `users.link_count`: every list request reports how many links the user owns, and counting 100k
 * index entries per request cost 6 ms on SQLite and 12 ms on PostgreSQL (bench/RESULTS.md). Triggers
 * keep the counter exact whatever inserts or deletes links (the API, imports, cascades), inside the
 * same transaction as the change.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('link_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update users set link_count = (select count(*) from links where links.user_id = users.id)`.execute(db);

  if (engine === 'sqlite') {
    await sql`
      create trigger links_count_insert after insert on links begin
        update users set link_count = link_count + 1 where id = new.user_id;
      end`.execute(db);
    await sql`
      create trigger links_count_delete after delete on links begin
        update users set link_count = link_count - 1 where id = old.user_id;
      end`.execute(db);
    return;
  }

  await sql`
    create function links_count_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update users set link_count = link_count + 1 where id = new.user_id;
      else
        update users set link_count = link_count - 1 where id = old.user_id;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger links_count after insert or delete on links
    for each row execute function links_count_change()`.execute(db);
}
