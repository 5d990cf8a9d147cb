import type { Link, SearchResult, SortField } from '@linkwise/contract';

export const LIST_SORTS = [
  'newest',
  'oldest',
  'recently-updated',
  'title-asc',
  'title-desc',
  'unread-first',
  'read-later-first',
  'smart',
] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export type SearchSort = 'relevance' | Exclude<ListSort, 'smart'>;
export type SortOption = ListSort | 'relevance';

export const SORT_LABELS: Record<SortOption, string> = {
  relevance: 'Most Relevant',
  newest: 'Newest First',
  oldest: 'Oldest First',
  'recently-updated': 'Recently Updated',
  'title-asc': 'Title (A-Z)',
  'title-desc': 'Title (Z-A)',
  'unread-first': 'Unread First',
  'read-later-first': 'Read Later First',
  smart: 'Smart Sort',
};

/** In search mode: relevance plus every list sort except smart (spec §3). */
export const SEARCH_SORTS: readonly SearchSort[] = [
  'relevance',
  ...LIST_SORTS.filter((s): s is Exclude<ListSort, 'smart'> => s !== 'smart'),
];

export interface SortParams {
  sortBy: SortField;
  sortOrder: 'asc' | 'desc';
}

const PARAMS: Record<SortOption, SortParams> = {
  newest: { sortBy: 'createdAt', sortOrder: 'desc' },
  oldest: { sortBy: 'createdAt', sortOrder: 'asc' },
  'recently-updated': { sortBy: 'updatedAt', sortOrder: 'desc' },
  'title-asc': { sortBy: 'title', sortOrder: 'asc' },
  'title-desc': { sortBy: 'title', sortOrder: 'desc' },
  'unread-first': { sortBy: 'isRead', sortOrder: 'asc' },
  'read-later-first': { sortBy: 'isReadLater', sortOrder: 'desc' },
  smart: { sortBy: 'smart', sortOrder: 'desc' },
  relevance: { sortBy: 'relevance', sortOrder: 'desc' },
};

/** The API's sortBy/sortOrder for a sort option; unknown values fall back to newest. */
export function sortParams(option: string): SortParams {
  return PARAMS[option as SortOption] ?? PARAMS.newest;
}

export function isSortOption(value: string | null | undefined): value is SortOption {
  return value != null && value in PARAMS;
}

/** The search call sends sortBy/sortOrder only when the sort is not relevance (spec §7). */
export function searchSortQuery(option: SearchSort): Partial<SortParams> {
  return option === 'relevance' ? {} : sortParams(option);
}

const time = (iso: string) => Date.parse(iso) || 0;
const newestFirst = (a: Link, b: Link) => time(b.createdAt) - time(a.createdAt);
const smartScore = (l: Link) => (l.isReadLater ? 2 : 0) + (l.isRead ? 0 : 1);

/** Sorts search results in the browser (spec §4: sorting is local while a search is active). */
export function sortLocally<T extends Link | SearchResult>(items: readonly T[], option: string): T[] {
  const by = (compare: (a: T, b: T) => number) => [...items].sort((a, b) => compare(a, b) || newestFirst(a, b));
  switch (option as SortOption) {
    case 'oldest':
      return by((a, b) => time(a.createdAt) - time(b.createdAt));
    case 'recently-updated':
      return by((a, b) => time(b.updatedAt) - time(a.updatedAt));
    case 'title-asc':
      return by((a, b) => a.title.localeCompare(b.title));
    case 'title-desc':
      return by((a, b) => b.title.localeCompare(a.title));
    case 'unread-first':
      return by((a, b) => Number(a.isRead) - Number(b.isRead));
    case 'read-later-first':
      return by((a, b) => Number(b.isReadLater) - Number(a.isReadLater));
    case 'smart':
      return by((a, b) => smartScore(b) - smartScore(a));
    case 'relevance':
      return by((a, b) => similarity(b) - similarity(a));
    case 'newest':
      return by(() => 0);
    default:
      return by(() => 0);
  }
}

const similarity = (l: Link | SearchResult) => ('similarity' in l ? l.similarity : 0);
