import { describe, expect, it } from 'vitest';
import { fts5Match, ownerToken, searchTerms, tsQueryText } from './text-query.js';

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

  it('keeps every word inside quotes: FTS5 operators in a query are plain words', () => {
    const id = '0192f0c4-aaaa-7bbb-8ccc-0123456789ab';
    expect(ownerToken(id)).toBe('u0192f0c4aaaa7bbb8ccc0123456789ab');
    const terms = searchTerms('NEAR or owner');
    terms[0]!.alternatives = ['nears'];
    expect(fts5Match(id, terms)).toBe(
      'owner:"u0192f0c4aaaa7bbb8ccc0123456789ab" AND {title tags url body}:(("near" OR "nears"*) AND "or" AND "owner"*)',
    );
    expect(tsQueryText(searchTerms('fresh pa'))).toBe("'fresh' & 'pa':*");
    // A half-typed word also matches shortened, since the stemmer may change its end.
    expect(fts5Match(id, searchTerms('deploym'))).toContain('("deploym"* OR "deploy"* OR "deplo"*)');
    expect(tsQueryText(searchTerms('zero deploym'))).toBe("'zero' & ('deploym':* | 'deploy':* | 'deplo':*)");
  });
});
