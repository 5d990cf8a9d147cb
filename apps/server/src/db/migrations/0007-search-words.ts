import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * SQLite only (PostgreSQL already has the user's words in `search_words`, migration 0006).
 *
 * **Every word ever indexed, as written (lower case, without diacritics), in a B-tree.** The last
 * word of a query is matched as a prefix while the user types, and FTS5 answers a prefix of four or
 * more letters (its prefix index covers two and three) by merging the entries of every term with
 * that prefix across every user's documents before it intersects them with the owner's token: 30 ms
 * for a 100-link user among 1.1M links, where the whole word costs 4 ms. Search now expands the
 * prefix into the words that start with it (`link_words`, a range read) and asks FTS5 for those
 * words, which it intersects with the owner's entries cheaply. Words rather than stems: the index
 * stems what it is asked, and a stored stem is not always a prefix of its word's prefix ("deploym"
 * is stored as "deploy") nor stemmed to itself ("deploy" becomes "deploi").
 *
 * The list only grows: a word no document holds any more matches nothing, so removing it would only
 * save space. It is kept by triggers on whatever adds text (a link's own fields, a new tag, page
 * text), each passing only its new text through a one-row FTS5 table with the index's tokenizer
 * without stemming (`link_words_scratch`), whose term list is then added, so words are split exactly
 * as the index splits them. Measured: +0.06–0.15 ms per saved link, +0.45–0.6 ms per 8,000
 * characters of page text (bench/RESULTS.md, "Search speed, round 3").
 */
const PAGE_TEXT_CHARS = 8000;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') await sqlite(db);
}

/** The index's tokenizer (migration 0004) without its stemmer; positions are not needed. */
const WORDS_TABLE_OPTIONS = sql.raw(`content = '', detail = none, tokenize = 'unicode61 remove_diacritics 2'`);

/** A link's own indexed fields (0004's triggers fire on changes to these). */
const LINK_FIELDS = ['title', 'url', 'description', 'ai_description', 'category', 'notes'];

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table link_words (word text primary key) without rowid`.execute(db);
  await sql`create virtual table link_words_scratch using fts5(text, ${WORDS_TABLE_OPTIONS})`.execute(db);
  await sql`create virtual table link_words_scratch_terms using fts5vocab(link_words_scratch, 'row')`.execute(db);

  // Not `insert or ignore`: a trigger's conflict clause yields to the firing statement's, so an
  // upsert of page text (`on conflict … do update`) turned a known word into a constraint error.
  const addWords = (text: string) =>
    sql.raw(`
      insert into link_words_scratch(link_words_scratch) values ('delete-all');
      insert into link_words_scratch(rowid, text) values (1, ${text});
      insert into link_words(word) select term from link_words_scratch_terms
        where not exists (select 1 from link_words w where w.word = term);`);
  const joined = (parts: string[]) => parts.map((p) => `coalesce(${p}, '')`).join(` || ' ' || `);

  // Only new text is read: a link's changed fields, a new tag's name (tags are never renamed, and the
  // list only grows, so a tag attached again adds nothing), page text that changed.
  await sql`
    create trigger links_words_insert after insert on links begin
      ${addWords(joined(LINK_FIELDS.map((f) => `new.${f}`)))}
    end`.execute(db);
  await sql`
    create trigger links_words_update after update of ${sql.raw(LINK_FIELDS.join(', '))} on links
    when ${sql.raw(LINK_FIELDS.map((f) => `new.${f} is not old.${f}`).join(' or '))} begin
      ${addWords(joined(LINK_FIELDS.map((f) => `case when new.${f} is not old.${f} then new.${f} end`)))}
    end`.execute(db);
  await sql`create trigger tags_words_insert after insert on tags begin ${addWords('new.name')} end`.execute(db);
  await sql`
    create trigger page_contents_words_insert after insert on page_contents begin
      ${addWords(`substr(new.text, 1, ${PAGE_TEXT_CHARS})`)}
    end`.execute(db);
  await sql`
    create trigger page_contents_words_update after update of text on page_contents
    when new.text is not old.text begin
      ${addWords(`substr(new.text, 1, ${PAGE_TEXT_CHARS})`)}
    end`.execute(db);

  await fillLinkWords(db);
  // The index's own term list (migration 0004) was read only for typo spellings, which now come
  // from `link_words`.
  await sql`drop table link_fts_terms`.execute(db);
}

/**
 * Adds the words of every indexed document (the migration's backfill): one pass through a temporary
 * index of everything the search index holds. Exported for the test that compares it with the triggers.
 */
export async function fillLinkWords(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table temp.link_words_all using fts5(text, ${WORDS_TABLE_OPTIONS})`.execute(db);
  await sql`
    insert into temp.link_words_all(rowid, text)
    select rowid, title || ' ' || tags || ' ' || url || ' ' || body from link_fts_source`.execute(db);
  await sql`create virtual table temp.link_words_all_terms using fts5vocab(temp, link_words_all, 'row')`.execute(db);
  await sql`insert or ignore into link_words(word) select term from temp.link_words_all_terms`.execute(db);
  await sql`drop table temp.link_words_all_terms`.execute(db);
  await sql`drop table temp.link_words_all`.execute(db);
}
