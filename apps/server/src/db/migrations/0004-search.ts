import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Full-text search over a link's title, tags, URL, description, AI description, category, notes and
 * page text, kept in step by triggers in the same transaction as the change, whoever writes it (the
 * API, the analysis jobs, imports, cascades).
 *
 * Every document carries its owner's token (`u` + the user id's hex), and every query asks for it:
 * the engine then intersects the term's entries with the owner's, so a user with 100 links never
 * pays for another user's million (ARCHITECTURE §3: matching across all users first cost 108 ms p99).
 *
 * `users.search_version` moves whenever one of the user's vectors changes or a link is deleted, so
 * every instance's in-memory vector cache can tell it is stale with one indexed read.
 *
 * Page text is indexed up to PAGE_TEXT_CHARS: the start of a page says what it is about, and a
 * bounded document keeps PostgreSQL's tsvector inline (not TOASTed) and ranking cheap.
 */
const PAGE_TEXT_CHARS = 8000;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('search_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (engine === 'sqlite') await sqlite(db);
  else await postgres(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  // FTS5 needs integer row ids; links are keyed by text. INTEGER PRIMARY KEY survives VACUUM.
  await sql`create table search_docs (rowid integer primary key, link_id text not null unique)`.execute(db);
  // Contentless: the index keeps no second copy of the text (the links table has it).
  await sql`
    create virtual table link_fts using fts5(
      owner, title, tags, url, body,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2',
      prefix = '2 3'
    )`.execute(db);
  // The global term list, read only to suggest spellings for typos.
  await sql`create virtual table link_fts_terms using fts5vocab(link_fts, 'row')`.execute(db);
  await sql`
    create view link_fts_source as
    select d.rowid as rowid, l.id as link_id,
      'u' || replace(l.user_id, '-', '') as owner,
      l.title as title,
      coalesce((select group_concat(t.name, ' ') from link_tags lt join tags t on t.id = lt.tag_id
                where lt.link_id = l.id), '') as tags,
      l.url as url,
      l.description || ' ' || coalesce(l.ai_description, '') || ' ' || coalesce(l.category, '') || ' ' ||
        l.notes || ' ' ||
        coalesce((select substr(p.text, 1, ${sql.lit(PAGE_TEXT_CHARS)}) from page_contents p
                  where p.link_id = l.id), '') as body
    from links l join search_docs d on d.link_id = l.id`.execute(db);

  const reindex = (id: string) =>
    sql.raw(`
    insert or replace into link_fts(rowid, owner, title, tags, url, body)
      select rowid, owner, title, tags, url, body from link_fts_source where link_id = ${id};`);
  const bump = (linkId: string) =>
    sql.raw(`update users set search_version = search_version + 1
      where id = (select user_id from links where id = ${linkId});`);

  await sql`
    create trigger links_search_insert after insert on links begin
      insert into search_docs(link_id) values (new.id);
      ${reindex('new.id')}
    end`.execute(db);
  await sql`
    create trigger links_search_update
    after update of title, description, ai_description, category, notes, url on links begin
      ${reindex('new.id')}
    end`.execute(db);
  await sql`
    create trigger links_search_delete after delete on links begin
      delete from link_fts where rowid = (select rowid from search_docs where link_id = old.id);
      delete from search_docs where link_id = old.id;
      update users set search_version = search_version + 1 where id = old.user_id;
    end`.execute(db);
  for (const [table, event, row] of [
    ['link_tags', 'insert', 'new'],
    ['link_tags', 'delete', 'old'],
    ['page_contents', 'insert', 'new'],
    ['page_contents', 'update', 'new'],
    ['page_contents', 'delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`${table}_search_${event}`)} after ${sql.raw(event)} on ${sql.raw(table)} begin
        ${reindex(`${row}.link_id`)}
      end`.execute(db);
  }
  for (const [event, row] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`embeddings_search_${event}`)} after ${sql.raw(event)} on embeddings begin
        ${bump(`${row}.link_id`)}
      end`.execute(db);
  }

  await sql`insert into search_docs(link_id) select id from links order by created_at, id`.execute(db);
  await sql`
    insert into link_fts(rowid, owner, title, tags, url, body)
    select rowid, owner, title, tags, url, body from link_fts_source`.execute(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  // pg_trgm is a trusted extension (PostgreSQL ≥ 13): a database owner may create it.
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`
    create table link_search (
      link_id text primary key references links(id) on delete cascade,
      user_id text not null,
      document tsvector not null,
      words text not null
    )`.execute(db);
  await sql`create index link_search_document on link_search using gin (document)`.execute(db);
  await sql`create index link_search_words on link_search using gin (words gin_trgm_ops)`.execute(db);
  await sql`create index link_search_user on link_search (user_id)`.execute(db);

  // Weights: A title and tags, B URL words, description, AI description and category, C notes and
  // page text, D the owner token (matched by every query of that user, so it does not reorder).
  await sql`
    create function link_search_refresh(p_link_id text) returns void language sql as $$
      insert into link_search (link_id, user_id, document, words)
      select l.id, l.user_id,
        setweight(to_tsvector('simple', 'u' || replace(l.user_id, '-', '')), 'D') ||
        setweight(to_tsvector('english', l.title), 'A') ||
        setweight(to_tsvector('english', tg.names), 'A') ||
        setweight(to_tsvector('english', regexp_replace(l.url, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
        setweight(to_tsvector('english', l.description || ' ' || coalesce(l.ai_description, '') || ' ' ||
          coalesce(l.category, '')), 'B') ||
        setweight(to_tsvector('english', l.notes || ' ' || coalesce(left(p.text, ${sql.lit(PAGE_TEXT_CHARS)}), '')), 'C'),
        lower(l.title || ' ' || tg.names || ' ' || coalesce(l.category, '') || ' ' ||
          regexp_replace(l.url, '[^[:alnum:]]+', ' ', 'g') || ' ' || left(l.description, 300))
      from links l
      cross join lateral (
        select coalesce(string_agg(t.name, ' '), '') as names
        from link_tags lt join tags t on t.id = lt.tag_id where lt.link_id = l.id
      ) tg
      left join page_contents p on p.link_id = l.id
      where l.id = p_link_id
      on conflict (link_id) do update set document = excluded.document, words = excluded.words
    $$`.execute(db);

  await sql`
    create function link_search_changed() returns trigger language plpgsql as $$
    begin
      perform link_search_refresh(case when tg_op = 'DELETE' then old.link_id else new.link_id end);
      return null;
    end
    $$`.execute(db);
  await sql`
    create function links_search_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        update users set search_version = search_version + 1 where id = old.user_id;
      else
        perform link_search_refresh(new.id);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create function embeddings_search_changed() returns trigger language plpgsql as $$
    begin
      update users set search_version = search_version + 1
      where id = (select user_id from links
                  where id = case when tg_op = 'DELETE' then old.link_id else new.link_id end);
      return null;
    end
    $$`.execute(db);

  await sql`
    create trigger links_search after insert or delete or update of title, description, ai_description,
      category, notes, url on links for each row execute function links_search_changed()`.execute(db);
  await sql`
    create trigger link_tags_search after insert or delete on link_tags
    for each row execute function link_search_changed()`.execute(db);
  await sql`
    create trigger page_contents_search after insert or update or delete on page_contents
    for each row execute function link_search_changed()`.execute(db);
  await sql`
    create trigger embeddings_search after insert or update or delete on embeddings
    for each row execute function embeddings_search_changed()`.execute(db);

  await sql`select link_search_refresh(id) from links`.execute(db);
}
