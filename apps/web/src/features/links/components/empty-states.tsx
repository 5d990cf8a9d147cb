import { FilterX, Plus, Puzzle, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';

/** A library with no links yet: the three ways in. */
export function FirstRunEmpty({ onAdd }: { onAdd: () => void }) {
  return (
    <div className="py-12 text-center">
      <h2 className="text-lg font-semibold">No links found</h2>
      <p className="mx-auto mt-1 max-w-md text-slate-600 dark:text-slate-400">
        Save your first link, bring your bookmarks over from your browser or another service, or save pages as you
        browse with the browser extension.
      </p>
      <div className="mt-5 flex flex-col items-center justify-center gap-2 sm:flex-row">
        <Button onClick={onAdd}>
          <Plus className="size-4" aria-hidden /> Add Your First Link
        </Button>
        <Link to="/import" className={buttonClass('secondary')}>
          <Upload className="size-4" aria-hidden /> Import bookmarks
        </Link>
        <Link to="/extension/install" className={buttonClass('secondary')}>
          <Puzzle className="size-4" aria-hidden /> Get the browser extension
        </Link>
      </div>
    </div>
  );
}

/** Filters that exclude every link: say so, and offer the way back. */
export function FilteredEmpty({ total, onClear }: { total: number; onClear: () => void }) {
  return (
    <div className="py-12 text-center">
      <FilterX className="mx-auto size-10 text-slate-400" aria-hidden />
      <h2 className="mt-3 text-lg font-semibold">No links match these filters</h2>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Your library holds {total} {total === 1 ? 'link' : 'links'}; none of them matches all the filters chosen.
      </p>
      <Button
        className="mt-4"
        variant="secondary"
        onClick={onClear}
        data-focus-return="#link-filters select; #link-search"
      >
        Clear filters
      </Button>
    </div>
  );
}
