import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL only: the ranking tiers SQLite uses since migration 0007, and what lets a large
 * library's search stop early or ask GIN for little (`SearchRepository.textHits`).
 *
 * **Tiers, not `ts_rank`.** Results are ordered as on SQLite: every word in the title, then every
 * word in the title or tags, then the rest, newest first within each. `rank_document` now weighs
 * the title A, the tags B and its other fields (URL words, description, AI description, category,
 * notes) C, so a tier is a weight-restricted match on it (`'word':A`, `'word':AB`). `ts_rank` read
 * the vector of every match before it could return the best 100: ~10,000 rows for a common word in
 * a 100k-link library among 1.1M links.
 *
 * **The user's rows newest first.** `(user_id, link_id)` replaces the `user_id` index: link ids are
 * time-ordered, so a tier's newest matches are a backward walk over the user's own rows that stops
 * at the limit. (A walk over the primary key reads every user's rows.)
 *
 * **For a tier the walk finds too few of, GIN asked for little.** `link_search_head` (an expression
 * index: title and tags with the owner's token) answers the title tiers from a 24 MB index instead
 * of the 135 MB one over everything. `search_lexemes` holds every lexeme ever indexed (owner tokens
 * aside; it only grows), kept by a trigger on `link_search` that adds a saved document's new
 * lexemes, so a typed prefix becomes the few stored lexemes it starts, which GIN intersects with the
 * owner's entries cheaply; GIN answers a prefix itself by collecting every user's entries for it.
 * Measured: +0.3 ms per saved page of known words, up to +3 ms for a page of 250 words never seen
 * before (bench/RESULTS.md, "Search speed, round 4").
 *
 * **Concurrent saves.** `search_lexemes` has no unique index, so a save never waits for another
 * user's (a rare duplicate lexeme is harmless). Migration 0006's trigger for each user's words is
 * replaced by one that adds new words in one order and counts a word down before removing it: two
 * saves of one user adding the same new words in different orders deadlocked, and two dropping
 * the same word could leave it at a count of 0 (such words are removed here).
 *
 * Only `rank_document` is rewritten; `document` keeps the old weights until its link is next saved,
 * which changes nothing: it is matched without weights. The GIN index over `document` is dropped
 * for the rewrite and built again once, which costs less than updating it for every rewritten row.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
}

const PAGE_TEXT_CHARS = 8000;

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create index link_search_user_link on link_search (user_id, link_id)`.execute(db);
  await sql`drop index link_search_user`.execute(db);

  // The ranking vector from a link's fields: one definition for the trigger's refresh and the rewrite.
  await sql`
    create function link_rank_document(title text, tag_names text, url text, description text,
      ai_description text, category text, notes text) returns tsvector language sql immutable as $$
      select setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', tag_names), 'B') ||
        setweight(to_tsvector('english', regexp_replace(url, '[^[:alnum:]]+', ' ', 'g')), 'C') ||
        setweight(to_tsvector('english', description || ' ' || coalesce(ai_description, '') || ' ' ||
          coalesce(category, '') || ' ' || notes), 'C')
    $$`.execute(db);
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
        select link_rank_document(l.title, tg.names, l.url, l.description, l.ai_description, l.category, l.notes) as doc
      ) r
      left join page_contents p on p.link_id = l.id
      where l.id = p_link_id
      on conflict (link_id) do update
        set document = excluded.document, rank_document = excluded.rank_document, words = excluded.words
    $$`.execute(db);

  // Title and tags with the owner's token: a small GIN index for the title tiers of large libraries.
  await sql`
    create function link_search_head(rank_document tsvector, user_id text) returns tsvector
    language sql immutable as $$
      select ts_filter(rank_document, '{a,b}') || setweight(to_tsvector('simple', 'u' || replace(user_id, '-', '')), 'D')
    $$`.execute(db);

  // Every lexeme ever indexed (owner tokens aside), for prefix expansion; it only grows.
  // Not unique: a unique index makes a save wait for any other save adding the same new lexeme
  // until it commits, and two saves (of any users) adding two such lexemes in opposite orders, in
  // transactions that re-index more than once, deadlocked. A rare duplicate costs nothing.
  await sql`create table search_lexemes (lexeme text collate "C" not null)`.execute(db);
  await sql`create index search_lexemes_lexeme on search_lexemes (lexeme)`.execute(db);
  await sql`
    create function search_lexemes_add() returns trigger language plpgsql as $$
    begin
      insert into search_lexemes (lexeme)
      select n.lexeme from (
        select lexeme from unnest(new.document) where weights <> '{D}'
        except select lexeme from unnest(case when tg_op = 'UPDATE' then old.document end)
      ) n
      where not exists (select 1 from search_lexemes x where x.lexeme = n.lexeme);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger link_search_lexemes after insert or update of document on link_search
    for each row execute function search_lexemes_add()`.execute(db);

  // Migration 0006's trigger for each user's words, mended for concurrent saves of one user: new
  // words are added in one order (two saves adding the same new words in different orders
  // deadlocked), and a word is removed after it is counted down, not before.
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
      -- Count down, then remove what no link uses. (0006 removed a word whose count was 1 first:
      -- a concurrent save that had already read the count as 2 skipped it, then counted it down to
      -- 0 after the other committed, and the word stayed.)
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
  // Words the old trigger left at a count of 0.
  await sql`delete from search_words where links <= 0`.execute(db);

  await sql`drop index link_search_document`.execute(db);
  await sql`
    update link_search s
    set rank_document = link_rank_document(l.title, tg.names, l.url, l.description, l.ai_description, l.category, l.notes)
    from links l
    cross join lateral (
      select coalesce(string_agg(t.name, ' '), '') as names
      from link_tags lt join tags t on t.id = lt.tag_id where lt.link_id = l.id
    ) tg
    where l.id = s.link_id`.execute(db);
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  await sql`create index link_search_document on link_search using gin (document)`.execute(db);
  await sql`create index link_search_head on link_search using gin (link_search_head(rank_document, user_id))`.execute(
    db,
  );
  await sql`
    insert into search_lexemes (lexeme)
    select distinct n.lexeme from link_search, unnest(document) n where n.weights <> '{D}'`.execute(db);
}
