import type { TagSummary } from '@linkwise/contract';
import * as Tabs from '@radix-ui/react-tabs';
import { GitMerge, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { inputClass } from '../../../components/ui/field';
import { useCategories, useDeleteTag, useRenameCategory, useRenameTag, useTags } from '../api';

/** Rows drawn at once; a filter narrows a long list (libraries with 1,000+ tags exist). */
const MAX_ROWS = 200;

const row = 'flex flex-wrap items-center gap-2 py-2';

/**
 * A tag's or category's name. On a phone it has the row to itself, on one line (an ellipsis when it
 * is truly too long, the whole name in its title), and the actions wrap below it: beside three
 * buttons it was squeezed to a few letters a line ("#Fac/eboo/k"). From `sm` up, the actions sit
 * beside it as before. The count keeps its leading space so the row still reads "#name · 3 links".
 */
function ItemName({ name, count }: { name: string; count?: string }) {
  return (
    <span className="flex min-w-0 basis-full items-baseline text-sm sm:basis-0 sm:flex-1">
      <span className="min-w-0 truncate sm:whitespace-normal sm:break-words" title={name}>
        {name}
      </span>
      {count !== undefined && (
        <span className="ml-1 shrink-0 whitespace-nowrap text-slate-600 dark:text-slate-400">{` · ${count}`}</span>
      )}
    </span>
  );
}

/**
 * Puts the focus back on the row button that opened an inline form once the form closes (Escape,
 * Cancel, Save), instead of leaving it on the dialog, or on a neighbour's button once a deleted row
 * has gone (`after`: the key of a button that must be gone first). Buttons carry `data-focus-key`.
 */
function useFocusBack() {
  const list = useRef<HTMLUListElement>(null);
  // A renamed row shows its new name, and a deleted one goes, only once the list is fetched again:
  // wait a moment for it.
  const pending = useRef<{ key: string; after?: string; until: number } | null>(null);
  useEffect(() => {
    const wanted = pending.current;
    if (wanted === null) return;
    const find = (key: string) => list.current?.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`);
    const button = wanted.after && find(wanted.after) ? null : find(wanted.key);
    if (button) button.focus();
    if (button || Date.now() > wanted.until) pending.current = null;
  });
  return {
    list,
    back: (key: string, after?: string) => void (pending.current = { key, after, until: Date.now() + 10_000 }),
  };
}

/** The row's buttons: their own compact line under the name on a phone, beside it from `sm` up. */
function ItemActions({ children }: { children: ReactNode }) {
  return <div className="-ml-2.5 flex flex-wrap items-center gap-1 sm:ml-0 sm:gap-2">{children}</div>;
}

/** Rename in place: a text box with Save and Cancel. */
function RenameForm({
  initial,
  label,
  onSave,
  onCancel,
}: {
  initial: string;
  label: string;
  onSave: (v: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <form
      className="flex min-w-0 flex-1 flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim() && value.trim() !== initial) onSave(value.trim());
        else onCancel();
      }}
    >
      <input
        aria-label={label}
        className={`${inputClass} min-w-0 flex-1`}
        value={value}
        autoFocus
        data-own-escape=""
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <Button type="submit" size="sm">
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

/** Merge into another: a select of the others and a Merge button. */
function MergeForm({
  name,
  others,
  onMerge,
  onCancel,
}: {
  name: string;
  others: readonly string[];
  onMerge: (into: string) => void;
  onCancel: () => void;
}) {
  const [into, setInto] = useState(others[0] ?? '');
  return (
    <form
      className="flex min-w-0 flex-1 flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (into) onMerge(into);
      }}
    >
      {/* On a phone the sentence sits above a full-width select; beside it, the select kept ~30 px. */}
      <label className="flex min-w-0 flex-1 basis-full flex-col gap-1 text-sm sm:basis-0 sm:flex-row sm:items-center sm:gap-2">
        <span className="min-w-0 break-words sm:shrink-0">Merge {name} into</span>
        <select
          className={`${inputClass} min-w-0 sm:min-w-40 sm:flex-1`}
          value={into}
          onChange={(e) => setInto(e.target.value)}
          autoFocus
          data-own-escape=""
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              onCancel();
            }
          }}
        >
          {others.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" size="sm" disabled={!into}>
        Merge
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

function TagsPanel() {
  const tags = useTags();
  const rename = useRenameTag();
  const remove = useDeleteTag();
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<{ id: string; mode: 'rename' | 'merge' } | null>(null);
  const [deleting, setDeleting] = useState<TagSummary | null>(null);
  const focus = useFocusBack();
  const close = (key: string) => {
    focus.back(key);
    setEditing(null);
  };
  const all = useMemo(() => tags.data?.data ?? [], [tags.data]);
  const byName = useMemo(() => new Map(all.map((t) => [t.name, t])), [all]);
  const needle = filter.trim().replace(/^#/, '').toLocaleLowerCase();
  const matching = needle ? all.filter((t) => t.name.toLocaleLowerCase().includes(needle)) : all;
  const suggestions = (tags.data?.suggestions ?? []).filter((s) => byName.has(s.from) && byName.has(s.into));

  if (tags.isPending) return <p className="py-6 text-center text-sm text-slate-600">Loading tags...</p>;
  if (tags.isError)
    return (
      <p role="alert" className="py-6 text-center text-sm text-red-600">
        Failed to load tags.
      </p>
    );
  if (all.length === 0)
    return <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">No tags yet.</p>;

  return (
    <div>
      {suggestions.length > 0 && (
        <section aria-labelledby="tag-suggestions" className="mb-4 rounded-lg bg-brand-50 p-3 dark:bg-brand-600/10">
          <h3 id="tag-suggestions" className="text-sm font-semibold">
            These look like the same tag
          </h3>
          <ul className="mt-1 divide-y divide-brand-100 dark:divide-brand-600/20">
            {suggestions.slice(0, 10).map((s) => (
              <li key={s.from} className={`${row} text-sm`}>
                <span className="min-w-0 flex-1 break-words">
                  #{s.from} ({byName.get(s.from)?.count}) → #{s.into} ({byName.get(s.into)?.count})
                  <span className="ml-2 whitespace-nowrap rounded bg-white px-1.5 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                    {s.why === 'meaning' ? 'same meaning' : 'spelling'}
                  </span>
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Merge ${s.from} into ${s.into}`}
                  disabled={rename.isPending}
                  onClick={() => rename.mutate({ id: byName.get(s.from)!.id, name: s.into })}
                >
                  <GitMerge className="size-4" aria-hidden /> Merge
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <label className="block text-sm">
        <span className="sr-only">Filter tags</span>
        <input
          type="search"
          className={inputClass}
          placeholder={`Filter ${all.length} tags...`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      <ul ref={focus.list} className="mt-2 divide-y divide-slate-100 dark:divide-slate-800" aria-label="Tags">
        {matching.slice(0, MAX_ROWS).map((tag) => (
          <li key={tag.id} className={row}>
            {editing?.id === tag.id && editing.mode === 'rename' ? (
              <RenameForm
                initial={tag.name}
                label={`New name for ${tag.name}`}
                onCancel={() => close(`rename:${tag.id}`)}
                onSave={(name) => rename.mutate({ id: tag.id, name }, { onSettled: () => close(`rename:${tag.id}`) })}
              />
            ) : editing?.id === tag.id ? (
              <MergeForm
                name={`#${tag.name}`}
                others={all.filter((t) => t.id !== tag.id).map((t) => t.name)}
                onCancel={() => close(`merge:${tag.id}`)}
                onMerge={(into) =>
                  rename.mutate(
                    { id: tag.id, name: into },
                    { onSettled: () => close(`merge:${byName.get(into)?.id ?? tag.id}`) },
                  )
                }
              />
            ) : (
              <>
                <ItemName name={`#${tag.name}`} count={`${tag.count} ${tag.count === 1 ? 'link' : 'links'}`} />
                <ItemActions>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Rename ${tag.name}`}
                    data-focus-key={`rename:${tag.id}`}
                    onClick={() => setEditing({ id: tag.id, mode: 'rename' })}
                  >
                    <Pencil className="size-4" aria-hidden /> Rename
                  </Button>
                  {all.length > 1 && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Merge ${tag.name}`}
                      data-focus-key={`merge:${tag.id}`}
                      onClick={() => setEditing({ id: tag.id, mode: 'merge' })}
                    >
                      <GitMerge className="size-4" aria-hidden /> Merge
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${tag.name}`}
                    data-focus-key={`delete:${tag.id}`}
                    onClick={() => setDeleting(tag)}
                  >
                    <Trash2 className="size-4" aria-hidden /> Delete
                  </Button>
                </ItemActions>
              </>
            )}
          </li>
        ))}
      </ul>
      {matching.length > MAX_ROWS && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Showing {MAX_ROWS} of {matching.length}; type to narrow the list.
        </p>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete #${deleting?.name ?? ''}?`}
        description={`The tag is removed from ${deleting?.count ?? 0} ${deleting?.count === 1 ? 'link' : 'links'}; the links stay.`}
        confirmLabel="Delete tag"
        destructive
        onConfirm={() => {
          if (!deleting) return;
          // Once the row has gone, the next row's Delete (or the one before) takes the focus.
          const shown = matching.slice(0, MAX_ROWS);
          const at = shown.findIndex((t) => t.id === deleting.id);
          const neighbour = shown[at + 1] ?? shown[at - 1];
          if (neighbour) focus.back(`delete:${neighbour.id}`, `delete:${deleting.id}`);
          remove.mutate(deleting.id);
        }}
      />
    </div>
  );
}

function CategoriesPanel() {
  const categories = useCategories();
  const rename = useRenameCategory();
  const [editing, setEditing] = useState<{ name: string; mode: 'rename' | 'merge' } | null>(null);
  const focus = useFocusBack();
  const close = (key: string) => {
    focus.back(key);
    setEditing(null);
  };
  const all = categories.data ?? [];
  if (categories.isPending) return <p className="py-6 text-center text-sm text-slate-600">Loading categories...</p>;
  if (all.length === 0)
    return <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">No categories yet.</p>;
  return (
    <ul ref={focus.list} className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Categories">
      {all.map((name) => (
        <li key={name} className={row}>
          {editing?.name === name && editing.mode === 'rename' ? (
            <RenameForm
              initial={name}
              label={`New name for ${name}`}
              onCancel={() => close(`rename:${name}`)}
              onSave={(to) =>
                rename.mutate(
                  { from: name, to },
                  { onSuccess: () => close(`rename:${to}`), onError: () => close(`rename:${name}`) },
                )
              }
            />
          ) : editing?.name === name ? (
            <MergeForm
              name={name}
              others={all.filter((c) => c !== name)}
              onCancel={() => close(`merge:${name}`)}
              onMerge={(to) =>
                rename.mutate(
                  { from: name, to },
                  { onSuccess: () => close(`merge:${to}`), onError: () => close(`merge:${name}`) },
                )
              }
            />
          ) : (
            <>
              <ItemName name={name} />
              <ItemActions>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Rename ${name}`}
                  data-focus-key={`rename:${name}`}
                  onClick={() => setEditing({ name, mode: 'rename' })}
                >
                  <Pencil className="size-4" aria-hidden /> Rename
                </Button>
                {all.length > 1 && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Merge ${name}`}
                    data-focus-key={`merge:${name}`}
                    onClick={() => setEditing({ name, mode: 'merge' })}
                  >
                    <GitMerge className="size-4" aria-hidden /> Merge
                  </Button>
                )}
              </ItemActions>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Tag and category management: rename, merge, delete, with merge suggestions. */
export function LibraryDialog({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<'tags' | 'categories'>('tags');
  const tabClass = (on: boolean) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${on ? 'bg-white shadow-sm dark:bg-slate-700' : 'text-slate-600 dark:text-slate-300'}`;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Tags and categories"
      description="Rename, merge or delete; your links follow."
      wide
    >
      {/* Radix: one Tab stop for the two tabs, arrow keys between them, each panel named by its tab. */}
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as 'tags' | 'categories')}>
        <Tabs.List
          aria-label="What to manage"
          className="mb-3 inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
        >
          <Tabs.Trigger value="tags" className={tabClass(tab === 'tags')}>
            Tags
          </Tabs.Trigger>
          <Tabs.Trigger value="categories" className={tabClass(tab === 'categories')}>
            Categories
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="tags">
          <TagsPanel />
        </Tabs.Content>
        <Tabs.Content value="categories">
          <CategoriesPanel />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}
