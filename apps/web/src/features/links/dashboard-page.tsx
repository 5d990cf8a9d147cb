import type { Link as LinkItem } from '@linkwise/contract';
import { Keyboard, Plus, SearchX, Tags } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { inputClass } from '../../components/ui/field';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { canAddLink, DEFAULT_LINK_LIMIT } from '../../lib/limits';
import { parseSearch, reindexNote, searchFailureText, searchStatus } from '../../lib/search-state';
import { LIST_SORTS, SEARCH_SORTS, SORT_LABELS, sortLocally, type ListSort, type SearchSort } from '../../lib/sort';
import { matchingIds, NO_FILTERS, useCategories, useLinks, useSearch, type LinkFilters } from './api';
import { BulkBar } from './components/bulk-bar';
import { FilteredEmpty, FirstRunEmpty } from './components/empty-states';
import { Filters, hasActiveFilters } from './components/filters';
import { LinkCard, LinkCardSkeleton } from './components/link-card';
import { SearchBox, useDebouncedSearch } from './components/search-box';
import { UsageBar } from './components/usage-bar';
import { commandFor } from './shortcuts';
import { readView, SearchAddress, writeView, type DashboardView } from './url-state';

// Dialogs (Radix, forms, validation) load when first opened, keeping the dashboard's first paint light.
const AddLinkDialog = lazy(() => import('./components/add-link-dialog').then((m) => ({ default: m.AddLinkDialog })));
const EditLinkDialog = lazy(() => import('./components/edit-link-dialog').then((m) => ({ default: m.EditLinkDialog })));
const UpgradeDialog = lazy(() => import('../../components/upgrade-dialog').then((m) => ({ default: m.UpgradeDialog })));
const LibraryDialog = lazy(() => import('./components/library-dialog').then((m) => ({ default: m.LibraryDialog })));
const ShortcutsDialog = lazy(() =>
  import('./components/shortcuts-dialog').then((m) => ({ default: m.ShortcutsDialog })),
);

const SKELETONS = 6;
const grid = 'mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

const checkboxAt = (index: number) => `[data-card-index="${index}"] input[type="checkbox"]`;
const cardAt = (index: number) => document.querySelector<HTMLElement>(`[data-card-index="${index}"]`);
const focusedCard = () => document.activeElement?.closest<HTMLElement>('[data-card-index]') ?? null;

export default function DashboardPage() {
  const user = useAuth((s) => s.user);
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readView(params), [params]);
  const { filters, listSort, searchSort } = view;
  const [text, setText] = useState(view.q);
  const [sent, setSent] = useDebouncedSearch(text);
  const [editing, setEditing] = useState<LinkItem | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<number | null>(null);

  /** A new view: filters and sorts add a history entry (back undoes them); typing replaces it. */
  const setView = useCallback(
    (patch: Partial<DashboardView>, replace = false) =>
      setParams((p) => writeView(p, { ...readView(p), ...patch }), { replace }),
    [setParams],
  );

  // The sent search follows into the address; back and forward bring the address's search back.
  const [address] = useState(() => new SearchAddress(view.q));
  useEffect(() => {
    if (address.send(sent)) setView({ q: sent }, true);
    // Only a new sent text writes the address; `view.q` changing is handled below.
  }, [sent]);
  useEffect(() => {
    const q = address.arrived(view.q);
    if (q !== null) {
      setText(q);
      setSent(q);
    }
  }, [view.q]);

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
  // An address that asks for the add dialog (`?add=`, the bookmarklet) at the plan's limit gets the
  // upgrade dialog instead, as the Add Link button does; the dialog waits until the count is known.
  const atLimit = Boolean(user && first && !canAddLink(user, subscription, first.actualTotal));
  const addReady = addOpen && !list.isLoading && !atLimit;
  useEffect(() => {
    if (!addOpen || !atLimit) return;
    setUpgradeOpen(true);
    setParams(
      (p) => {
        p.delete('add');
        p.delete('title');
        return p;
      },
      { replace: true },
    );
  }, [addOpen, atLimit, setParams]);

  const shown = searching ? (search.isError ? [] : results) : links;
  const total = searching ? (search.data?.total ?? 0) : (first?.total ?? 0);

  // A selection belongs to one view: changing filters, sort or search clears it.
  const viewKey = `${params.get('category')}|${params.get('status')}|${params.get('later')}|${params.get('creds')}|${sent}`;
  useEffect(() => {
    setSelected(new Set());
    anchor.current = null;
  }, [viewKey]);

  const toggleSelect = useCallback(
    (link: LinkItem, range: boolean) => {
      const index = shown.findIndex((l) => l.id === link.id);
      setSelected((current) => {
        const next = new Set(current);
        if (range && anchor.current !== null && index >= 0) {
          const [from, to] = anchor.current < index ? [anchor.current, index] : [index, anchor.current];
          for (const l of shown.slice(from, to + 1)) next.add(l.id);
        } else if (next.has(link.id)) next.delete(link.id);
        else next.add(link.id);
        return next;
      });
      anchor.current = index;
    },
    [shown],
  );
  const selectAll = () => {
    if (searching) {
      setSelected(new Set(shown.map((l) => l.id)));
      return;
    }
    matchingIds(filters, listSort).then(
      (ids) => setSelected(new Set(ids)),
      (error: unknown) => toast.error(errorMessage(error, 'Failed to select the links')),
    );
  };

  const showTag = (tag: string) => {
    const q = `#${tag}`;
    setText(q);
    setSent(q);
    // A history entry of its own (back returns to the list), written once: the effect above skips it.
    if (address.send(q)) setView({ q });
  };

  // Keyboard shortcuts; the latest state is read through a ref so the listener is added once.
  const latest = useRef({ shown, onAdd, toggleSelect, selected });
  latest.current = { shown, onAdd, toggleSelect, selected };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const dialogOpen = document.querySelector('[role="dialog"], [role="alertdialog"]') !== null;
      const command = commandFor(event, dialogOpen);
      if (!command) return;
      const state = latest.current;
      const card = focusedCard();
      const index = card ? Number(card.dataset.cardIndex) : -1;
      const link = index >= 0 ? state.shown[index] : undefined;
      switch (command) {
        case 'search':
          event.preventDefault();
          document.getElementById('link-search')?.focus();
          break;
        case 'add':
          event.preventDefault();
          state.onAdd();
          break;
        case 'help':
          event.preventDefault();
          setHelpOpen(true);
          break;
        case 'next':
        case 'previous': {
          if (state.shown.length === 0) return;
          event.preventDefault();
          const target = command === 'next' ? Math.min(index + 1, state.shown.length - 1) : Math.max(index - 1, 0);
          const element = cardAt(target);
          element?.focus();
          element?.scrollIntoView({ block: 'nearest' });
          break;
        }
        case 'open':
          event.preventDefault();
          card?.querySelector<HTMLAnchorElement>('[data-open-link]')?.click();
          break;
        case 'edit':
          if (link) {
            event.preventDefault();
            setEditing(link);
          }
          break;
        case 'select':
          if (link) {
            event.preventDefault();
            state.toggleSelect(link, event.shiftKey);
          }
          break;
        case 'clear':
          if (state.selected.size > 0) setSelected(new Set());
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const status = searchStatus(live, {
    loading: searching && (sent.trim() !== text.trim() || search.isFetching),
    error: search.isError,
    failure: search.isError ? searchFailureText(search.error) : undefined,
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

  const sortLabel = SORT_LABELS[searching ? searchSort : listSort];
  const loading = searching ? search.isPending && sentQuery !== null : list.isPending;
  const libraryEmpty = !searching && !loading && (first?.actualTotal ?? 0) === 0;
  const filteredEmpty = !searching && !loading && !libraryEmpty && shown.length === 0 && hasActiveFilters(filters);
  const clearFilters = () => setView({ filters: NO_FILTERS });
  const clearSearch = () => {
    setText('');
    setSent('');
    if (address.send('')) setView({ q: '' });
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Your Links</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">Manage and organize your intelligent bookmarks</p>
        </div>
        <div className="flex items-center gap-2">
          {/* Phones seldom have a keyboard: the shortcuts button shows from tablet width. */}
          <span className="hidden sm:block">
            <Button
              variant="ghost"
              aria-label="Keyboard shortcuts"
              title="Keyboard shortcuts (?)"
              onClick={() => setHelpOpen(true)}
            >
              <Keyboard className="size-4" aria-hidden />
            </Button>
          </span>
          <Button onClick={onAdd} aria-keyshortcuts="n">
            <Plus className="size-4" aria-hidden /> Add Link
          </Button>
        </div>
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
        <SearchBox
          value={text}
          onChange={setText}
          onSubmit={() => setSent(text)}
          status={status}
          note={searching ? reindexNote(search.data?.reindexing) : null}
        />
        <label className="flex items-center gap-2 text-sm sm:w-64">
          <span className="shrink-0 font-medium">Sort by</span>
          {searching ? (
            <select
              className={inputClass}
              value={searchSort}
              onChange={(e) => setView({ searchSort: e.target.value as SearchSort })}
            >
              {SEARCH_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          ) : (
            <select
              className={inputClass}
              value={listSort}
              onChange={(e) => setView({ listSort: e.target.value as ListSort })}
            >
              {LIST_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </label>
      </div>

      {!searching && (
        <div className="flex flex-wrap items-start gap-2">
          <div className="min-w-0 flex-1">
            <Filters
              value={filters}
              onChange={(f: LinkFilters) => setView({ filters: f })}
              categories={categories.data ?? []}
            />
          </div>
          {!libraryEmpty && (
            <Button variant="secondary" className="mt-4" onClick={() => setLibraryOpen(true)}>
              <Tags className="size-4" aria-hidden /> Manage tags
            </Button>
          )}
        </div>
      )}

      {!loading && shown.length > 0 && (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          Showing {shown.length} of {total} links · {sortLabel}
        </p>
      )}

      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          matching={total}
          categories={categories.data ?? []}
          onSelectAll={selectAll}
          onClear={() => setSelected(new Set())}
          // When the bar goes (an action done, Clear, Escape), the keyboard goes back to the list where
          // the selection was made, not to the top of the page.
          returnFocus={`${checkboxAt(anchor.current ?? 0)}; ${checkboxAt(0)}; #link-search`}
        />
      )}

      {loading ? (
        <div className={grid} role="status" aria-busy="true" aria-label="Loading links">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <LinkCardSkeleton key={i} />
          ))}
        </div>
      ) : shown.length > 0 ? (
        <ul className={grid}>
          {shown.map((link, index) => (
            <li key={link.id}>
              <LinkCard
                link={link}
                index={index}
                onEdit={setEditing}
                selected={selected.has(link.id)}
                onSelect={toggleSelect}
                onTag={showTag}
              />
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
          <Button className="mt-4" variant="secondary" onClick={clearSearch} data-focus-return="#link-search">
            Clear search
          </Button>
        </div>
      ) : filteredEmpty ? (
        <FilteredEmpty total={first?.actualTotal ?? 0} onClear={clearFilters} />
      ) : libraryEmpty ? (
        <FirstRunEmpty onAdd={onAdd} />
      ) : !searching ? (
        <div className="py-16 text-center">
          <h2 className="text-lg font-semibold">No links found</h2>
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
        {addReady && (
          <AddLinkDialog
            open
            initial={prefill}
            onClose={() => setAddOpen(false)}
            onLimitReached={() => setUpgradeOpen(true)}
          />
        )}
        {editing && <EditLinkDialog link={editing} onClose={() => setEditing(null)} />}
        {upgradeOpen && <UpgradeDialog open onOpenChange={setUpgradeOpen} limit={limit} />}
        {libraryOpen && <LibraryDialog onClose={() => setLibraryOpen(false)} />}
        {helpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
      </Suspense>
    </div>
  );
}
