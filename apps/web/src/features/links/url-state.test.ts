import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, readView, writeView } from './url-state';

const read = (query: string) => readView(new URLSearchParams(query));

describe('dashboard view in the address', () => {
  it('reads filters, sort and search, with defaults for what is missing or unknown', () => {
    expect(read('')).toEqual(DEFAULT_VIEW);
    expect(read('category=Home&status=unread&later=1&creds=1&sort=title-asc')).toEqual({
      filters: { category: 'Home', readStatus: 'unread', readLaterOnly: true, withCredentialsOnly: true },
      listSort: 'title-asc',
      searchSort: 'relevance',
      q: '',
    });
    expect(read('status=maybe&later=yes&sort=sideways')).toEqual(DEFAULT_VIEW);
    // In search mode the sort is a search sort; smart is not one of them.
    expect(read('q=%23garden&sort=oldest')).toMatchObject({ q: '#garden', searchSort: 'oldest', listSort: 'newest' });
    expect(read('q=garden&sort=smart')).toMatchObject({ searchSort: 'relevance' });
  });

  it('writes only what differs from the defaults and keeps other parameters (the add dialog)', () => {
    const params = writeView(new URLSearchParams('add=true&sort=oldest'), {
      ...DEFAULT_VIEW,
      filters: { ...DEFAULT_VIEW.filters, category: 'News & Views', readStatus: 'read' },
    });
    expect(params.toString()).toBe('add=true&category=News+%26+Views&status=read');
    expect(writeView(new URLSearchParams(), DEFAULT_VIEW).toString()).toBe('');
  });

  it('round-trips every view', () => {
    const views = [
      { ...DEFAULT_VIEW, listSort: 'smart' as const },
      { ...DEFAULT_VIEW, q: '#tag with space', searchSort: 'title-desc' as const },
      {
        ...DEFAULT_VIEW,
        filters: { category: 'Home', readStatus: 'unread' as const, readLaterOnly: true, withCredentialsOnly: false },
      },
    ];
    for (const view of views) expect(readView(writeView(new URLSearchParams(), view))).toEqual(view);
  });
});
