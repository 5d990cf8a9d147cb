import { Globe, KeyRound, Puzzle } from 'lucide-react';
import type { Session } from '@linkwise/contract';
import { Button } from '../../components/ui/button';
import { formatDate } from '../../lib/format';
import { useRevoke, useSessions } from './account-api';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

const KIND = {
  web: { icon: Globe, label: 'Web browser' },
  extension: { icon: Puzzle, label: 'Browser extension' },
  api: { icon: KeyRound, label: 'API token' },
} as const;

/**
 * "last used …", or "never used" for an API token no script has sent yet (the server starts its
 * last use at its creation; a browser's or extension's sign-in is a use).
 */
export function lastUse(item: { kind?: string; createdAt: string; lastUsedAt: string }): string {
  const unused = (item.kind === undefined || item.kind === 'api') && item.lastUsedAt === item.createdAt;
  return unused ? 'never used' : `last used ${formatDate(item.lastUsedAt)}`;
}

/** A short, readable device hint from the user agent (browser and system), never the whole string. */
export function deviceHint(userAgent: string | null): string | undefined {
  if (!userAgent) return undefined;
  const browser = /(Edg|Firefox|Chrome|Safari)\//.exec(userAgent)?.[1]?.replace('Edg', 'Edge');
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  return [browser, system].filter(Boolean).join(' on ') || undefined;
}

function SessionRow({ session, onRevoke, busy }: { session: Session; onRevoke: () => void; busy: boolean }) {
  const { icon: Icon, label } = KIND[session.kind];
  const hint = deviceHint(session.userAgent);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <span className="flex min-w-0 flex-col text-sm">
        <span className="flex items-center gap-2 font-medium">
          <Icon className="size-4 shrink-0" aria-hidden />
          <span className="truncate">{session.kind === 'api' ? session.name : (hint ?? label)}</span>
          {session.current && (
            <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-900 dark:text-green-100">
              This device
            </span>
          )}
        </span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {label} · signed in {formatDate(session.createdAt)} · {lastUse(session)}
        </span>
      </span>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          disabled={busy}
          onClick={onRevoke}
          aria-label={`${session.kind === 'api' ? 'Revoke' : 'Sign out'} ${hint ?? session.name}`}
        >
          {session.kind === 'api' ? 'Revoke' : 'Sign Out'}
        </Button>
      )}
    </li>
  );
}

/** Profile: where the account is signed in, with sign-out of one device or all the others. */
export function SessionsCard() {
  const sessions = useSessions();
  const revoke = useRevoke();
  const others = (sessions.data ?? []).filter((s) => !s.current && s.kind !== 'api');
  return (
    <section aria-labelledby="sessions" className={card}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions" className="text-lg font-semibold">
          Signed-in Devices
        </h2>
        <Button
          variant="secondary"
          size="sm"
          disabled={others.length === 0 || revoke.others.isPending}
          onClick={() => revoke.others.mutate()}
        >
          Sign Out All Other Devices
        </Button>
      </div>
      {sessions.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          Could not load your devices. Please try again.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800" aria-busy={sessions.isPending}>
          {sessions.data?.map((s) => (
            <SessionRow
              key={s.id}
              session={s}
              busy={revoke.session.isPending}
              onRevoke={() => revoke.session.mutate(s.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
