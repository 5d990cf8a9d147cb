import type { Link as LinkItem } from '@linkwise/contract';
import { BookmarkCheck, BookmarkPlus, Check, Circle, ExternalLink, Loader2, Pencil, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useDeleteLink, useToggleFlag } from '../api';
import { CredentialList } from './credential-list';

const ConfirmDialog = lazy(() => import('../../../components/ui/dialog').then((m) => ({ default: m.ConfirmDialog })));

export const MAX_VISIBLE_TAGS = 3;

/** Up to three tags, then '+N more'. */
export function visibleTags(tags: readonly string[]): { shown: string[]; more: number } {
  return { shown: tags.slice(0, MAX_VISIBLE_TAGS), more: Math.max(0, tags.length - MAX_VISIBLE_TAGS) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const iconButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

export function LinkCard({ link, onEdit }: { link: LinkItem; onEdit: (link: LinkItem) => void }) {
  const toggle = useToggleFlag();
  const remove = useDeleteLink();
  const [confirming, setConfirming] = useState(false);
  const { shown, more } = visibleTags(link.tags);
  const description = link.description || link.aiDescription || '';

  return (
    <article
      aria-label={link.title}
      className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="line-clamp-2 text-base font-semibold break-words">
            <a
              href={link.url}
              target="_blank"
              rel="noopener noreferrer"
              className="hover:text-brand-600 hover:underline"
            >
              {link.title}
            </a>
          </h2>
          <p className="mt-0.5 flex items-center gap-1 truncate text-xs text-slate-500 dark:text-slate-400">
            <ExternalLink className="size-3 shrink-0" aria-hidden />
            {hostOf(link.url)}
          </p>
        </div>
        {link.category && (
          <span className="shrink-0 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 dark:bg-brand-600/20 dark:text-brand-100">
            {link.category}
          </span>
        )}
      </div>

      {link.analysisStatus === 'pending' && (
        <p role="status" className="mt-2 inline-flex items-center gap-1.5 text-xs text-amber-700 dark:text-amber-300">
          <Loader2 className="size-3 animate-spin" aria-hidden /> Analyzing link...
        </p>
      )}
      {description && <p className="mt-2 line-clamp-3 text-sm text-slate-600 dark:text-slate-300">{description}</p>}

      {shown.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Tags">
          {shown.map((tag) => (
            <li
              key={tag}
              className="rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300"
            >
              #{tag}
            </li>
          ))}
          {more > 0 && <li className="px-1 py-0.5 text-xs text-slate-500 dark:text-slate-400">+{more} more</li>}
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
