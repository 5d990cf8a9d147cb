import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only: the trigger that keeps each user's words (`search_words`, migrations 0006 and
 * 0008) takes its row locks in one order.
 *
 * 0008's version counted the link's dropped words down, then added its new words in word order.
 * Two saves of one user's links that swap words (one drops a word the other adds, and the other
 * way round) each locked a dropped word first, then waited for the other's: a deadlock, and one
 * save failed. Now a save first locks the rows of all its changed words that exist, in word order,
 * then counts down, removes the words no link uses, and adds the new ones in word order: two saves
 * wait for each other at their first common word, holding none of the other's. (Words are only
 * inserted when added: a link deleted with its user must not recreate the user's words.)
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
      -- Every changed word's row, in word order, before any count changes.
      perform 1 from search_words where user_id = owner and word in (
        (select search_words_of(before_words) except select search_words_of(after_words))
        union (select search_words_of(after_words) except select search_words_of(before_words)))
      order by word for update;
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
