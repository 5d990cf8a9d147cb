import { Filter, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { NO_FILTERS, type LinkFilters } from '../api';

export const hasActiveFilters = (f: LinkFilters): boolean =>
  f.category !== '' || f.readStatus !== 'all' || f.readLaterOnly || f.withCredentialsOnly;

const toggleClass = (on: boolean) =>
  `rounded-lg border px-3 py-2 text-sm font-medium ${on ? 'border-brand-500 bg-brand-50 text-brand-700 dark:bg-brand-600/20 dark:text-brand-100' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200'}`;

/** Inline on desktop; a collapsible panel with an Active badge and Clear All Filters on phones. */
export function Filters({
  value,
  onChange,
  categories,
}: {
  value: LinkFilters;
  onChange: (f: LinkFilters) => void;
  categories: readonly string[];
}) {
  const [open, setOpen] = useState(false);
  const active = hasActiveFilters(value);
  const set = (patch: Partial<LinkFilters>) => onChange({ ...value, ...patch });
  return (
    <section aria-label="Filters" className="mt-4">
      <button
        type="button"
        className="flex w-full items-center justify-between rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium md:hidden dark:border-slate-600"
        aria-expanded={open}
        aria-controls="link-filters"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="flex items-center gap-2">
          <Filter className="size-4" aria-hidden /> Filters
          {active && <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">Active</span>}
        </span>
        <span aria-hidden>{open ? '−' : '+'}</span>
      </button>
      <div
        id="link-filters"
        className={`${open ? 'flex' : 'hidden'} mt-3 flex-col gap-3 md:mt-0 md:flex md:flex-row md:flex-wrap md:items-center`}
      >
        <label className="flex flex-col gap-1 text-sm md:flex-row md:items-center md:gap-2">
          <span className="font-medium">Category</span>
          <select
            className={`${inputClass} md:w-48`}
            value={value.category}
            onChange={(e) => set({ category: e.target.value })}
          >
            <option value="">All Links</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm md:flex-row md:items-center md:gap-2">
          <span className="font-medium">Status</span>
          <select
            className={`${inputClass} md:w-36`}
            value={value.readStatus}
            onChange={(e) => set({ readStatus: e.target.value as LinkFilters['readStatus'] })}
          >
            <option value="all">All Status</option>
            <option value="read">Read</option>
            <option value="unread">Unread</option>
          </select>
        </label>
        <button
          type="button"
          aria-pressed={value.readLaterOnly}
          className={toggleClass(value.readLaterOnly)}
          onClick={() => set({ readLaterOnly: !value.readLaterOnly })}
        >
          Read Later Only
        </button>
        <button
          type="button"
          aria-pressed={value.withCredentialsOnly}
          className={toggleClass(value.withCredentialsOnly)}
          onClick={() => set({ withCredentialsOnly: !value.withCredentialsOnly })}
        >
          With Credentials Only
        </button>
        {active && (
          <Button variant="ghost" onClick={() => onChange(NO_FILTERS)}>
            <X className="size-4" aria-hidden /> Clear All Filters
          </Button>
        )}
      </div>
    </section>
  );
}
