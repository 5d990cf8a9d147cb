import type { Link as LinkItem } from '@linkwise/contract';
import { Plus, SearchX } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { inputClass } from '../../components/ui/field';
import { useAuth } from '../../lib/auth-store';
import { canAddLink, DEFAULT_LINK_LIMIT } from '../../lib/limits';
import { parseSearch, searchStatus } from '../../lib/search-state';
import { LIST_SORTS, SEARCH_SORTS, SORT_LABELS, sortLocally, type ListSort, type SearchSort } from '../../lib/sort';
import { NO_FILTERS, useCategories, useLinks, useSearch, type LinkFilters } from './api';
import { Filters } from './components/filters';
import { LinkCard, LinkCardSkeleton } from './components/link-card';
import { SearchBox, useDebouncedSearch } from './components/search-box';
import { UsageBar } from './components/usage-bar';

// Dialogs (Radix, forms, validation) load when first opened, keeping the dashboard's first paint light.
const AddLinkDialog = lazy(() => import('./components/add-link-dialog').then((m) => ({ default: m.AddLinkDialog })));
const EditLinkDialog = lazy(() => import('./components/edit-link-dialog').then((m) => ({ default: m.EditLinkDialog })));
const UpgradeDialog = lazy(() => import('../../components/upgrade-dialog').then((m) => ({ default: m.UpgradeDialog })));

const SKELETONS = 6;
const grid = 'mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

export default function DashboardPage() {
  const user = useAuth((s) => s.user);
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState('');
  const [sent, setSent] = useDebouncedSearch(text);
  const [filters, setFilters] = useState<LinkFilters>(NO_FILTERS);
  const [listSort, setListSort] = useState<ListSort>('newest');
  const [searchSort, setSearchSort] = useState<SearchSort>('relevance');
  const [editing, setEditing] = useState<LinkItem | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);

  const live = parseSearch(text);
  const sentInput = parseSearch(sent);
  const searching = live.kind === 'query';
  const sentQuery = searching && sentInput.kind === 'query' ? sentInput.query : null;

  const categories = useCategories();
  const list = useLinks(filters, listSort, !searching);
  const search = useSearch(sentQuery, searchSort);

  const first = list.data?.pages[0];
  const subscription = first?.subscription;
  const links = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const results = useMemo(() => sortLocally(search.data?.data ?? [], searchSort), [search.data, searchSort]);
  const limit = subscription?.linkLimit ?? user?.linkLimit ?? DEFAULT_LINK_LIMIT;

  // `add=true` opens an empty dialog; `add=<url>&title=<title>` (the bookmarklet) opens it prefilled.
  const add = params.get('add');
  const addOpen = add !== null && add !== '' && add !== 'false';
  const prefill =
    addOpen && add !== 'true' ? { url: add, title: (params.get('title') ?? '').slice(0, 500) } : undefined;
  const setAddOpen = (open: boolean) =>
    setParams(
      (p) => {
        if (open) p.set('add', 'true');
        else p.delete('add');
        p.delete('title');
        return p;
      },
      { replace: !open },
    );
  const onAdd = () => {
    if (!user) return;
    if (canAddLink(user, subscription, first?.actualTotal ?? 0)) setAddOpen(true);
    else setUpgradeOpen(true);
  };

  const status = searchStatus(live, {
    loading: searching && (sent.trim() !== text.trim() || search.isFetching),
    error: search.isError,
    total: search.data?.total,
    // Pro and billing-off installs have no link limit and search by meaning too (entitlements.ts).
    byMeaning: subscription ? subscription.linkLimit === null : undefined,
  });

  if (list.isError && !searching) {
    return (
      <div className="mx-auto max-w-lg px-4 py-24 text-center">
        <p role="alert" className="text-lg font-medium text-red-600 dark:text-red-400">
          Failed to load links. Please try again.
        </p>
        <Button className="mt-4" onClick={() => void list.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }

  const shown = searching ? (search.isError ? [] : results) : links;
  const total = searching ? (search.data?.total ?? 0) : (first?.total ?? 0);
  const sortLabel = SORT_LABELS[searching ? searchSort : listSort];
  const loading = searching ? search.isPending && sentQuery !== null : list.isPending;

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Your Links</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">Manage and organize your intelligent bookmarks</p>
        </div>
        <Button onClick={onAdd}>
          <Plus className="size-4" aria-hidden /> Add Link
        </Button>
      </div>

      {subscription && subscription.linkLimit !== null && (
        <UsageBar
          used={subscription.totalLinks}
          limit={subscription.linkLimit}
          canAdd={subscription.canAddLinks}
          onUpgrade={() => setUpgradeOpen(true)}
        />
      )}

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-start">
        <SearchBox value={text} onChange={setText} onSubmit={() => setSent(text)} status={status} />
        <label className="flex items-center gap-2 text-sm sm:w-64">
          <span className="shrink-0 font-medium">Sort by</span>
          {searching ? (
            <select
              className={inputClass}
              value={searchSort}
              onChange={(e) => setSearchSort(e.target.value as SearchSort)}
            >
              {SEARCH_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          ) : (
            <select className={inputClass} value={listSort} onChange={(e) => setListSort(e.target.value as ListSort)}>
              {LIST_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </label>
      </div>

      {!searching && <Filters value={filters} onChange={setFilters} categories={categories.data ?? []} />}

      {!loading && (shown.length > 0 || !searching) && (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          Showing {shown.length} of {total} links · {sortLabel}
        </p>
      )}

      {loading ? (
        <div className={grid} aria-busy="true" aria-label="Loading links">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <LinkCardSkeleton key={i} />
          ))}
        </div>
      ) : shown.length > 0 ? (
        <ul className={grid}>
          {shown.map((link) => (
            <li key={link.id}>
              <LinkCard link={link} onEdit={setEditing} />
            </li>
          ))}
        </ul>
      ) : searching && sentQuery !== null && search.isSuccess ? (
        <div className="py-16 text-center">
          <SearchX className="mx-auto size-10 text-slate-400" aria-hidden />
          <h2 className="mt-3 text-lg font-semibold">No results found</h2>
          <p className="mt-1 text-slate-600 dark:text-slate-400">Try different keywords or check your spelling.</p>
          {subscription && subscription.linkLimit !== null && !(live.kind === 'query' && live.tag) && (
            <p className="mt-1 text-slate-600 dark:text-slate-400">
              Pro also finds links by what they mean, not only by their words.{' '}
              <Link to="/pricing" className="font-medium text-blue-700 underline dark:text-blue-400">
                See plans
              </Link>
            </p>
          )}
        </div>
      ) : !searching ? (
        <div className="py-16 text-center">
          <h2 className="text-lg font-semibold">No links found</h2>
          <Button className="mt-4" onClick={onAdd}>
            <Plus className="size-4" aria-hidden /> Add Your First Link
          </Button>
        </div>
      ) : null}

      {!searching && list.hasNextPage && (
        <div className="mt-6 text-center">
          <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </Button>
        </div>
      )}

      <Suspense fallback={null}>
        {addOpen && (
          <AddLinkDialog
            open
            initial={prefill}
            onClose={() => setAddOpen(false)}
            onLimitReached={() => setUpgradeOpen(true)}
          />
        )}
        {editing && <EditLinkDialog link={editing} onClose={() => setEditing(null)} />}
        {upgradeOpen && <UpgradeDialog open onOpenChange={setUpgradeOpen} limit={limit} />}
      </Suspense>
    </div>
  );
}
