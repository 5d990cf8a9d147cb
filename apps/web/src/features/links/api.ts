import {
  Limits,
  type BulkRequestInput,
  type Link,
  type LinkCreateInput,
  type LinkListResponse,
  type LinkUpdateInput,
  type SearchResponse,
} from '@linkwise/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import { api, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { sortParams, searchSortQuery, type ListSort, type SearchSort } from '../../lib/sort';

export interface LinkFilters {
  category: string;
  readStatus: 'all' | 'read' | 'unread';
  readLaterOnly: boolean;
  withCredentialsOnly: boolean;
}

export const NO_FILTERS: LinkFilters = {
  category: '',
  readStatus: 'all',
  readLaterOnly: false,
  withCredentialsOnly: false,
};

const PAGE_SIZE = 24;

/** Query parameters of GET /api/links for the dashboard's filters and sort. */
export function listQuery(filters: LinkFilters, sort: ListSort) {
  return {
    ...(filters.category && { category: filters.category }),
    ...(filters.readStatus !== 'all' && { isRead: filters.readStatus === 'read' ? 'true' : 'false' }),
    ...(filters.readLaterOnly && { isReadLater: 'true' }),
    ...(filters.withCredentialsOnly && { hasCredentials: 'true' }),
    ...sortParams(sort),
    limit: PAGE_SIZE,
  };
}

type ListPages = InfiniteData<LinkListResponse, number>;

/**
 * A link whose background analysis is still running. Polling stops two minutes after the analysis
 * was queued (a dead link fails within one), so a stuck job cannot keep the dashboard refetching forever.
 */
const analysing = (l: Link) =>
  l.analysisStatus === 'pending' && Date.now() - Date.parse(l.analysisStartedAt ?? l.createdAt) < 120_000;

/** The link list, a page at a time; polls while a link's background analysis is running. */
export function useLinks(filters: LinkFilters, sort: ListSort, enabled: boolean) {
  const query = listQuery(filters, sort);
  return useInfiniteQuery({
    queryKey: ['links', 'list', query],
    queryFn: ({ pageParam }) => api.listLinks({ query: { ...query, page: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.data.length, 0) < last.total ? last.page + 1 : undefined,
    enabled,
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.data.some(analysing)) ? 3000 : false),
  });
}

/** The user's categories; cached 10 minutes (spec §9). */
export function useCategories() {
  return useQuery({
    queryKey: ['links', 'categories'],
    queryFn: async () => (await api.linkCategories()).data,
    staleTime: 10 * 60_000,
  });
}

export function useSearch(query: string | null, sort: SearchSort) {
  // Relevance and the other sorts send different parameters, so a change of field re-runs the call.
  const params = searchSortQuery(sort);
  return useQuery({
    queryKey: ['search', query, params],
    queryFn: () => api.search({ query: { query: query ?? '', ...params } }),
    enabled: query !== null,
  });
}

function patchCaches(client: QueryClient, id: string, patch: (l: Link) => Link) {
  client.setQueriesData<ListPages>({ queryKey: ['links', 'list'] }, (data) =>
    data
      ? { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.map((l) => (l.id === id ? patch(l) : l)) })) }
      : data,
  );
  client.setQueriesData<SearchResponse>({ queryKey: ['search'] }, (data) =>
    data ? { ...data, data: data.data.map((l) => (l.id === id ? { ...l, ...patch(l) } : l)) } : data,
  );
}

/** Invalidate everything a link change can affect. */
export function invalidateLinks(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: ['links'] }),
    client.invalidateQueries({ queryKey: ['search'] }),
    client.invalidateQueries({ queryKey: ['subscription-status'] }),
    client.invalidateQueries({ queryKey: ['link-stats'] }),
  ]);
}

/** Read / read-later toggles: optimistic, one call per flag, rolled back on failure. */
export function useToggleFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, flag, value }: { id: string; flag: 'isRead' | 'isReadLater'; value: boolean }) =>
      api.updateLink({ params: { id }, body: flag === 'isRead' ? { isRead: value } : { isReadLater: value } }),
    onMutate: async ({ id, flag, value }) => {
      await client.cancelQueries({ queryKey: ['links', 'list'] });
      await client.cancelQueries({ queryKey: ['search'] });
      const snapshot = [
        ...client.getQueriesData({ queryKey: ['links', 'list'] }),
        ...client.getQueriesData({ queryKey: ['search'] }),
      ];
      patchCaches(client, id, (l) => ({ ...l, [flag]: value }));
      return { snapshot };
    },
    onError: (_error, _vars, context) => {
      for (const [key, data] of context?.snapshot ?? []) client.setQueryData(key, data);
      toast.error('Failed to update link');
    },
    onSuccess: (link) => patchCaches(client, link.id, () => link),
  });
}

export function useCreateLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LinkCreateInput) => api.createLink({ body }),
    onSuccess: async () => {
      toast.success('Link added successfully!');
      await invalidateLinks(client);
    },
  });
}

export function useUpdateLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LinkUpdateInput }) => api.updateLink({ params: { id }, body }),
    onSuccess: async () => {
      toast.success('Link updated successfully!');
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to update link')),
  });
}

export function useDeleteLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteLink({ params: { id } }),
    onSuccess: async () => {
      toast.success('Link deleted successfully!');
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete link')),
  });
}

export function useAnalyze() {
  return useMutation({ mutationFn: (url: string) => api.analyzeLink({ body: { url } }) });
}

/** Re-analysis of one link (the card's Retry analysis): the card turns pending at once. */
export function useReanalyze() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.reanalyzeLink({ params: { id } }),
    onSuccess: async (_result, id) => {
      patchCaches(client, id, (l) => ({
        ...l,
        analysisStatus: 'pending',
        analysisFailure: null,
        analysisStartedAt: new Date().toISOString(),
      }));
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to retry the analysis')),
  });
}

/**
 * Counts one open of a link from the app. `keepalive` lets the request finish while the browser
 * leaves for the link; a lost count is not worth bothering the user about.
 */
export function countClick(id: string): void {
  const token = useAuth.getState().token;
  if (!token) return;
  void fetch(`/api/links/${encodeURIComponent(id)}/click`, {
    method: 'POST',
    keepalive: true,
    headers: { authorization: `Bearer ${token}` },
  }).catch(() => undefined);
}

export function useTags(enabled = true) {
  return useQuery({ queryKey: ['links', 'tags'], queryFn: () => api.listTags(), enabled });
}

export function useRenameTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.renameTag({ params: { id }, body: { name } }),
    onSuccess: async ({ data }, { name }) => {
      toast.success(data.merged ? `Merged into #${data.name}` : `Renamed to #${name.replace(/^#+/, '').trim()}`);
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to rename the tag')),
  });
}

export function useDeleteTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteTag({ params: { id } }),
    onSuccess: async ({ data }) => {
      toast.success(`Tag removed from ${data.links} ${data.links === 1 ? 'link' : 'links'}`);
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete the tag')),
  });
}

export function useRenameCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { from: string; to: string }) => api.renameCategory({ body }),
    onSuccess: async ({ data }, { to }) => {
      toast.success(`${data.links} ${data.links === 1 ? 'link' : 'links'} now in ${to.trim()}`);
      await invalidateLinks(client);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to rename the category')),
  });
}

/** One action over the selected links. */
export function useBulk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkRequestInput) => api.bulkLinks({ body }),
    onSettled: () => invalidateLinks(client),
    onError: (error) => toast.error(errorMessage(error, 'Failed to update the selected links')),
  });
}

/** Hides links from the cached lists at once (a delete waiting for its undo time). */
export function hideLinks(client: QueryClient, ids: ReadonlySet<string>) {
  client.setQueriesData<ListPages>({ queryKey: ['links', 'list'] }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            data: p.data.filter((l) => !ids.has(l.id)),
            total: Math.max(0, p.total - p.data.filter((l) => ids.has(l.id)).length),
          })),
        }
      : data,
  );
  client.setQueriesData<SearchResponse>({ queryKey: ['search'] }, (data) =>
    data ? { ...data, data: data.data.filter((l) => !ids.has(l.id)) } : data,
  );
}

/** Every link id matching the list filters (for "select all matching"), up to the bulk limit. */
export async function matchingIds(filters: LinkFilters, sort: ListSort): Promise<string[]> {
  const query = { ...listQuery(filters, sort), limit: Limits.pageSizeMax };
  const ids: string[] = [];
  for (let page = 1; ids.length < Limits.bulkMax; page++) {
    const res = await api.listLinks({ query: { ...query, page } });
    ids.push(...res.data.map((l) => l.id));
    if (res.data.length === 0 || ids.length >= res.total) break;
  }
  return ids.slice(0, Limits.bulkMax);
}
