import { Link } from 'react-router';
import { useVault } from '../../lib/vault';
import { Dialog } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { SetupVaultForm, UnlockVaultForm } from './master-password-forms';

/**
 * The one unlock (or first-use set-up) dialog any screen can open with `openPrompt()`. It stacks on
 * top of an open link dialog: focus moves into it, Escape closes it first, and the dialog below keeps
 * its input.
 */
export default function VaultPrompt() {
  const { status, promptOpen, closePrompt } = useVault();
  const absent = status === 'absent';
  return (
    <Dialog
      open={promptOpen}
      onOpenChange={(open) => !open && closePrompt()}
      title={absent ? 'Set Up Your Vault' : 'Unlock Your Vault'}
      description={
        absent
          ? 'Choose a master password. Credentials are encrypted with it in this browser before they are saved.'
          : 'Enter your master password to see and copy your stored credentials.'
      }
    >
      {absent ? (
        <SetupVaultForm onDone={closePrompt} />
      ) : status === 'locked' ? (
        <div className="space-y-3">
          <UnlockVaultForm onDone={closePrompt} autoFocus />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Forgot it? It cannot be recovered; in{' '}
            <Link to="/vault" className="text-brand-600 underline dark:text-brand-100" onClick={closePrompt}>
              Vault Settings
            </Link>{' '}
            you can reset the vault, which deletes the stored credentials.
          </p>
        </div>
      ) : status === 'error' ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          The vault could not be loaded. Please check your connection and try again.
        </p>
      ) : status === 'unlocked' ? null : (
        <Spinner />
      )}
    </Dialog>
  );
}
