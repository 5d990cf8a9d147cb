import { isSortOption, LIST_SORTS, SEARCH_SORTS, type ListSort, type SearchSort } from '../../lib/sort';
import { NO_FILTERS, type LinkFilters } from './api';

/** What the dashboard shows, as kept in its address: filters, sorts and the search text. */
export interface DashboardView {
  filters: LinkFilters;
  listSort: ListSort;
  searchSort: SearchSort;
  q: string;
}

export const DEFAULT_VIEW: DashboardView = { filters: NO_FILTERS, listSort: 'newest', searchSort: 'relevance', q: '' };

/** The names in the query string; `add` (the add dialog) and anything else are left alone. */
const KEYS = ['category', 'status', 'later', 'creds', 'sort', 'q'] as const;

/** Reads a view from the address; unknown values fall back to the defaults. */
export function readView(params: URLSearchParams): DashboardView {
  const status = params.get('status');
  const sort = params.get('sort');
  const q = params.get('q') ?? '';
  const searching = q.trim().length > 0;
  return {
    filters: {
      category: params.get('category') ?? '',
      readStatus: status === 'read' || status === 'unread' ? status : 'all',
      readLaterOnly: params.get('later') === '1',
      withCredentialsOnly: params.get('creds') === '1',
    },
    listSort:
      !searching && isSortOption(sort) && (LIST_SORTS as readonly string[]).includes(sort)
        ? (sort as ListSort)
        : 'newest',
    searchSort:
      searching && isSortOption(sort) && (SEARCH_SORTS as readonly string[]).includes(sort)
        ? (sort as SearchSort)
        : 'relevance',
    q,
  };
}

/** Writes a view into `params` (a copy), naming only what differs from the defaults. */
export function writeView(params: URLSearchParams, view: DashboardView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of KEYS) next.delete(key);
  const { filters, q } = view;
  if (filters.category) next.set('category', filters.category);
  if (filters.readStatus !== 'all') next.set('status', filters.readStatus);
  if (filters.readLaterOnly) next.set('later', '1');
  if (filters.withCredentialsOnly) next.set('creds', '1');
  const searching = q.trim().length > 0;
  if (searching) {
    next.set('q', q);
    if (view.searchSort !== 'relevance') next.set('sort', view.searchSort);
  } else if (view.listSort !== 'newest') {
    next.set('sort', view.listSort);
  }
  return next;
}

/**
 * Keeps the sent search and the address's `q` in step. The router commits an address in a
 * transition, so `q` can arrive after the search has moved on (typed, then cleared): an address
 * this side wrote is never taken for a back or forward navigation that should refill the box.
 */
export class SearchAddress {
  private current: string;
  private written: string[] = [];

  constructor(q: string) {
    this.current = q;
  }

  /** Whether the sent search must be written to the address (and it is counted as written). */
  send(sent: string): boolean {
    if (sent === this.current) return false;
    this.current = sent;
    this.written.push(sent);
    return true;
  }

  /** The search an arriving address brings, or null when it is one this side wrote (or nothing new). */
  arrived(q: string): string | null {
    const own = this.written.indexOf(q);
    if (own >= 0) {
      this.written.splice(0, own + 1);
      return null;
    }
    if (q === this.current) return null;
    this.current = q;
    this.written = [];
    return q;
  }
}
