import { sql, type Kysely } from 'kysely';
import { normalizeSql, type Kind, type SchemaObject, type SearchSchema } from './schema-object.js';
import { LINK_COLUMNS, SEARCH_FIELDS, isLinkColumn, type SearchField } from './search-fields.js';
import { LOG_KEEP, PRUNE_EVERY } from './vector-log.js';

/**
 * SQLite's search index, current definitions (decision 0004 §1, §9; decision 0008).
 *
 * A contentless FTS5 table (`link_fts`: no second copy of the text) keyed by `search_docs` row ids
 * (FTS5 needs integer ids; `links.rowid` may change on VACUUM), filled from the `link_fts_source`
 * view by triggers in the same transaction as every change, whoever writes it (the API, the
 * analysis jobs, cascades). Every document carries its owner's token (`owner`), and every query asks
 * for it, so FTS5 intersects a word's entries with the owner's: a user with 100 links never pays for
 * another user's million.
 *
 * `link_words` holds every word ever indexed, as written (lower case, diacritics folded), for typed
 * prefixes to expand into and typos to be corrected against in large libraries (decision 0004 §9).
 * It only grows: a word no document holds any more matches nothing. Triggers pass each write's new
 * text through a one-row FTS5 table with the index's tokenizer minus the stemmer
 * (`link_words_scratch`), so words are split exactly as the index splits them.
 *
 * `users.search_version` moves whenever one of the user's vectors changes or a link is deleted, and
 * `search_vector_log` says which links (`vector-log.ts`).
 */

/** FTS5 columns. A ranking tier is a column filter (`FtsColumns` in search/text-query.ts). */
export const FTS_COLUMNS = ['title', 'tags', 'url', 'body'] as const;
type FtsColumn = (typeof FTS_COLUMNS)[number];

/** Each field's column: by tier; URL words (tier "anywhere") keep a column of their own. */
const ftsColumn = (f: SearchField): FtsColumn =>
  f.tier === 'title' ? 'title' : f.tier === 'tags' ? 'tags' : f.url ? 'url' : 'body';

/** Stemming (porter), diacritics folded; FTS5 answers prefixes of 2 and 3 letters from its own index. */
const FTS_TOKENIZER = `tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3'`;
/** The index's tokenizer without its stemmer, for `link_words`; positions are not needed. */
export const WORDS_TOKENIZER = `content = '', detail = none, tokenize = 'unicode61 remove_diacritics 2'`;

const tagsField = SEARCH_FIELDS.find((f) => f.source === 'tags');
const pageField = SEARCH_FIELDS.find((f) => f.source === 'page_text');

const capped = (f: SearchField, text: string) => (f.maxChars ? `substr(${text}, 1, ${f.maxChars})` : text);

/** A field's text for the link `l`, up to `chars` characters. */
function fieldText(f: SearchField, chars = f.maxChars): string {
  const cut = (text: string) => (chars ? `substr(${text}, 1, ${chars})` : text);
  if (isLinkColumn(f.source)) return `coalesce(${cut(`l.${f.source}`)}, '')`;
  if (f.source === 'tags') {
    return `coalesce((select group_concat(t.name, ' ') from link_tags lt join tags t on t.id = lt.tag_id
      where lt.link_id = l.id), '')`;
  }
  return `coalesce((select ${cut('p.text')} from page_contents p where p.link_id = l.id), '')`;
}

/**
 * SQL for the text of the link `l` whose words correct typos in a small library (what PostgreSQL's
 * `search_words` holds).
 */
export const SQLITE_TYPO_TEXT = SEARCH_FIELDS.filter((f) => f.typoWords !== false)
  .map((f) => fieldText(f, typeof f.typoWords === 'number' ? f.typoWords : f.maxChars))
  .join(` || ' ' || `);

const columnText = (column: FtsColumn) => {
  const fields = SEARCH_FIELDS.filter((f) => ftsColumn(f) === column);
  return fields.length === 0 ? `''` : fields.map((f) => fieldText(f)).join(` || ' ' || `);
};

const ftsColumns = ['owner', ...FTS_COLUMNS].join(', ');

/** Writes the link's document (`id`: an expression for its id), replacing the one it had. */
const reindex = (id: string) => `
      insert or replace into link_fts(rowid, ${ftsColumns})
        select rowid, ${ftsColumns} from link_fts_source where link_id = ${id};`;

/** Moves the owner's version and logs the link; `owner` selects the user id (nothing: no move). */
const vectorMoved = (owner: string, linkId: string) => `
      update users set search_version = search_version + 1 where id = (${owner});
      insert into search_vector_log(user_id, seq, link_id)
        select id, search_version, ${linkId} from users where id = (${owner});`;

/**
 * Adds the words of `text` to `link_words`. Not `insert or ignore`: a trigger's conflict clause
 * yields to the firing statement's, so an upsert of page text (`on conflict … do update`) turned a
 * known word into a constraint error.
 */
const addWords = (text: string) => `
      insert into link_words_scratch(link_words_scratch) values ('delete-all');
      insert into link_words_scratch(rowid, text) values (1, ${text});
      insert into link_words(word) select term from link_words_scratch_terms
        where not exists (select 1 from link_words w where w.word = term);`;

/** The text of the link's own fields in a trigger's `new` row; with `changedOnly`, of those that changed. */
const linkFieldsText = (changedOnly: boolean) =>
  SEARCH_FIELDS.filter((f) => isLinkColumn(f.source))
    .map((f) => {
      const value = capped(f, `new.${f.source}`);
      return `coalesce(${changedOnly ? `case when new.${f.source} is not old.${f.source} then ${value} end` : value}, '')`;
    })
    .join(` || ' ' || `);

/**
 * A statement as `sqlite_master.sql` holds it, for comparison: SQLite keeps the text as written but
 * upper-cases its leading keywords (`CREATE TRIGGER`), which are compared in lower case.
 */
export const sqliteForm = (statement: string): string =>
  normalizeSql(statement.replace(/^\s*create\s+(virtual\s+table|table|view|trigger|index)\b/i, (m) => m.toLowerCase()));

const object = (kind: Kind, name: string, statement: string, more: Partial<SchemaObject> = {}): SchemaObject => ({
  kind,
  name,
  create: [statement],
  installed: sqliteForm(statement),
  ...more,
});

/** A trigger: `event` (`after insert`, `after update of …`), an optional `when` condition, its statements. */
const trigger = (name: string, event: string, table: string, body: string, when?: string): SchemaObject => {
  const condition = when ? ` when ${when}` : '';
  return object('trigger', name, `create trigger ${name} ${event} on ${table}${condition} begin${body}\n    end`, {
    table,
  });
};

type RowEvent = readonly ['insert' | 'update' | 'delete', 'new' | 'old'];
const INSERT: RowEvent = ['insert', 'new'];
const UPDATE: RowEvent = ['update', 'new'];
const DELETE: RowEvent = ['delete', 'old'];

/** `<table>_search_<event>` for each event, with the statements `body` gives for the row. */
const searchTriggers = (table: string, events: RowEvent[], body: (row: string) => string) =>
  events.map(([event, row]) => trigger(`${table}_search_${event}`, `after ${event}`, table, body(row)));

const tables: SchemaObject[] = [
  object('column', 'users.search_version', 'alter table users add column search_version bigint not null default 0', {
    installed: 'bigint not null default 0',
  }),
  object('table', 'search_docs', 'create table search_docs (rowid integer primary key, link_id text not null unique)', {
    rebuild: true,
  }),
  object(
    'table',
    'link_fts',
    `create virtual table link_fts using fts5(${ftsColumns}, content = '', contentless_delete = 1, ${FTS_TOKENIZER})`,
    { rebuild: true },
  ),
  object('table', 'link_words', 'create table link_words (word text primary key) without rowid', { rebuild: true }),
  object(
    'table',
    'link_words_scratch',
    `create virtual table link_words_scratch using fts5(text, ${WORDS_TOKENIZER})`,
    {
      rebuild: true,
    },
  ),
  object(
    'table',
    'link_words_scratch_terms',
    `create virtual table link_words_scratch_terms using fts5vocab(link_words_scratch, 'row')`,
  ),
  object(
    'table',
    'search_vector_log',
    `create table search_vector_log (user_id text not null references users (id) on delete cascade,
      seq bigint not null, link_id text not null)`,
  ),
];

const view = object(
  'view',
  'link_fts_source',
  `create view link_fts_source as
    select d.rowid as rowid, l.id as link_id, 'u' || replace(l.user_id, '-', '') as owner,
      ${FTS_COLUMNS.map((c) => `${columnText(c)} as ${c}`).join(',\n      ')}
    from links l join search_docs d on d.link_id = l.id`,
  { rebuild: true },
);

const indexes: SchemaObject[] = [
  object(
    'index',
    'search_vector_log_user_seq',
    'create index search_vector_log_user_seq on search_vector_log (user_id, seq)',
    { table: 'search_vector_log' },
  ),
];

const changedLinkFields = LINK_COLUMNS.map((c) => `new.${c} is not old.${c}`).join(' or ');

const triggers: SchemaObject[] = [
  trigger(
    'links_search_insert',
    'after insert',
    'links',
    `
      insert into search_docs(link_id) values (new.id);${reindex('new.id')}`,
  ),
  trigger('links_search_update', `after update of ${LINK_COLUMNS.join(', ')}`, 'links', reindex('new.id')),
  trigger(
    'links_search_delete',
    'after delete',
    'links',
    `
      delete from link_fts where rowid = (select rowid from search_docs where link_id = old.id);
      delete from search_docs where link_id = old.id;${vectorMoved('select old.user_id', 'old.id')}`,
  ),
  ...(tagsField ? searchTriggers('link_tags', [INSERT, DELETE], (row) => reindex(`${row}.link_id`)) : []),
  ...(pageField ? searchTriggers('page_contents', [INSERT, UPDATE, DELETE], (row) => reindex(`${row}.link_id`)) : []),
  ...searchTriggers('embeddings', [INSERT, UPDATE, DELETE], (row) =>
    vectorMoved(`select user_id from links where id = ${row}.link_id`, `${row}.link_id`),
  ),
  trigger(
    'search_vector_log_prune',
    'after insert',
    'search_vector_log',
    `
      delete from search_vector_log where user_id = new.user_id and seq <= new.seq - ${LOG_KEEP};`,
    `new.seq % ${PRUNE_EVERY} = 0`,
  ),
  // Words: only new text is read, a link's changed fields, a new tag's name (tags are never renamed,
  // and the list only grows, so a tag attached again adds nothing), page text that changed.
  trigger('links_words_insert', 'after insert', 'links', addWords(linkFieldsText(false))),
  trigger(
    'links_words_update',
    `after update of ${LINK_COLUMNS.join(', ')}`,
    'links',
    addWords(linkFieldsText(true)),
    changedLinkFields,
  ),
  ...(tagsField ? [trigger('tags_words_insert', 'after insert', 'tags', addWords('new.name'))] : []),
  ...(pageField
    ? [
        trigger('page_contents_words_insert', 'after insert', 'page_contents', addWords(capped(pageField, 'new.text'))),
        trigger(
          'page_contents_words_update',
          'after update of text',
          'page_contents',
          addWords(capped(pageField, 'new.text')),
          'new.text is not old.text',
        ),
      ]
    : []),
];

/** SQLite's search index. */
export const sqliteSearchSchema: SearchSchema = { objects: [...tables, view, ...indexes, ...triggers] };

/**
 * Fills the index from the links, replacing what it held: documents in creation order (ties in a
 * tier are ordered by document row), then the words of every document.
 */
export async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`insert into link_fts(link_fts) values ('delete-all')`.execute(db);
  await sql`delete from search_docs`.execute(db);
  await sql`delete from link_words`.execute(db);
  await sql`insert into search_docs(link_id) select id from links order by created_at, id`.execute(db);
  await sql
    .raw(`insert into link_fts(rowid, ${ftsColumns}) select rowid, ${ftsColumns} from link_fts_source`)
    .execute(db);
  await fillLinkWords(db);
}

/**
 * Adds the words of every indexed document to `link_words`: one pass through a temporary index of
 * everything the search index holds. Exported for the test that compares it with the triggers.
 */
export async function fillLinkWords(db: Kysely<unknown>): Promise<void> {
  const all = sql.raw(FTS_COLUMNS.join(` || ' ' || `));
  await sql`create virtual table temp.link_words_all using fts5(text, ${sql.raw(WORDS_TOKENIZER)})`.execute(db);
  await sql`insert into temp.link_words_all(rowid, text) select rowid, ${all} from link_fts_source`.execute(db);
  await sql`create virtual table temp.link_words_all_terms using fts5vocab(temp, link_words_all, 'row')`.execute(db);
  await sql`insert or ignore into link_words(word) select term from temp.link_words_all_terms`.execute(db);
  await sql`drop table temp.link_words_all_terms`.execute(db);
  await sql`drop table temp.link_words_all`.execute(db);
}
