/**
 * What the search index holds: the fields of a link that feed it, the ranking tier of each, and
 * which of them correct typos. Both engines' definitions (`schema.sqlite.ts`, `schema.postgres.ts`)
 * are generated from this one list; a change here changes both, and the migration that applies it
 * rebuilds the index (`applySearchSchema`).
 */

/**
 * Page text is indexed up to this many characters: the start of a page says what it is about, and a
 * bounded document keeps PostgreSQL's `document` and SQLite's entries small.
 */
export const PAGE_TEXT_CHARS = 8000;

/** Text columns of `links` that feed the index. */
export type LinkTextColumn = 'title' | 'url' | 'description' | 'ai_description' | 'category' | 'notes';

/**
 * Text matches are ordered by where all the words are: in the title, then in the title or tags,
 * then anywhere; newest first within each (decision 0004 §9, §10).
 */
export type Tier = 'title' | 'tags' | 'anywhere';

export interface SearchField {
  /** A text column of `links`, or the link's tag names (`tags`), or its page's text (`page_text`). */
  readonly source: LinkTextColumn | 'tags' | 'page_text';
  readonly tier: Tier;
  /** Only the first this many characters are indexed. */
  readonly maxChars?: number;
  /**
   * Its words are the spellings a typo is corrected to (PostgreSQL's `search_words`, SQLite's words
   * of a small library): all of them, those of its first n characters, or none.
   */
  readonly typoWords: boolean | number;
  /** A URL: punctuation separates its words (PostgreSQL's parser would keep a URL as one token). */
  readonly url?: true;
  /**
   * Several kilobytes: matched (PostgreSQL's `document`) but kept out of PostgreSQL's ranking
   * vector, which every tier's walk reads (decision 0004 §1). Tier `anywhere` only: the tiers above
   * are matched on that vector.
   */
  readonly bulky?: true;
}

/** Every field the index holds, in the order each engine concatenates them. */
export const SEARCH_FIELDS: readonly SearchField[] = [
  { source: 'title', tier: 'title', typoWords: true },
  { source: 'tags', tier: 'tags', typoWords: true },
  { source: 'url', tier: 'anywhere', typoWords: true, url: true },
  { source: 'description', tier: 'anywhere', typoWords: 300 },
  { source: 'ai_description', tier: 'anywhere', typoWords: false },
  { source: 'category', tier: 'anywhere', typoWords: true },
  { source: 'notes', tier: 'anywhere', typoWords: true },
  { source: 'page_text', tier: 'anywhere', typoWords: false, maxChars: PAGE_TEXT_CHARS, bulky: true },
];

export const isLinkColumn = (source: SearchField['source']): source is LinkTextColumn =>
  source !== 'tags' && source !== 'page_text';

/** The columns of `links` whose change re-indexes the link. */
export const LINK_COLUMNS: readonly LinkTextColumn[] = SEARCH_FIELDS.map((f) => f.source).filter(isLinkColumn);
