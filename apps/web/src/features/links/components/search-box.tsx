import { Limits } from '@linkwise/contract';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { inputClass } from '../../../components/ui/field';
import type { SearchStatus } from '../../../lib/search-state';

export const SEARCH_DEBOUNCE_MS = 500;

/** The text to search for: follows the box 500 ms after typing stops, at once on submit. */
export function useDebouncedSearch(text: string): [string, (value: string) => void] {
  const [sent, setSent] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSent(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [sent, setSent];
}

const TONES = {
  muted: 'text-slate-500 dark:text-slate-400',
  info: 'text-brand-600 dark:text-brand-100',
  success: 'text-green-700 dark:text-green-400',
  error: 'text-red-600 dark:text-red-400',
} as const;

export function SearchBox({
  value,
  onChange,
  onSubmit,
  status,
  note,
}: {
  value: string;
  onChange: (v: string) => void;
  onSubmit: () => void;
  status: SearchStatus;
  /** A second, quieter line under the status (re-indexing progress). */
  note?: string | null;
}) {
  return (
    <div className="min-w-0 flex-1">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <label htmlFor="link-search" className="sr-only">
          Search links
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden
          />
          <input
            id="link-search"
            type="search"
            className={`${inputClass} pl-9`}
            placeholder="Search links or #tag..."
            // The server refuses longer text (SearchQuerySchema); the box stops typing at the limit.
            maxLength={Limits.searchMax}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            // Escape clears the box, and a second one leaves it, so the list's shortcuts (j, k, x) work again.
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.preventDefault();
              if (e.currentTarget.value) onChange('');
              else e.currentTarget.blur();
            }}
          />
        </div>
      </form>
      <p aria-live="polite" className={`mt-1 min-h-5 text-sm ${status ? TONES[status.tone] : ''}`}>
        {status?.text}
      </p>
      {note && <p className="text-xs text-slate-500 dark:text-slate-400">{note}</p>}
    </div>
  );
}
