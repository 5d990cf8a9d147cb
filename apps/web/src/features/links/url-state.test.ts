import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, readView, SearchAddress, writeView } from './url-state';

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

describe('the search and its address', () => {
  it('takes an address it wrote, arriving late, for its own: a cleared search stays cleared', () => {
    const address = new SearchAddress('');
    expect(address.send('')).toBe(false);
    expect(address.send('nx')).toBe(true);
    // Cleared before the router committed `q=nx`: both writes are on their way.
    expect(address.send('')).toBe(true);
    expect(address.arrived('nx')).toBeNull();
    expect(address.arrived('')).toBeNull();
    // The router may commit only the last of them.
    expect(address.send('garden')).toBe(true);
    expect(address.send('gardening')).toBe(true);
    expect(address.arrived('gardening')).toBeNull();
    expect(address.arrived('garden')).toBe('garden');
  });

  it('brings the search of a back or forward navigation into the box', () => {
    const address = new SearchAddress('react');
    expect(address.arrived('react')).toBeNull();
    expect(address.arrived('#garden')).toBe('#garden');
    // Now the box holds it: nothing to write back.
    expect(address.send('#garden')).toBe(false);
    expect(address.arrived('')).toBe('');
  });
});
