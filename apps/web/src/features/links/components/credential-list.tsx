import type { Link } from '@linkwise/contract';
import { Copy, KeyRound, Lock, User } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useAuth } from '../../../lib/auth-store';
import { copySecret } from '../../../lib/clipboard';
import { openCredentials, useVault, VaultText, type EditableCredential } from '../../../lib/vault';

/** The spec's copy toasts last 2 seconds. */
const COPY_TOAST_MS = 2_000;

async function copy(value: string, done: string) {
  if (await copySecret(value)) toast.success(done, { duration: COPY_TOAST_MS });
  else toast.error(VaultText.copyFailed, { duration: COPY_TOAST_MS });
}

/** The link's credentials decrypted with the unlocked key; null while locked (or still decrypting). */
function useOpenedCredentials(link: Link): EditableCredential[] | null {
  const key = useVault((s) => s.key);
  const userId = useAuth((s) => s.user?.id);
  const [opened, setOpened] = useState<{ key: unknown; items: EditableCredential[] } | null>(null);
  useEffect(() => {
    if (!key || !userId) return;
    let cancelled = false;
    void openCredentials(key, userId, link.id, link.credentials).then((items) => {
      if (!cancelled) setOpened({ key, items });
    });
    return () => {
      cancelled = true;
    };
  }, [key, userId, link.id, link.credentials]);
  // Locking drops the key; plaintext decrypted with it is not shown (and is dropped on re-render).
  return key && opened?.key === key ? opened.items : null;
}

const iconButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-700';

/** The card's credential list: copy username or password; locked, it says they exist and offers to unlock. */
export function CredentialList({ link }: { link: Link }) {
  const status = useVault((s) => s.status);
  const openPrompt = useVault((s) => s.openPrompt);
  const items = useOpenedCredentials(link);
  const count = link.credentials.length;
  if (count === 0) return null;

  if (status !== 'unlocked' || !items) {
    return (
      <div className="mt-3 flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/60">
        <span className="flex min-w-0 items-center gap-2 text-slate-600 dark:text-slate-300">
          <Lock className="size-4 shrink-0" aria-hidden />
          {count} saved credential{count === 1 ? '' : 's'}
        </span>
        {status !== 'unlocked' && (
          <button
            type="button"
            className="shrink-0 rounded-md px-2 py-1 text-sm font-medium text-brand-600 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-brand-600/20"
            onClick={openPrompt}
          >
            Unlock to view
          </button>
        )}
      </div>
    );
  }

  return (
    <ul aria-label="Credentials" className="mt-3 space-y-1.5">
      {items.map((c) => (
        <li
          key={c.id}
          aria-label={c.unreadable ? 'Unreadable credential' : c.username}
          className="flex items-center gap-2 rounded-lg bg-slate-50 py-1 pr-1 pl-3 text-sm dark:bg-slate-800/60"
        >
          <KeyRound className="size-4 shrink-0 text-slate-500" aria-hidden />
          {c.unreadable ? (
            <span className="flex-1 text-red-600 dark:text-red-400">Cannot be decrypted</span>
          ) : (
            <>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{c.username}</span>
                {c.note && <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{c.note}</span>}
              </span>
              <button
                type="button"
                className={iconButton}
                aria-label="Copy username"
                title="Copy username"
                onClick={() => void copy(c.username, VaultText.usernameCopied)}
              >
                <User className="size-4" aria-hidden />
              </button>
              <button
                type="button"
                className={iconButton}
                aria-label="Copy password"
                title="Copy password"
                onClick={() => void copy(c.password, VaultText.passwordCopied)}
              >
                <Copy className="size-4" aria-hidden />
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
