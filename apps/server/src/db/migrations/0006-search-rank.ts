import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only (SQLite's index is unchanged).
 *
 * **A small tsvector to rank on, the large one out of line.** Matching still uses `document` (every
 * field, page text included) through its GIN index, but ranking reads `rank_document`: title and
 * tags (A), URL, description, AI description and category (B), notes (C), without the page text.
 * `ts_rank` reads the vector of every matching row, and with up to 8,000 characters of page text a
 * `document` is several kilobytes (compressed and out of line, so each read was a TOAST fetch and a
 * decompression). `document` is also stored uncompressed out of line once a row passes PostgreSQL's
 * ~2 kB toasting threshold, and such rows are then shrunk to 128 bytes where possible
 * (`toast_tuple_target`), so the heap rows a search visits stay narrow; a GIN match of plain words
 * needs no recheck and never reads `document`.
 *
 * **The user's own words, for typos.** `search_words` holds each user's distinct words (3+ letters)
 * of titles, tags, category, URL words, description starts and notes, with how many links use each,
 * kept by a trigger on `link_search` (insert, update and delete, cascades included), in code-point
 * order (`collate "C"`) so a range of first letters is an index range. A misspelt
 * word is corrected against the user's words that share its first letter, then searched as usual;
 * the trigram index over every user's `words` it replaces cost 0.6–1.2 s for a 100k-link user.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
}

const PAGE_TEXT_CHARS = 8000;

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`drop index link_search_words`.execute(db);
  await sql`alter table link_search add column rank_document tsvector not null default ''`.execute(db);
  await sql`alter table link_search alter column document set storage external`.execute(db);
  await sql`alter table link_search alter column rank_document set storage main`.execute(db);
  await sql`alter table link_search set (toast_tuple_target = 128)`.execute(db);

  await sql`
    create table search_words (
      user_id text not null references users(id) on delete cascade,
      word text collate "C" not null,
      links integer not null,
      primary key (user_id, word)
    )`.execute(db);
  await sql`
    create function search_words_of(p text) returns setof text language sql immutable as $$
      select distinct w from regexp_split_to_table(coalesce(p, ''), '[^[:alnum:]]+') w where length(w) >= 3
    $$`.execute(db);

  // One definition of both documents and the words; the owner token (D) is matched, never ranked.
  await sql`
    create or replace function link_search_refresh(p_link_id text) returns void language sql as $$
      insert into link_search (link_id, user_id, document, rank_document, words)
      select l.id, l.user_id,
        setweight(to_tsvector('simple', 'u' || replace(l.user_id, '-', '')), 'D') || r.doc ||
          setweight(to_tsvector('english', coalesce(left(p.text, ${sql.lit(PAGE_TEXT_CHARS)}), '')), 'C'),
        r.doc,
        lower(l.title || ' ' || tg.names || ' ' || coalesce(l.category, '') || ' ' ||
          regexp_replace(l.url, '[^[:alnum:]]+', ' ', 'g') || ' ' || left(l.description, 300) || ' ' || l.notes)
      from links l
      cross join lateral (
        select coalesce(string_agg(t.name, ' '), '') as names
        from link_tags lt join tags t on t.id = lt.tag_id where lt.link_id = l.id
      ) tg
      cross join lateral (
        select setweight(to_tsvector('english', l.title), 'A') ||
          setweight(to_tsvector('english', tg.names), 'A') ||
          setweight(to_tsvector('english', regexp_replace(l.url, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
          setweight(to_tsvector('english', l.description || ' ' || coalesce(l.ai_description, '') || ' ' ||
            coalesce(l.category, '')), 'B') ||
          setweight(to_tsvector('english', l.notes), 'C') as doc
      ) r
      left join page_contents p on p.link_id = l.id
      where l.id = p_link_id
      on conflict (link_id) do update
        set document = excluded.document, rank_document = excluded.rank_document, words = excluded.words
    $$`.execute(db);

  // Every row rewritten once: the new columns filled, and the document moved out of line.
  await sql`select link_search_refresh(id) from links`.execute(db);
  await sql`
    insert into search_words (user_id, word, links)
    select s.user_id, w, count(*) from link_search s cross join search_words_of(s.words) w group by 1, 2`.execute(db);

  await sql`
    create function link_search_words_changed() returns trigger language plpgsql as $$
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
      -- Words no longer used by this link: the last user of a word removes it.
      delete from search_words where user_id = owner and links <= 1 and word in (
        select search_words_of(before_words) except select search_words_of(after_words));
      update search_words set links = links - 1 where user_id = owner and word in (
        select search_words_of(before_words) except select search_words_of(after_words));
      insert into search_words (user_id, word, links)
      select owner, w, 1 from (select search_words_of(after_words) except select search_words_of(before_words)) n(w)
      on conflict (user_id, word) do update set links = search_words.links + 1;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger link_search_words after insert or update of words or delete on link_search
    for each row execute function link_search_words_changed()`.execute(db);
}
