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
 * letters therefore also match with their last one or two letters dropped (at least 5 kept).
 */
function stemSafePrefixes(word: string): string[] {
  const out: string[] = [];
  for (let cut = word.length - 1; cut >= Math.max(5, word.length - 2); cut--)
    out.push(`${quoted(word.slice(0, cut))}*`);
  return out;
}

/** FTS5's own prefix index answers prefixes of 2 and 3 letters (migration 0004); longer ones are expanded. */
const EXPAND_FROM = 4;
/**
 * A prefix more indexed words start with than this is left to FTS5's prefix merge: the OR of
 * hundreds of words costs more than the merge it replaces.
 */
export const EXPAND_MAX = 200;

/** The string after every string that starts with `prefix` (code-point order, as SQLite compares UTF-8). */
const afterPrefix = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCodePoint((prefix.codePointAt(prefix.length - 1) ?? 0) + 1);

/** Parts of an FTS5 query string: literal text, or SQL that yields text. */
type Piece = string | RawBuilder<string>;

/**
 * A prefix (`forms`: its FTS5 prefix queries) as SQL that yields an FTS5 expression: the words of
 * `link_words` (migration 0007) that start with it, OR-ed, which FTS5 intersects with the owner's
 * entries cheaply, instead of a prefix query, which merges the entries of every term with that prefix
 * in every user's documents first (30 ms against 4 ms for a 100-link user among 1.1M links). Falls
 * back to `forms` when no word or too many words start with it, and for non-ASCII words, whose
 * diacritics the index folds and the query keeps.
 */
function prefixPiece(prefix: string, forms: string[]): Piece {
  const fallback = forms.length === 1 ? forms[0]! : `(${forms.join(' OR ')})`;
  if (!/^[a-z0-9]+$/.test(prefix)) return fallback;
  if (prefix.length === 1) return initialPiece(prefix);
  if (prefix.length < EXPAND_FROM) return fallback;
  // Indexed words are unicode61 tokens: letters and digits, never a quote.
  return sql<string>`(select case when count(*) between 1 and ${EXPAND_MAX}
      then '(' || group_concat('"' || word || '"', ' OR ') || ')' else ${fallback} end
    from (select word from link_words where word >= ${prefix} and word < ${afterPrefix(prefix)}
          limit ${EXPAND_MAX + 1}))`;
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

/** Concatenates pieces in SQL (`||`). */
const concat = (pieces: Piece[]): RawBuilder<string> =>
  sql<string>`(${sql.join(
    pieces.map((p) => (typeof p === 'string' ? sql`${p}` : p)),
    sql` || `,
  )})`;

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
      t.prefix ? prefixPiece(t.word, [`${quoted(t.word)}*`, ...stemSafePrefixes(t.word)]) : quoted(t.word),
      ...t.alternatives.map((a) => prefixPiece(a, [`${quoted(a)}*`])),
    ];
    if (forms.length === 1) pieces.push(forms[0]!);
    else pieces.push('(', ...forms.flatMap((f, j) => (j === 0 ? [f] : [' OR ', f])), ')');
  });
  pieces.push(')');
  return concat(pieces);
}

/**
 * PostgreSQL to_tsquery('english', …) text: every word (or one of its alternatives), the last as a
 * prefix. Snowball stems a prefix too, so a half-typed word gets the same shortened forms as on
 * SQLite ("deploym" must find "deployments", stored as 'deploy'); without them it found nothing and
 * fell through to the much slower typo path.
 */
export function tsQueryText(terms: Term[]): string {
  return terms
    .map((t) => {
      const forms = [t.prefix ? `'${t.word}':*` : `'${t.word}'`];
      if (t.prefix) {
        for (let cut = t.word.length - 1; cut >= Math.max(5, t.word.length - 2); cut--)
          forms.push(`'${t.word.slice(0, cut)}':*`);
      }
      forms.push(...t.alternatives.map((a) => `'${a}':*`));
      return forms.length === 1 ? forms[0] : `(${forms.join(' | ')})`;
    })
    .join(' & ');
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
  return sql<string>`select s.link_id from link_search s
    where s.user_id = ${userId}
      and s.document @@ (to_tsquery('simple', ${ownerToken(userId)}) && to_tsquery('english', ${tsQueryText(terms)}))
      and numnode(to_tsquery('english', ${tsQueryText(terms)})) > 0`;
}

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
