import { ApiError, Limits, Messages } from '@linkwise/contract';

/** What the search box means: no search, too short, or a (possibly tag) query to send. */
export type SearchInput =
  { kind: 'idle' } | { kind: 'too-short' } | { kind: 'query'; query: string; tag: string | null };

export function parseSearch(raw: string): SearchInput {
  const query = raw.trim();
  if (!query) return { kind: 'idle' };
  if (query.length < Limits.searchMinLength) return { kind: 'too-short' };
  const tag = /^#(\S.*)$/.exec(query)?.[1]?.trim() ?? null;
  return { kind: 'query', query, tag };
}

export type SearchStatus = { tone: 'muted' | 'info' | 'success' | 'error'; text: string } | null;

/** The status line next to the search box (spec §2 search states, §8 search failure). */
export function searchStatus(
  input: SearchInput,
  state: {
    loading: boolean;
    error: boolean;
    total: number | undefined;
    byMeaning?: boolean;
    /** What went wrong, from `searchFailureText`; the spec's generic sentence when absent. */
    failure?: string | undefined;
  },
): SearchStatus {
  if (input.kind === 'idle') return null;
  if (input.kind === 'too-short') return { tone: 'muted', text: Messages.searchTooShort };
  if (state.loading) return { tone: 'info', text: 'Searching with intelligent matching...' };
  if (state.error) return { tone: 'error', text: state.failure ?? Messages.searchFailed };
  if (state.total === undefined) return null;
  if (state.total === 0) {
    // Free searches words only: say what Pro would have added, not only that nothing matched.
    if (state.byMeaning === false && !input.tag) return { tone: 'muted', text: Messages.searchNoResultsFree };
    return { tone: 'muted', text: 'No results found with smart search' };
  }
  const tagPart = input.tag ? ` for tag: #${input.tag}` : '';
  return {
    tone: 'success',
    text: `Found ${state.total} results using smart search${tagPart}`, // the spec's wording, also for 1
  };
}

/**
 * Why a search failed, for the status line. A 4xx answer from the server names what is wrong with
 * the request ("Search text can be at most 500 characters"), and trying again would fail the same
 * way; a network error, a 5xx or a body that is not the server's own keeps the spec's sentence.
 */
export function searchFailureText(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.code !== 'INTERNAL') {
    return error.message || Messages.searchFailed;
  }
  return Messages.searchFailed;
}

/**
 * While the user's links are being re-embedded into a new search model (the server says so with
 * each search), how far it got: search answers from both models meanwhile, so this is news, not a
 * warning.
 */
export function reindexNote(reindexing: { done: number; total: number } | undefined): string | null {
  if (!reindexing || reindexing.done >= reindexing.total) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  return `Improving search by meaning: ${n(reindexing.done)} of ${n(reindexing.total)} links re-indexed`;
}
