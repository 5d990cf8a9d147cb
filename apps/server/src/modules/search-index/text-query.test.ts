import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type RawBuilder } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPAND_MAX, fts5Match, ownerToken, searchTerms, tsQueryText } from './text-query.js';

// The FTS5 query is built in SQL (prefixes are expanded from `link_words`): evaluate it on SQLite.
const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
const ready = (async () => {
  await sql`create table link_words (word text primary key) without rowid`.execute(db);
  const words = ['deploy', 'deployed', 'deployment', 'deployments', 'nearby', 'owners', 'owner'];
  for (let i = 0; i < EXPAND_MAX + 1; i++) words.push(`common${String(i).padStart(3, '0')}`);
  for (const w of words) await sql`insert into link_words values (${w})`.execute(db);
})();
afterAll(() => db.destroy());

async function evaluate(expression: RawBuilder<string>): Promise<string> {
  await ready;
  const { rows } = await sql<{ m: string }>`select ${expression} as m`.execute(db);
  return rows[0]!.m;
}

describe('text query', () => {
  it('splits a query into lower-case words, the last one a prefix', () => {
    expect(searchTerms('  Hello, WORLD! café-au-lait 42 ')).toEqual([
      { word: 'hello', prefix: false, alternatives: [] },
      { word: 'world', prefix: false, alternatives: [] },
      { word: 'café', prefix: false, alternatives: [] },
      { word: 'au', prefix: false, alternatives: [] },
      { word: 'lait', prefix: false, alternatives: [] },
      { word: '42', prefix: true, alternatives: [] },
    ]);
    expect(searchTerms('"; drop -- %_*')).toHaveLength(1);
    expect(searchTerms('%%')).toEqual([]);
  });

  it('keeps every word inside quotes: FTS5 operators in a query are plain words', async () => {
    const id = '0192f0c4-aaaa-7bbb-8ccc-0123456789ab';
    expect(ownerToken(id)).toBe('u0192f0c4aaaa7bbb8ccc0123456789ab');
    const terms = searchTerms('NEAR or owner');
    terms[0]!.alternatives = ['nears'];
    expect(await evaluate(fts5Match(id, terms))).toBe(
      'owner:"u0192f0c4aaaa7bbb8ccc0123456789ab" AND {title tags url body}:(("near" OR "nears") AND "or" AND ("owner" OR "owners"))',
    );
    expect(await evaluate(fts5Match(id, searchTerms('or NEAR'), 'title'))).toContain('{title}:("or" AND ("nearby"))');
    expect(tsQueryText(searchTerms('fresh pa'))).toBe("'fresh' & 'pa':*");
    expect(tsQueryText(searchTerms('zero deploym'))).toBe("'zero' & ('deploym':* | 'deploy':* | 'deplo':*)");
  });

  it('expands a typed prefix into the indexed words it starts, and falls back to a prefix query', async () => {
    const id = '0192f0c4-aaaa-7bbb-8ccc-0123456789ab';
    const match = async (q: string) => (await evaluate(fts5Match(id, searchTerms(q)))).replace(/^.*\{[^}]*\}:/, '');
    // Words, not stems: "deploym" starts "deployment(s)", which the index stems as it stored them.
    expect(await match('deploym')).toBe('(("deployment" OR "deployments"))');
    // No indexed word starts with it: the word itself (one lookup) or what its shortened forms start.
    const deploy = '("deploy" OR "deployed" OR "deployment" OR "deployments")';
    expect(await match('deployx')).toBe(`(("deployx" OR ${deploy}))`);
    expect(await match('zzzz')).toBe('("zzzz")');
    // Too many words start with it: left to FTS5.
    expect(await match('comm')).toBe('("comm"*)');
    // Two or three letters are FTS5's own prefix index; diacritics are folded by the index only.
    expect(await match('de')).toBe('("de"*)');
    // One letter: the letter as a word, or each two-letter prefix indexed words start with.
    expect(await match('d')).toBe('(("d" OR "de"*))');
    expect(await match('o')).toBe('(("o" OR "ow"*))');
    expect(await match('x')).toBe('(("x"))');
    expect(await match('déploy')).toBe('(("déploy"* OR "déplo"*))');
  });
});
