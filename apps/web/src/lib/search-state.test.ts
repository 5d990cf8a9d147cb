import { ApiError, Limits } from '@linkwise/contract';
import { describe, expect, it } from 'vitest';
import { parseSearch, searchFailureText, searchStatus, reindexNote } from './search-state';

const done = (total: number) => ({ loading: false, error: false, total });

describe('search box input', () => {
  it('trims, needs two characters and recognises #tag', () => {
    expect(parseSearch('   ')).toEqual({ kind: 'idle' });
    expect(parseSearch(' a ')).toEqual({ kind: 'too-short' });
    expect(parseSearch('  react hooks ')).toEqual({ kind: 'query', query: 'react hooks', tag: null });
    expect(parseSearch('#recipes')).toEqual({ kind: 'query', query: '#recipes', tag: 'recipes' });
  });
});

describe('search status line (spec §2 search states)', () => {
  it('says nothing without a query and asks for two characters', () => {
    expect(searchStatus({ kind: 'idle' }, done(0))).toBeNull();
    expect(searchStatus({ kind: 'too-short' }, done(0))?.text).toBe('Type at least 2 characters to start searching...');
  });

  it('shows searching, then the count, with the tag for tag searches', () => {
    const q = parseSearch('react');
    expect(searchStatus(q, { loading: true, error: false, total: undefined })?.text).toBe(
      'Searching with intelligent matching...',
    );
    expect(searchStatus(q, done(3))?.text).toBe('Found 3 results using smart search');
    expect(searchStatus(parseSearch('#food'), done(2))?.text).toBe('Found 2 results using smart search for tag: #food');
    expect(searchStatus(q, done(1))?.text).toBe('Found 1 results using smart search');
  });

  it('tells a Free user that search by meaning is part of Pro when nothing matched', () => {
    const free = { ...done(0), byMeaning: false };
    expect(searchStatus(parseSearch('zzz'), free)?.text).toBe('No results found. Search by meaning is part of Pro.');
    // A tag search is exact on every plan; Pro (or billing off) keeps the spec's wording.
    expect(searchStatus(parseSearch('#food'), free)?.text).toBe('No results found with smart search');
    expect(searchStatus(parseSearch('zzz'), { ...done(0), byMeaning: true })?.text).toBe(
      'No results found with smart search',
    );
  });

  it('says when nothing matched, and when the search failed (in red)', () => {
    expect(searchStatus(parseSearch('zzz'), done(0))?.text).toBe('No results found with smart search');
    expect(searchStatus(parseSearch('zzz'), { loading: false, error: true, total: undefined })).toEqual({
      tone: 'error',
      text: 'Search failed. Please try again.',
    });
  });
});

describe('why a search failed', () => {
  const refused = `Search text can be at most ${Limits.searchMax} characters`;

  it('shows the server’s sentence for a request it refused (4xx)', () => {
    const error = new ApiError(400, refused, 'VALIDATION_ERROR', { fields: { query: refused } }, undefined);
    expect(searchFailureText(error)).toBe('Search text can be at most 500 characters');
    expect(searchStatus(parseSearch('react'), { ...done(0), total: undefined, error: true, failure: refused })).toEqual(
      { tone: 'error', text: 'Search text can be at most 500 characters' },
    );
  });

  it('keeps the generic sentence for a network error, a 5xx or a body that is not the server’s', () => {
    expect(searchFailureText(new TypeError('Failed to fetch'))).toBe('Search failed. Please try again.');
    expect(
      searchFailureText(new ApiError(500, 'Something went wrong on our side.', 'INTERNAL', undefined, undefined)),
    ).toBe('Search failed. Please try again.');
    expect(searchFailureText(new ApiError(503, 'Search is busy', 'SERVICE_UNAVAILABLE', undefined, undefined))).toBe(
      'Search failed. Please try again.',
    );
    // A proxy's HTML error page: the client names it INTERNAL with the status text.
    expect(searchFailureText(new ApiError(413, 'Payload Too Large', 'INTERNAL', undefined, undefined))).toBe(
      'Search failed. Please try again.',
    );
  });
});

describe('reindexNote', () => {
  it('says how far a re-indexing got, and nothing once it is done or when there is none', () => {
    expect(reindexNote({ done: 0, total: 4 })).toBe('Improving search by meaning: 0 of 4 links re-indexed');
    expect(reindexNote({ done: 4, total: 4 })).toBeNull();
    expect(reindexNote(undefined)).toBeNull();
  });
});
