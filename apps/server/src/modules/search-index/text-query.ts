import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Engine } from '../../db/database.js';

/** A query word and the spellings that may stand for it (typo suggestions); `prefix` for as-you-type. */
export interface Term {
  word: string;
  prefix: boolean;
  alternatives: string[];
}

/** Beyond this many words a query is a paste, not a search; the rest adds cost and no precision. */
const MAX_TERMS = 12;

/**
 * Splits a query into lower-case words (letters and digits), the same units both engines index.
 * The last word is matched as a prefix: people search while they type.
 */
export function searchTerms(query: string): Term[] {
  const words = [
    ...query
      .normalize('NFKC')
      .toLocaleLowerCase('en-US')
      .matchAll(/[\p{L}\p{N}]+/gu),
  ]
    .map((m) => m[0])
    .slice(0, MAX_TERMS);
  return words.map((word, i) => ({ word, prefix: i === words.length - 1, alternatives: [] }));
}

/** The token every indexed document of a user carries (migration 0004). */
export const ownerToken = (userId: string): string => `u${userId.replace(/-/g, '').toLowerCase()}`;

// Words are letters and digits only (searchTerms), so quoting cannot be escaped from.
const quoted = (w: string) => `"${w}"`;

/**
 * FTS5 stems a prefix before matching it, and a stemmed prefix need not be a prefix of the stemmed
 * word: "deploy" becomes "deploi" while "deployments" is stored as "deploy". Half-typed words of 6+
 * letters therefore also match with their last one or two letters dropped (at least 5 kept). Where
 * prefixes are expanded into words (`prefixPiece`) the shortened forms are too: a misspelt last word
 * ("kubernets") then still finds what its shortened form starts ("kubernetes").
 */
function stemSafeCuts(word: string): string[] {
  const out: string[] = [];
  for (let cut = word.length - 1; cut >= Math.max(5, word.length - 2); cut--) out.push(word.slice(0, cut));
  return out;
}

/** FTS5's own prefix index answers prefixes of 2 and 3 letters (migration 0004); longer ones are expanded. */
const EXPAND_FROM = 4;
/**
 * A prefix more indexed words start with than this is left to FTS5's prefix merge: the OR of
 * hundreds of words costs more than the merge it replaces.
 */
export const EXPAND_MAX = 200;

/**
 * The string after every string that starts with `prefix` in code-point order (how SQLite compares
 * UTF-8 text, and PostgreSQL `collate "C"`): `[prefix, afterPrefix(prefix))` holds exactly those.
 */
export const afterPrefix = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCodePoint((prefix.codePointAt(prefix.length - 1) ?? 0) + 1);

/** Parts of an FTS5 query string: literal text, or SQL that yields text. */
type Piece = string | RawBuilder<string>;

/** Concatenates pieces in SQL (`||`). */
const concat = (pieces: Piece[]): RawBuilder<string> =>
  sql<string>`(${sql.join(
    pieces.map((p) => (typeof p === 'string' ? sql`${p}` : p)),
    sql` || `,
  )})`;

/** Whether `prefixPiece` expands this prefix into words (ASCII letters and digits, 4 or more). */
const expandable = (prefix: string) => prefix.length >= EXPAND_FROM && /^[a-z0-9]+$/.test(prefix);

/**
 * A prefix as SQL that yields an FTS5 expression: the words of `link_words` (migration 0007) that
 * start with it, OR-ed, which FTS5 intersects with the owner's entries cheaply, instead of a prefix
 * query, which merges the entries of every term with that prefix in every user's documents first
 * (30 ms against 4 ms for a 100-link user among 1.1M links). When no word starts with it, `none`
 * (by default the prefix as a word: one entry lookup, where a misspelt last word cost 40–60 ms as a
 * prefix query). FTS5's prefix query for two or three letters (its prefix index), when too many
 * words start with it, and for non-ASCII words, whose diacritics the index folds and the query keeps.
 */
function prefixPiece(prefix: string, none: Piece = quoted(prefix)): Piece {
  const prefixQuery = `${quoted(prefix)}*`;
  if (prefix.length === 1 && /^[a-z0-9]$/.test(prefix)) return initialPiece(prefix);
  if (!expandable(prefix)) return prefixQuery;
  // Indexed words are unicode61 tokens: letters and digits, never a quote.
  return sql<string>`(select case when count(*) = 0 then ${none}
      when count(*) <= ${EXPAND_MAX} then '(' || group_concat('"' || word || '"', ' OR ') || ')'
      else ${prefixQuery} end
    from (select word from link_words where word >= ${prefix} and word < ${afterPrefix(prefix)}
          limit ${EXPAND_MAX + 1}))`;
}

/** Pieces joined with ` OR ` in parentheses (or the one piece alone). */
const anyOf = (pieces: Piece[]): Piece[] =>
  pieces.length === 1 ? pieces : ['(', ...pieces.flatMap((f, j) => (j === 0 ? [f] : [' OR ', f])), ')'];

/**
 * The last word as FTS5 expression pieces: a prefix, and its stem-safe shortened forms. An expanded
 * word needs them only when no indexed word starts with it (they would repeat its words, and each
 * repeat is one more entry list to walk), and then only the shortest, whose words include the
 * others'; a prefix query needs them all, since the stemmer changes each differently.
 */
function lastWordPieces(word: string): Piece[] {
  const cuts = stemSafeCuts(word);
  if (cuts.length === 0) return [prefixPiece(word)];
  if (expandable(word)) return [prefixPiece(word, concat(anyOf([quoted(word), prefixPiece(cuts.at(-1)!)])))];
  return [prefixPiece(word), ...cuts.map((c) => prefixPiece(c))];
}

/**
 * A one-letter prefix (the first keystroke of a query's next word) as SQL that yields an FTS5
 * expression: the letter as a word, OR each two-letter prefix that indexed words start with, which
 * FTS5's two-letter prefix index answers as one entry each. FTS5 has no one-letter prefix index, and
 * `"t"*` merged the entries of every term starting with t across every user's documents: 860 ms
 * among 1.1M links. The two-letter prefixes are found by skipping through `link_words` (one index
 * seek per prefix, a recursive query), not by reading every word that starts with the letter.
 */
function initialPiece(letter: string): RawBuilder<string> {
  const end = afterPrefix(letter);
  return sql<string>`(with recursive p(x) as (
      select (select substr(word, 1, 2) from link_words where word > ${letter} and word < ${end} order by word limit 1)
      union all
      select (select substr(word, 1, 2) from link_words
              where word >= substr(p.x, 1, 1) || char(unicode(substr(p.x, 2)) + 1) and word < ${end}
              order by word limit 1)
      from p where p.x is not null
    )
    select '(' || group_concat(f, ' OR ') || ')'
    from (select ${quoted(letter)} as f union all select '"' || x || '"*' from p where x is not null))`;
}

/** FTS5 columns a query may match: every indexed field, or a subset for ranking tiers. */
export type FtsColumns = 'title tags url body' | 'title tags' | 'title';

/**
 * SQLite FTS5 MATCH expression, as SQL that yields the query string: the owner's token AND every
 * word (or one of its alternatives) in `columns`. The last word, and typo alternatives, match as
 * prefixes, expanded into the indexed words they start (`prefixPiece`).
 */
export function fts5Match(
  userId: string,
  terms: Term[],
  columns: FtsColumns = 'title tags url body',
): RawBuilder<string> {
  const pieces: Piece[] = [`owner:${quoted(ownerToken(userId))} AND {${columns}}:(`];
  terms.forEach((t, i) => {
    if (i > 0) pieces.push(' AND ');
    const forms: Piece[] = [
      ...(t.prefix ? lastWordPieces(t.word) : [quoted(t.word)]),
      ...t.alternatives.map((a) => prefixPiece(a)),
    ];
    pieces.push(...anyOf(forms));
  });
  pieces.push(')');
  return concat(pieces);
}

/**
 * Weights a PostgreSQL query word must carry (migration 0008): '' anywhere, 'A' in the title, 'AB'
 * in the title or tags, the same tiers as SQLite's `FtsColumns`.
 */
export type TsWeights = '' | 'A' | 'AB';

/**
 * PostgreSQL to_tsquery('english', …) text: every word (or one of its alternatives), the last as a
 * prefix, each with `weights`. Snowball stems a prefix too, so a half-typed word gets the same shortened forms as on
 * SQLite ("deploym" must find "deployments", stored as 'deploy'); without them it found nothing and
 * fell through to the much slower typo path.
 */
export function tsQueryText(terms: Term[], weights: TsWeights = ''): string {
  return terms
    .map((t) => {
      const forms = t.prefix
        ? [t.word, ...stemSafeCuts(t.word)].map((w) => `'${w}':*${weights}`)
        : [`'${t.word}'${weights ? `:${weights}` : ''}`];
      forms.push(...t.alternatives.map((a) => `'${a}':*${weights}`));
      return forms.length === 1 ? forms[0] : `(${forms.join(' | ')})`;
    })
    .join(' & ');
}

/**
 * PostgreSQL: a word's stem as the index stores it (null for a stop word). A constant the planner
 * folds, so a range of `search_lexemes` from it is an index range.
 */
const stem = (w: string) => sql`(tsvector_to_array(to_tsvector('english', ${w})))[1]`;

/**
 * Whether PostgreSQL's parser reads the word as one token. A few characters our word split accepts
 * (❶, ⓫, ፩…) separate tokens there; such a word is not expanded and always counts as known.
 */
const oneToken = (w: string) => sql`coalesce(array_length(tsvector_to_array(to_tsvector('english', ${w})), 1), 0) <= 1`;

/** The words a PostgreSQL term may match as, each a prefix unless `exact` (the whole stem). */
const termForms = (t: Term) => [...(t.prefix ? [t.word, ...stemSafeCuts(t.word)] : []), ...t.alternatives];

/**
 * PostgreSQL, as SQL that yields a boolean: whether some stored lexeme (`search_lexemes`) could
 * match each word of the query (stop words always can). When false nothing matches, and a search
 * skips its walks over the user's newest rows, which would read all of them to find nothing: a
 * misspelt word, before the typo path corrects it.
 */
export function knownTerms(terms: Term[]): RawBuilder<boolean> {
  const known = (t: Term) =>
    sql.join(
      [
        ...(t.prefix ? [] : [sql`exists (select 1 from search_lexemes where lexeme = ${stem(t.word)})`]),
        ...termForms(t).map(
          (w) =>
            sql`exists (select 1 from search_lexemes where lexeme >= ${stem(w)} and lexeme < ${stem(w)} || chr(1114111))`,
        ),
        ...[t.word, ...termForms(t)].map((w) => sql`${stem(w)} is null or not ${oneToken(w)}`),
      ],
      sql` or `,
    );
  return sql<boolean>`(${sql.join(
    terms.map((t) => sql`(${known(t)})`),
    sql` and `,
  )})`;
}

/**
 * The words `expandedTsQuery` asks GIN for. A one- or two-letter last word (the first keystrokes of
 * a next word) is left to a recheck when other words narrow the search: its prefix alone collects
 * most of the index.
 */
function ginTerms(terms: Term[]): Term[] {
  const narrowing = terms.filter((t) => !(t.prefix && t.word.length <= 2 && t.alternatives.length === 0));
  return narrowing.length > 0 ? narrowing : terms;
}

/**
 * Whether `expandedTsQuery` matches exactly what `tsQueryText` does: then GIN's rows need no
 * recheck, which would read each row's `document` (out of line once it holds page text).
 */
const expandedIsExact = (terms: Term[]): boolean => ginTerms(terms).length === terms.length;

/**
 * PostgreSQL, as SQL that yields a tsquery for GIN: the words of `tsQueryText` (no weights), each
 * prefix expanded into the stored lexemes that start with its stem (`search_lexemes`, migration
 * 0008), OR-ed. GIN answers a prefix (`'typescript':*`) by collecting the entries of every lexeme
 * with that prefix in every user's documents before it intersects them with the owner's token
 * (48 ms for one prefix at 1.1M links, 75 ms for a word and its two shortened forms); a few exact
 * lexemes it intersects cheaply (12 ms). The prefix query stays when no lexeme or more than
 * EXPAND_MAX start with the stem, and for stop words (no stem), as in `tsQueryText`. It may match
 * more than the words do (`ginTerms`): callers then recheck with `tsQueryText` (`expandedIsExact`).
 */
function expandedTsQuery(terms: Term[]): RawBuilder<string> {
  const prefixForm = (w: string) => sql`(
    select case when count(*) between 1 and ${EXPAND_MAX} and ${oneToken(w)}
      then string_agg('''' || replace(replace(lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ')::tsquery
      else to_tsquery('english', ${`'${w}':*`}) end
    from (select distinct lexeme from search_lexemes where lexeme >= ${stem(w)} and lexeme < ${stem(w)} || chr(1114111)
          limit ${EXPAND_MAX + 1}) x)`;
  const any = (forms: RawBuilder<unknown>[]) => sql`(${sql.join(forms, sql` || `)})`;
  const all = (chosen: Term[]) =>
    sql<string>`(${sql.join(
      chosen.map((t) =>
        any([...(t.prefix ? [] : [sql`to_tsquery('english', ${`'${t.word}'`})`]), ...termForms(t).map(prefixForm)]),
      ),
      sql` && `,
    )})`;
  const narrowed = ginTerms(terms);
  if (narrowed.length === terms.length) return all(terms);
  // The narrowing words may all be stop words (no lexemes: "the zz"), and GIN would then be asked
  // for the owner's token alone, every row of the user: then ask for every word after all.
  return sql<string>`(select case when numnode(n) > 0 then n else a end
    from (select ${all(narrowed)} as n, ${all(terms)} as a) x)`;
}

/**
 * The ids of the user's links whose text matches every word: the list filter (`GET /api/links?search=`)
 * and the search endpoint use this same matcher. Callers still scope rows by user_id; the owner token
 * makes the index do the scoping work, the user_id check makes it a guarantee.
 */
export function matchingIds(engine: Engine, userId: string, terms: Term[]): RawBuilder<string> {
  if (engine === 'sqlite') {
    return sql<string>`select d.link_id from link_fts f join search_docs d on d.rowid = f.rowid
      where link_fts match ${fts5Match(userId, terms)}`;
  }
  // `(user_id || '')`: the owner token scopes GIN's answer already, and intersecting it with the
  // user's entries of the (user_id, link_id) index cost more than the match for a large library
  // (27–135 ms for 100k entries).
  return sql<string>`select s.link_id from link_search s
    where (s.user_id || '') = ${userId} and s.document @@ ${ginQuery(userId, terms)} and ${documentRecheck(terms)}
      and numnode(to_tsquery('english', ${tsQueryText(terms)})) > 0`;
}

/**
 * PostgreSQL: what GIN is asked for, as SQL that yields a tsquery: the owner's token AND the stored
 * lexemes the words start (`expandedTsQuery`). Its rows need `documentRecheck` on `s.document`.
 */
export const ginQuery = (userId: string, terms: Term[]): RawBuilder<string> =>
  sql<string>`(to_tsquery('simple', ${ownerToken(userId)}) && ${expandedTsQuery(terms)})`;

/**
 * PostgreSQL: the condition that makes `ginQuery`'s rows exact: true when the expansion is exact
 * (`expandedIsExact`), else the words themselves on `s.document`, as a function call (`ts_match_vq`)
 * so that the planner does not look its prefixes up in GIN too.
 */
export const documentRecheck = (terms: Term[]): RawBuilder<boolean> =>
  expandedIsExact(terms)
    ? sql<boolean>`true`
    : sql<boolean>`ts_match_vq(s.document, to_tsquery('english', ${tsQueryText(terms)}))`;

/** A WHERE condition on `links.id` for the list filter; no words means nothing matches. */
export function textMatches(engine: Engine, userId: string, query: string): Expression<SqlBool> {
  const terms = searchTerms(query);
  if (terms.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`links.id in (${matchingIds(engine, userId, terms)})`;
}

/**
 * A WHERE condition on `links.id` for `#tag` (search and the list filter): driven from the tag's
 * rows (the user's tag by `(user_id, name_key)`, then its links), not an `EXISTS` probed for each of
 * the user's links (19.3 ms against 2.4 ms for a tag on 383 of 100k links, bench/RESULTS.md).
 */
export function tagMatches(userId: string, key: string): Expression<SqlBool> {
  return sql<SqlBool>`links.id in (select lt.link_id from link_tags lt join tags t on t.id = lt.tag_id
    where t.user_id = ${userId} and t.name_key = ${key})`;
}
