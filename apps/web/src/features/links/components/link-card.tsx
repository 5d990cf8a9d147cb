import { analysisFailureText, type Link as LinkItem } from '@linkwise/contract';
import {
  AlertTriangle,
  BookmarkCheck,
  BookmarkPlus,
  Check,
  Circle,
  Loader2,
  Pencil,
  RotateCw,
  Trash2,
} from 'lucide-react';
import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { countClick, useDeleteLink, useReanalyze, useToggleFlag } from '../api';
import { CredentialList } from './credential-list';

const ConfirmDialog = lazy(() => import('../../../components/ui/dialog').then((m) => ({ default: m.ConfirmDialog })));

export const MAX_VISIBLE_TAGS = 3;

/** Up to three tags, then '+N more'. */
export function visibleTags(tags: readonly string[]): { shown: string[]; more: number } {
  return { shown: tags.slice(0, MAX_VISIBLE_TAGS), more: Math.max(0, tags.length - MAX_VISIBLE_TAGS) };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const iconButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** "Saved Nov 22, 2026". */
export function savedLabel(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `Saved ${dateFormat.format(date)}`;
}

/** The site's icon (kept by the server as a data URL) or the first letter of its domain. */
function SiteIcon({ link, host }: { link: LinkItem; host: string }) {
  if (link.faviconData) {
    return <img src={link.faviconData} alt="" width={20} height={20} className="size-5 shrink-0 rounded-sm" />;
  }
  return (
    <span
      aria-hidden
      className="inline-flex size-5 shrink-0 items-center justify-center rounded-sm bg-slate-200 text-[11px] font-semibold uppercase text-slate-700 dark:bg-slate-700 dark:text-slate-200"
    >
      {host.charAt(0) || '?'}
    </span>
  );
}

export interface LinkCardProps {
  link: LinkItem;
  onEdit: (link: LinkItem) => void;
  /** Position in the grid, for keyboard moves. */
  index?: number;
  selected?: boolean;
  /** Select or unselect; `range` when Shift was held (select everything since the last one). */
  onSelect?: (link: LinkItem, range: boolean) => void;
  /** A tag was clicked: show the links that carry it. */
  onTag?: (tag: string) => void;
}

export function LinkCard({ link, onEdit, index, selected = false, onSelect, onTag }: LinkCardProps) {
  const toggle = useToggleFlag();
  const remove = useDeleteLink();
  const reanalyze = useReanalyze();
  const [confirming, setConfirming] = useState(false);
  const { shown, more } = visibleTags(link.tags);
  const description = link.description || link.aiDescription || '';
  const host = hostOf(link.url);
  const opened = (event: MouseEvent<HTMLAnchorElement>) => {
    // Left, middle and keyboard (Enter fires click) opens; a right click only opens the menu.
    if (event.button === 0 || event.button === 1) countClick(link.id);
  };

  return (
    <article
      aria-label={link.title}
      tabIndex={-1}
      data-card-index={index}
      data-link-id={link.id}
      className={`flex h-full flex-col rounded-xl border bg-white p-4 shadow-sm transition-shadow outline-none hover:shadow-md focus-visible:ring-2 focus-visible:ring-brand-500 focus:ring-2 focus:ring-brand-500 dark:bg-slate-900 ${selected ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <div className="flex items-start gap-3">
        {onSelect && (
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-brand-600"
            aria-label={`Select ${link.title}`}
            checked={selected}
            onChange={() => undefined}
            onClick={(event) => onSelect(link, event.shiftKey)}
          />
        )}
        <div className="min-w-0 flex-1">
          <h2 className="line-clamp-2 text-base font-semibold break-words">
            <a
              href={link.url}
              target="_blank"
              rel="noopener noreferrer"
              className="hover:text-brand-600 hover:underline"
              data-open-link
              onClick={opened}
              onAuxClick={opened}
            >
              {link.title}
            </a>
          </h2>
          <p className="mt-1 flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <SiteIcon link={link} host={host} />
            <span className="truncate">{host}</span>
            <span aria-hidden>·</span>
            <time dateTime={link.createdAt} className="shrink-0">
              {savedLabel(link.createdAt)}
            </time>
          </p>
        </div>
        {link.category && (
          // A long category is cut (whole on hover): it must never take the title's room.
          <span
            title={link.category}
            className="max-w-[40%] shrink-0 truncate rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 dark:bg-brand-600/20 dark:text-brand-100"
          >
            {link.category}
          </span>
        )}
      </div>

      {link.analysisStatus === 'pending' && (
        <p role="status" className="mt-2 inline-flex items-center gap-1.5 text-xs text-amber-800 dark:text-amber-300">
          <Loader2 className="size-3 animate-spin" aria-hidden /> Analyzing link...
          {link.analysisStartedAt && (
            <span className="text-slate-600 dark:text-slate-400">
              since {timeFormat.format(new Date(link.analysisStartedAt))}
            </span>
          )}
        </p>
      )}
      {link.analysisStatus === 'failed' && (
        <div
          role="status"
          className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
        >
          <AlertTriangle className="size-3.5 shrink-0" aria-hidden />
          <span className="min-w-0 flex-1">
            Analysis failed: {analysisFailureText(link.analysisFailure ?? { reason: 'error', status: null })}
          </span>
          <button
            type="button"
            className="inline-flex items-center gap-1 rounded-md px-1.5 py-1 font-medium underline-offset-2 hover:underline disabled:opacity-60"
            disabled={reanalyze.isPending}
            onClick={() => reanalyze.mutate(link.id)}
          >
            <RotateCw className="size-3" aria-hidden /> Retry analysis
          </button>
        </div>
      )}
      {description && <p className="mt-2 line-clamp-3 text-sm text-slate-600 dark:text-slate-300">{description}</p>}

      {shown.length > 0 && (
        // A tag shows its search, which replaces this list: the keyboard goes to the search box.
        <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Tags" data-focus-return="#link-search">
          {shown.map((tag) => (
            <li key={tag} className="min-w-0 max-w-full">
              {onTag ? (
                <button
                  type="button"
                  title={`#${tag}`}
                  className="block max-w-full truncate rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700 hover:bg-brand-50 hover:text-brand-700 dark:bg-slate-800 dark:text-slate-300 dark:hover:bg-brand-600/20"
                  aria-label={`Show links tagged ${tag}`}
                  onClick={() => onTag(tag)}
                >
                  #{tag}
                </button>
              ) : (
                <span
                  title={`#${tag}`}
                  className="block max-w-full truncate rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                >
                  #{tag}
                </span>
              )}
            </li>
          ))}
          {more > 0 && <li className="px-1 py-0.5 text-xs text-slate-600 dark:text-slate-400">+{more} more</li>}
        </ul>
      )}

      <CredentialList link={link} />

      <div className="min-h-3 flex-1" />
      <div className="flex items-center justify-between border-t border-slate-100 pt-3 dark:border-slate-800">
        <div className="flex items-center gap-1">
          <button
            type="button"
            className={iconButton}
            aria-pressed={link.isRead}
            aria-label={link.isRead ? 'Mark as unread' : 'Mark as read'}
            title={link.isRead ? 'Mark as unread' : 'Mark as read'}
            onClick={() => toggle.mutate({ id: link.id, flag: 'isRead', value: !link.isRead })}
          >
            {link.isRead ? (
              <Check className="size-5 text-green-600" aria-hidden />
            ) : (
              <Circle className="size-5" aria-hidden />
            )}
          </button>
          <button
            type="button"
            className={iconButton}
            aria-pressed={link.isReadLater}
            aria-label={link.isReadLater ? 'Remove from Read Later' : 'Add to Read Later'}
            title={link.isReadLater ? 'Remove from Read Later' : 'Add to Read Later'}
            onClick={() => toggle.mutate({ id: link.id, flag: 'isReadLater', value: !link.isReadLater })}
          >
            {link.isReadLater ? (
              <BookmarkCheck className="size-5 text-amber-600" aria-hidden />
            ) : (
              <BookmarkPlus className="size-5" aria-hidden />
            )}
          </button>
        </div>
        <div className="flex items-center gap-1">
          <button
            type="button"
            className={iconButton}
            aria-label="Edit link"
            title="Edit link"
            onClick={() => onEdit(link)}
          >
            <Pencil className="size-4" aria-hidden />
          </button>
          <button
            type="button"
            className={`${iconButton} hover:text-red-600`}
            aria-label="Delete link"
            title="Delete link"
            onClick={() => setConfirming(true)}
          >
            <Trash2 className="size-4" aria-hidden />
          </button>
        </div>
      </div>
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={setConfirming}
            title="Delete link?"
            description={`"${link.title}" will be deleted. This cannot be undone.`}
            confirmLabel="Delete"
            destructive
            onConfirm={() => remove.mutate(link.id)}
          />
        </Suspense>
      )}
    </article>
  );
}

export function LinkCardSkeleton() {
  return (
    <div
      aria-hidden
      className="h-44 animate-pulse rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="h-4 w-3/4 rounded bg-slate-200 dark:bg-slate-700" />
      <div className="mt-2 h-3 w-1/3 rounded bg-slate-200 dark:bg-slate-700" />
      <div className="mt-4 h-3 w-full rounded bg-slate-200 dark:bg-slate-700" />
      <div className="mt-2 h-3 w-5/6 rounded bg-slate-200 dark:bg-slate-700" />
    </div>
  );
}
