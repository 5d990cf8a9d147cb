import { sql, type Kysely } from 'kysely';
import { normalizeSql, type SchemaObject, type SearchSchema } from './schema-object.js';
import { LINK_COLUMNS, SEARCH_FIELDS, isLinkColumn, type SearchField, type Tier } from './search-fields.js';
import { LOG_KEEP, PRUNE_EVERY } from './vector-log.js';

/**
 * PostgreSQL's search index, current definitions (decision 0004 §1, §2, §10, §11; decision 0008).
 *
 * `link_search` holds one row per link, written by `link_search_refresh` from triggers in the same
 * transaction as every change, whoever writes it (the API, the analysis jobs, cascades):
 * - `document`: every field, page text included, with the owner's token (weight D), matched through
 *   a GIN index. Stored out of line (`external`, uncompressed) once a row passes ~2 kB, so the heap
 *   rows a search visits stay narrow; a GIN match of plain words needs no recheck and never reads it.
 * - `rank_document`: the fields without page text, weighted by tier (title A, tags B, the rest C), so
 *   a tier is a weight-restricted match (`'word':A`, `'word':AB`); kept in line (`main`).
 *   `link_search_head` indexes its title and tags with the owner's token: a small GIN index for the
 *   title tiers of large libraries.
 * - `words`: the words a typo is corrected to, whose distinct words (3+ letters) per user, with how
 *   many links use each, `search_words` keeps by trigger, in code-point order (`collate "C"`), so a
 *   range of first letters is an index range.
 * - The ids are `plain`: never moved out of line with a long row (decision 0004 §11: every
 *   comparison of an id read the TOAST table).
 *
 * `search_lexemes` holds every lexeme ever indexed (owner tokens aside; it only grows), so a typed
 * prefix becomes the few stored lexemes it starts, which GIN intersects with the owner's entries
 * cheaply. No unique index: a save never waits for another user's new lexemes (two saves adding the
 * same two new lexemes in opposite orders deadlocked with one); a rare duplicate is harmless.
 */

/** `rank_document` weights: a tier is a match restricted to its weights and those above. */
const WEIGHT: Record<Tier, 'A' | 'B' | 'C'> = { title: 'A', tags: 'B', anywhere: 'C' };

/** The owner's token as a tsvector: matched by every query of its user, never ranked (weight D). */
const ownerVector = (userId: string) => `setweight(to_tsvector('simple', 'u' || replace(${userId}, '-', '')), 'D')`;

/** A field's text as `to_tsvector` and the typo words read it, from the SQL `raw` of its value. */
function fieldText(f: SearchField, raw: string, chars = f.maxChars): string {
  const text = chars ? `left(${raw}, ${chars})` : raw;
  const words = f.url ? `regexp_replace(${text}, '[^[:alnum:]]+', ' ', 'g')` : text;
  return `coalesce(${words}, '')`;
}

/**
 * A weighted tsvector of `fields` (`raw` gives each one's value): consecutive fields of one weight
 * are parsed together; a URL alone, after its punctuation becomes spaces.
 */
function weighted(fields: readonly SearchField[], raw: (f: SearchField) => string): string {
  const groups: SearchField[][] = [];
  for (const f of fields) {
    const last = groups.at(-1);
    if (last && !f.url && !last[0]!.url && WEIGHT[last[0]!.tier] === WEIGHT[f.tier]) last.push(f);
    else groups.push([f]);
  }
  return groups
    .map((g) => {
      const text = g.map((f) => fieldText(f, raw(f))).join(` || ' ' || `);
      return `setweight(to_tsvector('english', ${text}), '${WEIGHT[g[0]!.tier]}')`;
    })
    .join(' ||\n        ');
}

const ranked = SEARCH_FIELDS.filter((f) => !f.bulky);
const bulky = SEARCH_FIELDS.filter((f) => f.bulky);
const tagsField = SEARCH_FIELDS.find((f) => f.source === 'tags');
const pageField = SEARCH_FIELDS.find((f) => f.source === 'page_text');

/** The parameter of `link_rank_document` for a field. */
const parameter = (f: SearchField) => (f.source === 'tags' ? 'tag_names' : f.source);
/** A field's value in `link_search_refresh`: the link `l`, its tag names `tg.names`, its page `p`. */
const refreshValue = (f: SearchField) =>
  isLinkColumn(f.source) ? `l.${f.source}` : f.source === 'tags' ? 'tg.names' : 'p.text';

const typoWords = SEARCH_FIELDS.filter((f) => f.typoWords !== false)
  .map((f) => fieldText(f, refreshValue(f), typeof f.typoWords === 'number' ? f.typoWords : f.maxChars))
  .join(` || ' ' || `);

/** The link's tag names (`tg.names`) and its page (`p`), when fields read them. */
const joinTags = tagsField
  ? `
      cross join lateral (
        select coalesce(string_agg(t.name, ' '), '') as names
        from link_tags lt join tags t on t.id = lt.tag_id where lt.link_id = l.id
      ) tg`
  : '';
const joinPage = pageField ? `\n      left join page_contents p on p.link_id = l.id` : '';
const document = [ownerVector('l.user_id'), 'r.doc', ...(bulky.length > 0 ? [weighted(bulky, refreshValue)] : [])];

/**
 * Writes the search rows of the links `where` selects: one link in `link_search_refresh`, every link
 * in a rebuild (one statement instead of a call per link: 0.6× the time).
 */
const searchRows = (where: string) => `insert into link_search (link_id, user_id, document, rank_document, words)
      select l.id, l.user_id,
        ${document.join(' ||\n          ')},
        r.doc,
        lower(${typoWords})
      from links l${joinTags}
      cross join lateral (select link_rank_document(${ranked.map(refreshValue).join(', ')}) as doc) r${joinPage}
      ${where}`;

/**
 * Transaction-local switches of a bulk write (`indexInBulk`): while `linkwise.search_bulk` is on,
 * inserted links, tags and pages are not indexed row by row (the writer indexes them together with
 * `link_search_add`); `linkwise.search_bulk_rows` is on only inside that function's own insert into
 * `link_search`, whose words and lexemes it then counts in one statement each.
 */
const BULK = `current_setting('linkwise.search_bulk', true) = 'on'`;
const BULK_ROWS = `current_setting('linkwise.search_bulk_rows', true) = 'on'`;

// ---------------------------------------------------------------------------------------------
// Definitions

interface Column {
  name: string;
  type: string;
  notNull?: boolean;
  collate?: string;
  /** Only when not the type's own. */
  storage?: 'plain' | 'external' | 'main';
}

/** A table: its columns, its constraints as `pg_get_constraintdef` writes them (lower case). */
function table(name: string, columns: Column[], constraints: string[], rebuild = true): SchemaObject {
  const describe = (c: Column, storage: boolean) =>
    `${c.name} ${c.type}${c.collate ? ` collate "${c.collate}"` : ''}${c.notNull ? ' not null' : ''}${
      storage && c.storage ? ` storage ${c.storage}` : ''
    }`;
  const stored = columns.filter((c) => c.storage);
  return {
    kind: 'table',
    name,
    rebuild,
    create: [
      `create table ${name} (${[...columns.map((c) => describe(c, false)), ...constraints].join(', ')})`,
      ...(stored.length > 0
        ? [`alter table ${name} ${stored.map((c) => `alter column ${c.name} set storage ${c.storage}`).join(', ')}`]
        : []),
    ],
    installed: tableForm(
      name,
      columns.map((c) => describe(c, true)),
      constraints,
      null,
    ),
  };
}

/** How `catalog.ts` and the source describe a table, for comparison. */
export const tableForm = (name: string, columns: string[], constraints: string[], options: string[] | null) =>
  normalizeSql(
    `table ${name} (${columns.join(', ')}) constraints (${[...constraints]
      .map((c) => c.toLowerCase())
      .sort()
      .join('; ')})` + (options ? ` with (${options.join(', ')})` : ''),
  );

interface FunctionDef {
  name: string;
  args: string;
  /** As `pg_get_functiondef` writes it (`SETOF text`). */
  returns: string;
  language: 'sql' | 'plpgsql';
  immutable?: boolean;
  body: string;
  /** What the index holds depends on it. */
  rebuild?: boolean;
}

function fn(f: FunctionDef): SchemaObject {
  const head = `${f.name}(${f.args})`;
  return {
    kind: 'function',
    name: f.name,
    rebuild: f.rebuild,
    create: [
      `create or replace function ${head} returns ${f.returns} language ${f.language}${f.immutable ? ' immutable' : ''} as $$${f.body}$$`,
    ],
    installed: functionForm(
      `CREATE OR REPLACE FUNCTION ${head} RETURNS ${f.returns} LANGUAGE ${f.language}${f.immutable ? ' IMMUTABLE' : ''} AS $function$${f.body}$function$`,
    ),
  };
}

/** `pg_get_functiondef`'s text without the schema, normalised. */
export const functionForm = (definition: string, schema?: string) =>
  normalizeSql(schema ? definition.replace(`FUNCTION ${schema}.`, 'FUNCTION ') : definition);

/** `pg_get_triggerdef` or `pg_get_indexdef`'s text (no literals in ours): lower case, without the schema. */
export const catalogForm = (definition: string, schema?: string) =>
  normalizeSql((schema ? definition.replaceAll(` ${schema}.`, ' ') : definition).toLowerCase());

const index = (name: string, on: string, using: string): SchemaObject => {
  const statement = `create index ${name} on ${on} using ${using}`;
  return { kind: 'index', name, table: on, create: [statement], installed: catalogForm(statement) };
};

/** A row trigger; events in the order `pg_get_triggerdef` writes them (insert, delete, update). */
const trigger = (name: string, events: string, on: string, fnName: string): SchemaObject => {
  const statement = `create trigger ${name} after ${events} on ${on} for each row execute function ${fnName}()`;
  return { kind: 'trigger', name, table: on, create: [statement], installed: catalogForm(statement) };
};

const tables: SchemaObject[] = [
  {
    kind: 'column',
    name: 'users.search_version',
    create: ['alter table users add column search_version bigint not null default 0'],
    installed: 'bigint not null default 0',
  },
  table(
    'link_search',
    [
      { name: 'link_id', type: 'text', notNull: true, storage: 'plain' },
      { name: 'user_id', type: 'text', notNull: true, storage: 'plain' },
      { name: 'document', type: 'tsvector', notNull: true, storage: 'external' },
      { name: 'rank_document', type: 'tsvector', notNull: true, storage: 'main' },
      { name: 'words', type: 'text', notNull: true },
    ],
    ['primary key (link_id)', 'foreign key (link_id) references links(id) on delete cascade'],
  ),
  table(
    'search_words',
    [
      { name: 'user_id', type: 'text', notNull: true },
      { name: 'word', type: 'text', collate: 'C', notNull: true },
      { name: 'links', type: 'integer', notNull: true },
    ],
    ['primary key (user_id, word)', 'foreign key (user_id) references users(id) on delete cascade'],
  ),
  table('search_lexemes', [{ name: 'lexeme', type: 'text', collate: 'C', notNull: true }], []),
  table(
    'search_vector_log',
    [
      { name: 'user_id', type: 'text', notNull: true },
      { name: 'seq', type: 'bigint', notNull: true },
      { name: 'link_id', type: 'text', notNull: true },
    ],
    ['foreign key (user_id) references users(id) on delete cascade'],
    false,
  ),
];

const functions: SchemaObject[] = [
  fn({
    name: 'link_rank_document',
    args: ranked.map((f) => `${parameter(f)} text`).join(', '),
    returns: 'tsvector',
    language: 'sql',
    immutable: true,
    rebuild: true,
    body: `
      select ${weighted(ranked, parameter)}
    `,
  }),
  fn({
    name: 'link_search_refresh',
    args: 'p_link_id text',
    returns: 'void',
    language: 'sql',
    rebuild: true,
    body: `
      ${searchRows('where l.id = p_link_id')}
      on conflict (link_id) do update
        set document = excluded.document, rank_document = excluded.rank_document, words = excluded.words
    `,
  }),
  // Indexes links a bulk write inserted with row indexing off: their rows in one statement, then
  // their words (the owners' rows locked first, as the row trigger does) and new lexemes. A link
  // indexed meanwhile (updated in the same transaction) is dropped first, its words counted down.
  fn({
    name: 'link_search_add',
    args: 'p_link_ids text[]',
    returns: 'void',
    language: 'plpgsql',
    body: `
    begin
      delete from link_search where link_id = any(p_link_ids);
      perform set_config('linkwise.search_bulk_rows', 'on', true);
      ${searchRows('where l.id = any(p_link_ids)')};
      perform set_config('linkwise.search_bulk_rows', 'off', true);
      perform 1 from users where id in (select user_id from links where id = any(p_link_ids)) order by id
        for no key update;
      insert into search_words (user_id, word, links)
      select s.user_id, w, count(*) from link_search s cross join search_words_of(s.words) w
      where s.link_id = any(p_link_ids) group by 1, 2 order by 1, 2
      on conflict (user_id, word) do update set links = search_words.links + excluded.links;
      insert into search_lexemes (lexeme)
      select n.lexeme from (
        select distinct x as lexeme from link_search s cross join search_lexemes_of(s.document) x
        where s.link_id = any(p_link_ids)
      ) n
      where not exists (select 1 from search_lexemes x where x.lexeme = n.lexeme);
      perform set_config('linkwise.search_bulk', 'off', true);
    end
    `,
  }),
  fn({
    name: 'link_search_head',
    args: 'rank_document tsvector, user_id text',
    returns: 'tsvector',
    language: 'sql',
    immutable: true,
    rebuild: true,
    body: `
      select ts_filter(rank_document, '{${WEIGHT.title.toLowerCase()},${WEIGHT.tags.toLowerCase()}}') || ${ownerVector('user_id')}
    `,
  }),
  fn({
    name: 'search_words_of',
    args: 'p text',
    returns: 'SETOF text',
    language: 'sql',
    immutable: true,
    rebuild: true,
    body: `
      select distinct w from regexp_split_to_table(coalesce(p, ''), '[^[:alnum:]]+') w where length(w) >= 3
    `,
  }),
  fn({
    name: 'search_lexemes_of',
    args: 'document tsvector',
    returns: 'SETOF text',
    language: 'sql',
    immutable: true,
    rebuild: true,
    body: `
      select lexeme from unnest(document) where weights <> '{D}'
    `,
  }),
  fn({
    name: 'search_vector_moved',
    args: 'p_user_id text, p_link_id text',
    returns: 'void',
    language: 'plpgsql',
    body: `
    declare
      v bigint;
    begin
      update users set search_version = search_version + 1 where id = p_user_id returning search_version into v;
      if not found then
        return;
      end if;
      insert into search_vector_log(user_id, seq, link_id) values (p_user_id, v, p_link_id);
      if v % ${PRUNE_EVERY} = 0 then
        delete from search_vector_log where user_id = p_user_id and seq <= v - ${LOG_KEEP};
      end if;
    end
    `,
  }),
  fn({
    name: 'links_search_changed',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    body: `
    begin
      if tg_op = 'DELETE' then
        perform search_vector_moved(old.user_id, old.id);
      elsif tg_op = 'INSERT' and ${BULK} then
        return null;
      else
        perform link_search_refresh(new.id);
      end if;
      return null;
    end
    `,
  }),
  fn({
    name: 'link_search_changed',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    body: `
    begin
      if tg_op = 'INSERT' and ${BULK} then
        return null;
      end if;
      perform link_search_refresh(case when tg_op = 'DELETE' then old.link_id else new.link_id end);
      return null;
    end
    `,
  }),
  fn({
    name: 'embeddings_search_changed',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    body: `
    declare
      l text := case when tg_op = 'DELETE' then old.link_id else new.link_id end;
    begin
      perform search_vector_moved((select user_id from links where id = l), l);
      return null;
    end
    `,
  }),
  // The user's words. One transaction at a time changes a user's words: the user's row first (`for
  // no key update`, which foreign-key checks do not wait for), as creating and deleting a link do,
  // then the words; locking words alone in any order deadlocked across statements (decision 0004
  // §11). A word is counted down before it is removed, and new words are added in one order.
  fn({
    name: 'link_search_words_changed',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    body: `
    declare
      before_words text := '';
      after_words text := '';
      owner text;
    begin
      if tg_op = 'INSERT' and ${BULK_ROWS} then
        return null;
      end if;
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
    `,
  }),
  // New lexemes of a saved document; `where not exists` rather than a unique index (see above).
  fn({
    name: 'search_lexemes_add',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    body: `
    begin
      if tg_op = 'INSERT' and ${BULK_ROWS} then
        return null;
      end if;
      insert into search_lexemes (lexeme)
      select n.lexeme from (
        select search_lexemes_of(new.document) as lexeme
        except select search_lexemes_of(case when tg_op = 'UPDATE' then old.document end)
      ) n
      where not exists (select 1 from search_lexemes x where x.lexeme = n.lexeme);
      return null;
    end
    `,
  }),
];

const indexes: SchemaObject[] = [
  // Ids are time-ordered: a tier's newest matches are a backward walk over the user's own rows.
  index('link_search_user_link', 'link_search', 'btree (user_id, link_id)'),
  index('link_search_document', 'link_search', 'gin (document)'),
  index('link_search_head', 'link_search', 'gin (link_search_head(rank_document, user_id))'),
  index('search_lexemes_lexeme', 'search_lexemes', 'btree (lexeme)'),
  // Not unique: a write must never fail on the log; a duplicate only makes a reader reload in full.
  index('search_vector_log_user_seq', 'search_vector_log', 'btree (user_id, seq)'),
];

/** The tables whose rows feed `link_search`, and their triggers. */
const FED: [table: string, events: string][] = [
  ['links', `insert or delete or update of ${LINK_COLUMNS.join(', ')}`],
  ...(tagsField ? [['link_tags', 'insert or delete'] as [string, string]] : []),
  ...(pageField ? [['page_contents', 'insert or delete or update'] as [string, string]] : []),
];

const triggers: SchemaObject[] = [
  ...FED.map(([on, events]) =>
    trigger(`${on}_search`, events, on, on === 'links' ? 'links_search_changed' : 'link_search_changed'),
  ),
  trigger('embeddings_search', 'insert or delete or update', 'embeddings', 'embeddings_search_changed'),
  trigger('link_search_words', 'insert or delete or update of words', 'link_search', 'link_search_words_changed'),
  trigger('link_search_lexemes', 'insert or update of document', 'link_search', 'search_lexemes_add'),
];

/** PostgreSQL's search index. */
export const postgresSearchSchema: SearchSchema = { objects: [...tables, ...functions, ...indexes, ...triggers] };

const exec = (db: Kysely<unknown>, statement: string) => sql.raw(statement).execute(db);

/** The triggers that index a link as it is written (on `links`, `link_tags`, `page_contents`). */
const indexingTriggers = triggers.filter((t) => FED.some(([on]) => on === t.table));

/**
 * Stops indexing links as they are written, for a bulk load that `rebuildPostgres` then indexes
 * once (1.1M links in minutes instead of once per row and tag). Deleting links meanwhile would not
 * move their owners' vector versions.
 */
export async function suspendPostgres(db: Kysely<unknown>): Promise<void> {
  for (const t of indexingTriggers) await exec(db, `alter table ${t.table} disable trigger ${t.name}`);
}

/**
 * Fills the index from the links, replacing what it held, and turns every trigger of the index
 * back on. Runs in the caller's transaction. The rows, the user's words and the lexemes are each
 * written once, with the triggers of `link_search` off and its indexes built afterwards: cheaper
 * than keeping them up to date row by row.
 */
export async function rebuildPostgres(db: Kysely<unknown>): Promise<void> {
  const own = (t: SchemaObject) => t.table === 'link_search';
  await exec(db, `select set_config('maintenance_work_mem', '256MB', true)`);
  for (const t of triggers.filter(own)) await exec(db, `alter table link_search disable trigger ${t.name}`);
  for (const i of indexes.filter(own)) await exec(db, `drop index if exists ${i.name}`);
  await sql`truncate link_search, search_words, search_lexemes`.execute(db);
  await exec(db, searchRows(''));
  await sql`
    insert into search_words (user_id, word, links)
    select s.user_id, w, count(*) from link_search s cross join search_words_of(s.words) w group by 1, 2`.execute(db);
  await sql`
    insert into search_lexemes (lexeme)
    select distinct x from link_search s cross join search_lexemes_of(s.document) x`.execute(db);
  for (const i of indexes.filter(own)) for (const statement of i.create) await exec(db, statement);
  for (const t of triggers) await exec(db, `alter table ${t.table} enable trigger ${t.name}`);
  await sql`analyze link_search`.execute(db);
}
