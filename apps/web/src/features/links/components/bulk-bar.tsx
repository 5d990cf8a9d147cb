import { Limits, parseTags, type BulkRequestInput } from '@linkwise/contract';
import { useQueryClient } from '@tanstack/react-query';
import { BookmarkMinus, BookmarkPlus, Check, Circle, FolderInput, RotateCw, Tag, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { api, errorMessage } from '../../../lib/api';
import { hideLinks, invalidateLinks, useBulk } from '../api';

/** How long a deletion waits for Undo before it is sent. */
export const UNDO_MS = 6000;

const plural = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;

/** A bulk request without its ids (one per action: Omit over the union, not of it). */
type BulkBody = BulkRequestInput extends infer T ? (T extends unknown ? Omit<T, 'ids'> : never) : never;

type Ask = 'category' | 'add-tags' | 'remove-tags' | 'delete' | null;

/** The toolbar over a selection: read state, read later, category, tags, re-analyse, delete with undo. */
export function BulkBar({
  ids,
  matching,
  categories,
  onSelectAll,
  onClear,
  returnFocus,
}: {
  ids: readonly string[];
  /** How many links the current view matches (for "Select all"). */
  matching: number;
  categories: readonly string[];
  onSelectAll: () => void;
  onClear: () => void;
  /** Where the keyboard goes once the bar is gone (selectors, `data-focus-return`). */
  returnFocus?: string;
}) {
  const client = useQueryClient();
  const bulk = useBulk();
  const [ask, setAsk] = useState<Ask>(null);
  const [value, setValue] = useState('');
  const count = ids.length;

  const run = (body: BulkBody, done: string) => {
    bulk.mutate(
      { ...body, ids: [...ids] },
      {
        onSuccess: ({ data }) => {
          if (data.affected > 0 || !data.tagLimited) toast.success(`${plural(data.affected)} ${done}`);
          if (data.tagLimited) {
            toast.warning(
              `${plural(data.tagLimited)} had no room for every tag (at most ${Limits.tagsPerLink} per link)`,
            );
          }
          onClear();
        },
      },
    );
  };

  /**
   * Hidden at once; sent after the undo time, later while the pointer or the keyboard is on the
   * toast (Undo works for as long as it is offered there), and at once if the page is left first.
   */
  const deleteWithUndo = () => {
    const chosen = [...ids];
    hideLinks(client, new Set(chosen));
    onClear();
    let state: 'offered' | 'undone' | 'sent' = 'offered';
    const body = { action: 'delete' as const, ids: chosen };
    // A reload or a closed tab must not cancel a delete the user confirmed: keepalive outlives the page.
    const onLeave = () => {
      if (state !== 'offered') return;
      state = 'sent';
      void api.bulkLinks({ body }, { keepalive: true }).catch(() => undefined);
    };
    window.addEventListener('pagehide', onLeave);
    const send = () => {
      window.clearTimeout(timer);
      window.removeEventListener('pagehide', onLeave);
      if (state !== 'offered') return;
      state = 'sent';
      api
        .bulkLinks({ body })
        .catch((error: unknown) => toast.error(errorMessage(error, 'Failed to delete the links')))
        .finally(() => void invalidateLinks(client));
    };
    const marker = `undo-delete-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    // The toast's own timer cannot be trusted to end: the notifications' key pauses it until the
    // pointer leaves them, which a keyboard user's pointer never does.
    const due = () => {
      const shown = document.querySelector(`.${marker}`);
      if (shown && (shown.matches(':hover') || shown.contains(document.activeElement))) {
        timer = window.setTimeout(due, 1000);
        return;
      }
      send();
      toast.dismiss(id);
    };
    let timer = window.setTimeout(due, UNDO_MS);
    const id = toast(`${plural(chosen.length)} deleted`, {
      duration: UNDO_MS,
      className: marker,
      onDismiss: send,
      action: {
        label: 'Undo',
        onClick: () => {
          window.clearTimeout(timer);
          window.removeEventListener('pagehide', onLeave);
          if (state !== 'offered') return;
          state = 'undone';
          void invalidateLinks(client);
          toast.success(`${plural(chosen.length)} restored`);
        },
      },
    });
  };

  const open = (what: Ask) => {
    setValue('');
    setAsk(what);
  };

  // The bar comes before the list, so it sticks under the navbar (4 rem and its border): a bottom edge
  // would hold it only while its own place is below the screen, never for a card ticked further down.
  return (
    <div
      role="toolbar"
      aria-label="Selected links"
      data-focus-return={returnFocus}
      className="sticky top-[4.75rem] z-20 mt-4 flex flex-wrap items-center gap-2 rounded-xl border border-brand-500/40 bg-white/95 p-2 shadow-lg backdrop-blur dark:border-brand-600/40 dark:bg-slate-900/95"
    >
      <span className="px-2 text-sm font-semibold" aria-live="polite">
        {count} selected
      </span>
      {matching > count && (
        <Button variant="ghost" size="sm" onClick={onSelectAll}>
          Select all {matching}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onClear}>
        <X className="size-4" aria-hidden /> Clear
      </Button>
      {/* On a phone the actions scroll sideways in one row instead of filling the screen. */}
      <div className="-mx-2 flex w-[calc(100%+1rem)] gap-2 overflow-x-auto px-2 pb-1 sm:mx-0 sm:w-auto sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => run({ action: 'mark-read' }, 'marked read')}
        >
          <Check className="size-4" aria-hidden /> Mark read
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => run({ action: 'mark-unread' }, 'marked unread')}
        >
          <Circle className="size-4" aria-hidden /> Mark unread
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => run({ action: 'read-later' }, 'added to Read Later')}
        >
          <BookmarkPlus className="size-4" aria-hidden /> Read later
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => run({ action: 'not-read-later' }, 'removed from Read Later')}
        >
          <BookmarkMinus className="size-4" aria-hidden /> Not read later
        </Button>
        <Button variant="secondary" size="sm" className="shrink-0 whitespace-nowrap" onClick={() => open('category')}>
          <FolderInput className="size-4" aria-hidden /> Set category
        </Button>
        <Button variant="secondary" size="sm" className="shrink-0 whitespace-nowrap" onClick={() => open('add-tags')}>
          <Tag className="size-4" aria-hidden /> Add tags
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => open('remove-tags')}
        >
          <Tag className="size-4" aria-hidden /> Remove tags
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 whitespace-nowrap"
          onClick={() => run({ action: 'reanalyze' }, 'queued for analysis')}
        >
          <RotateCw className="size-4" aria-hidden /> Re-analyse
        </Button>
        <Button variant="danger" size="sm" className="shrink-0 whitespace-nowrap" onClick={() => setAsk('delete')}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
      </div>
      {(ask === 'category' || ask === 'add-tags' || ask === 'remove-tags') && (
        <Dialog
          open
          onOpenChange={(o) => !o && setAsk(null)}
          title={ask === 'category' ? 'Set category' : ask === 'add-tags' ? 'Add tags' : 'Remove tags'}
          description={`For ${plural(count)}.`}
        >
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (ask === 'category') run({ action: 'set-category', category: value }, 'updated');
              else {
                const tags = parseTags(value);
                if (tags.length === 0) return;
                run({ action: ask, tags }, ask === 'add-tags' ? 'tagged' : 'untagged');
              }
              setAsk(null);
            }}
          >
            <TextField
              label={ask === 'category' ? 'Category' : 'Tags (comma separated)'}
              value={value}
              autoFocus
              list={ask === 'category' ? 'bulk-categories' : undefined}
              hint={ask === 'category' ? 'Leave empty to remove the category.' : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
            {ask === 'category' && (
              <datalist id="bulk-categories">
                {categories.map((c) => (
                  <option key={c} value={c} />
                ))}
              </datalist>
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setAsk(null)}>
                Cancel
              </Button>
              <Button type="submit" disabled={ask !== 'category' && parseTags(value).length === 0}>
                Apply
              </Button>
            </div>
          </form>
        </Dialog>
      )}
      <ConfirmDialog
        open={ask === 'delete'}
        onOpenChange={(o) => !o && setAsk(null)}
        title={`Delete ${plural(count)}?`}
        description={`The selected ${plural(count)} will be deleted. You can undo this for a few seconds.`}
        confirmLabel="Delete"
        destructive
        onConfirm={deleteWithUndo}
      />
    </div>
  );
}
