import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, LockOpen, ShieldAlert, Timer } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { inputClass, TextField } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import {
  ChangeMasterPasswordForm,
  SetupVaultForm,
  UnlockVaultForm,
} from '../../components/vault/master-password-forms';
import { api, errorMessage } from '../../lib/api';
import { AUTO_LOCK_CHOICES, useVault, useVaultPrefs, VaultText } from '../../lib/vault';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';
const RESET_WORD = 'RESET';

function StatusBadge({ status }: { status: string }) {
  const [text, style] =
    status === 'unlocked'
      ? ['Unlocked', 'bg-amber-100 text-amber-800 dark:bg-amber-500/20 dark:text-amber-100']
      : status === 'locked'
        ? ['Locked', 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100']
        : status === 'absent'
          ? ['Not set up', 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200']
          : ['Checking...', 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200'];
  return <span className={`rounded-full px-3 py-1 text-xs font-semibold ${style}`}>{text}</span>;
}

/** Deleting every credential needs the word typed out: a slip of the mouse must not do it. */
function ResetVaultDialog({ onClose }: { onClose: () => void }) {
  const reset = useVault((s) => s.reset);
  const client = useQueryClient();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const confirmed = typed.trim() === RESET_WORD;
  const submit = async () => {
    setBusy(true);
    try {
      await reset();
      await client.invalidateQueries();
      toast.success(VaultText.reset);
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to reset the vault'));
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Reset vault?"
      description="Every stored credential on every link is deleted, together with your master password's key. Your links stay. This cannot be undone."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (confirmed) void submit();
        }}
      >
        <TextField
          label={`Type ${RESET_WORD} to confirm`}
          autoComplete="off"
          autoCapitalize="characters"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoFocus
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!confirmed || busy}>
            {busy ? 'Deleting...' : 'Delete All Credentials'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export default function VaultSettingsPage() {
  const { status, lock, load } = useVault();
  const { autoLockMinutes, setAutoLockMinutes } = useVaultPrefs();
  const [resetting, setResetting] = useState(false);
  const withCredentials = useQuery({
    queryKey: ['link-stats'],
    queryFn: async () => (await api.linkStats()).data,
    select: (d) => d.withCredentials,
  });
  const exists = status === 'locked' || status === 'unlocked';
  const secure = typeof globalThis.crypto?.subtle !== 'undefined';

  useEffect(() => {
    if (status === 'error') void load(true);
  }, [status, load]);

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6">
      <div>
        <p className="text-sm">
          <Link
            to="/profile"
            className="text-brand-700 underline underline-offset-2 hover:text-brand-600 dark:text-brand-100"
          >
            Profile
          </Link>{' '}
          / Vault Settings
        </p>
        <h1 className="mt-1 text-2xl font-bold sm:text-3xl">Vault Settings</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Website credentials stored with your links are encrypted in this browser with your master password. Linkwise
          stores only the encrypted data.{' '}
          <Link to="/security" className="text-brand-600 underline dark:text-brand-100">
            How it works
          </Link>
        </p>
      </div>

      {!secure && (
        <p role="alert" className={`${card} text-sm text-red-700 dark:text-red-300`}>
          This page is not served over a secure connection (HTTPS), so the browser does not offer the encryption the
          vault needs. Open Linkwise through HTTPS to use the vault.
        </p>
      )}

      <section aria-labelledby="vault-status" className={card}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="vault-status" className="flex items-center gap-2 text-lg font-semibold">
            {status === 'unlocked' ? (
              <LockOpen className="size-5" aria-hidden />
            ) : (
              <Lock className="size-5" aria-hidden />
            )}
            Credential Vault
          </h2>
          <StatusBadge status={status} />
        </div>
        <div className="mt-4">
          {status === 'absent' ? (
            <SetupVaultForm />
          ) : status === 'locked' ? (
            <UnlockVaultForm />
          ) : status === 'unlocked' ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Your credentials can be viewed and copied in this tab until you lock the vault, sign out, close the tab
                or stay inactive for {autoLockMinutes} minute{autoLockMinutes === 1 ? '' : 's'}.
              </p>
              <Button variant="secondary" onClick={lock}>
                <Lock className="size-4" aria-hidden /> Lock Vault
              </Button>
            </div>
          ) : status === 'error' ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              The vault could not be loaded. Please try again.
            </p>
          ) : (
            <Spinner label="Checking your vault..." />
          )}
        </div>
      </section>

      <section aria-labelledby="vault-autolock" className={card}>
        <h2 id="vault-autolock" className="flex items-center gap-2 text-lg font-semibold">
          <Timer className="size-5" aria-hidden /> Auto-lock
        </h2>
        <label className="mt-4 flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-3">
          <span className="font-medium">Lock the vault after</span>
          <select
            className={`${inputClass} sm:w-48`}
            value={autoLockMinutes}
            onChange={(e) => setAutoLockMinutes(Number(e.target.value))}
          >
            {AUTO_LOCK_CHOICES.map((m) => (
              <option key={m} value={m}>
                {m} minute{m === 1 ? '' : 's'} idle
              </option>
            ))}
          </select>
        </label>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          The vault also locks when you press Lock vault, sign out, reload or close the tab. The key is kept in memory
          only, never in browser storage.
        </p>
      </section>

      {exists && (
        <section aria-labelledby="vault-change" className={card}>
          <h2 id="vault-change" className="text-lg font-semibold">
            Change Master Password
          </h2>
          <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">
            Your vault key is re-encrypted with the new master password; your stored credentials stay as they are. Other
            signed-in browsers need the new password the next time they unlock.
          </p>
          <ChangeMasterPasswordForm />
        </section>
      )}

      {exists && (
        <section aria-labelledby="vault-reset" className={`${card} border-red-200 dark:border-red-900`}>
          <h2 id="vault-reset" className="flex items-center gap-2 text-lg font-semibold text-red-700 dark:text-red-400">
            <ShieldAlert className="size-5" aria-hidden /> Reset Vault
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Forgot your master password? It cannot be recovered. Resetting deletes every stored credential
            {withCredentials.data !== undefined
              ? ` (on ${withCredentials.data} link${withCredentials.data === 1 ? '' : 's'})`
              : ''}{' '}
            and lets you choose a new master password. Your links stay.
          </p>
          <Button variant="danger" className="mt-4" onClick={() => setResetting(true)}>
            Reset Vault
          </Button>
        </section>
      )}
      {resetting && <ResetVaultDialog onClose={() => setResetting(false)} />}
    </div>
  );
}
