import type { SearchResult } from '@linkwise/contract';
import { describe, expect, it } from 'vitest';
import { LIST_SORTS, SEARCH_SORTS, searchSortQuery, sortLocally, sortParams } from './sort';
import { testLink } from '../test/fixtures';

const link = (id: string, over: Partial<SearchResult> = {}): SearchResult => ({
  ...testLink({ id, url: `https://${id}.example/`, title: id }),
  similarity: 0.5,
  match_type: 'semantic',
  ...over,
});

describe('sort options → API parameters', () => {
  it('maps every option the way API.md fixes', () => {
    expect(Object.fromEntries(LIST_SORTS.map((s) => [s, sortParams(s)]))).toEqual({
      newest: { sortBy: 'createdAt', sortOrder: 'desc' },
      oldest: { sortBy: 'createdAt', sortOrder: 'asc' },
      'recently-updated': { sortBy: 'updatedAt', sortOrder: 'desc' },
      'title-asc': { sortBy: 'title', sortOrder: 'asc' },
      'title-desc': { sortBy: 'title', sortOrder: 'desc' },
      'unread-first': { sortBy: 'isRead', sortOrder: 'asc' },
      'read-later-first': { sortBy: 'isReadLater', sortOrder: 'desc' },
      smart: { sortBy: 'smart', sortOrder: 'desc' },
    });
  });

  it('falls back to newest for unknown values', () => {
    expect(sortParams('sideways')).toEqual({ sortBy: 'createdAt', sortOrder: 'desc' });
  });

  it('offers relevance plus every list sort except smart while searching', () => {
    expect(SEARCH_SORTS[0]).toBe('relevance');
    expect(SEARCH_SORTS).not.toContain('smart');
    expect(SEARCH_SORTS).toHaveLength(LIST_SORTS.length);
  });

  it('sends sortBy/sortOrder to search only when the sort is not relevance', () => {
    expect(searchSortQuery('relevance')).toEqual({});
    expect(searchSortQuery('oldest')).toEqual({ sortBy: 'createdAt', sortOrder: 'asc' });
  });
});

describe('local sorting of search results', () => {
  const older = link('older', { createdAt: '2025-01-01T00:00:00.000Z', similarity: 0.9 });
  const newer = link('newer', { createdAt: '2025-02-01T00:00:00.000Z', similarity: 0.9 });
  const best = link('best', { createdAt: '2024-01-01T00:00:00.000Z', similarity: 0.99 });

  it('orders by similarity, ties by newest', () => {
    expect(sortLocally([older, best, newer], 'relevance').map((l) => l.id)).toEqual(['best', 'newer', 'older']);
  });

  it('scores smart as read-later 2 + unread 1, ties by newest', () => {
    const readLaterRead = link('rl-read', { isReadLater: true, isRead: true, createdAt: '2025-03-01T00:00:00.000Z' });
    const readLaterUnread = link('rl-unread', { isReadLater: true });
    const unread = link('unread', { createdAt: '2025-04-01T00:00:00.000Z' });
    const read = link('read', { isRead: true, createdAt: '2025-05-01T00:00:00.000Z' });
    expect(sortLocally([read, unread, readLaterRead, readLaterUnread], 'smart').map((l) => l.id)).toEqual([
      'rl-unread',
      'rl-read',
      'unread',
      'read',
    ]);
  });

  it('sorts titles both ways and flags as the spec says', () => {
    const a = link('a', { title: 'Apple', isRead: true });
    const b = link('b', { title: 'banana', isReadLater: true });
    expect(sortLocally([b, a], 'title-asc').map((l) => l.id)).toEqual(['a', 'b']);
    expect(sortLocally([a, b], 'title-desc').map((l) => l.id)).toEqual(['b', 'a']);
    expect(sortLocally([a, b], 'unread-first').map((l) => l.id)).toEqual(['b', 'a']);
    expect(sortLocally([a, b], 'read-later-first').map((l) => l.id)).toEqual(['b', 'a']);
  });

  it('falls back to newest and never mutates its input', () => {
    const input = [older, newer];
    expect(sortLocally(input, 'nonsense').map((l) => l.id)).toEqual(['newer', 'older']);
    expect(input.map((l) => l.id)).toEqual(['older', 'newer']);
  });
});
