import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only: saves of one user change that user's words (`search_words`, migrations 0006 and
 * 0008) one transaction at a time.
 *
 * The trigger that keeps each user's words locks a row per changed word. Two transactions saving
 * links of the same user could lock common words in opposite orders and deadlock, one save
 * failing: two saves that swap words (each counted its dropped word down, then waited to add the
 * other's), two edits that swap tags (a tag edit removes, then adds, in two statements), or an
 * edit adding a new word beside a link being created (the new word's foreign-key check waits for
 * the creating transaction's lock on the user). Ordering the words within one statement cannot
 * help across statements. Now the trigger first locks the user's row (`for no key update`, which
 * foreign-key checks do not wait for), as creating a link (`lockUser`) and deleting one (the link
 * counter of migration 0002) already do: every path takes the user first, then words. When the
 * user is being deleted, the row is gone and the lock finds nothing.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function link_search_words_changed() returns trigger language plpgsql as $$
    declare
      before_words text := '';
      after_words text := '';
      owner text;
    begin
      if tg_op <> 'INSERT' then
        before_words := old.words;
        owner := old.user_id;
      end if;
      if tg_op <> 'DELETE' then
        after_words := new.words;
        owner := new.user_id;
      end if;
      if before_words = after_words then
        return null;
      end if;
      -- One transaction at a time changes a user's words: the user first, then the words.
      perform 1 from users where id = owner for no key update;
      update search_words set links = links - 1 where user_id = owner and word in (
        select search_words_of(before_words) except select search_words_of(after_words));
      delete from search_words where user_id = owner and links <= 0 and word in (
        select search_words_of(before_words) except select search_words_of(after_words));
      insert into search_words (user_id, word, links)
      select owner, w, 1 from (select search_words_of(after_words) except select search_words_of(before_words)) n(w)
      order by w
      on conflict (user_id, word) do update set links = search_words.links + 1;
      return null;
    end
    $$`.execute(db);
}
