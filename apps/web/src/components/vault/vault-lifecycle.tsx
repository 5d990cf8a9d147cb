import { lazy, Suspense, useEffect } from 'react';
import { toast } from '../../lib/toast';
import { useAuth } from '../../lib/auth-store';
import { useVault, useVaultPrefs, VaultText } from '../../lib/vault';

const VaultPrompt = lazy(() => import('./vault-prompt'));

const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
const CHECK_EVERY_MS = 5_000;

/**
 * Locks the unlocked vault after `minutes` without input. Elapsed time is checked on an interval
 * and when the tab becomes visible again, rather than trusting one long timer, which a sleeping
 * laptop or a throttled background tab would fire late.
 */
export function useIdleLock(minutes: number) {
  const unlocked = useVault((s) => s.status === 'unlocked');
  const lock = useVault((s) => s.lock);
  useEffect(() => {
    if (!unlocked) return;
    let last = Date.now();
    const touch = () => {
      last = Date.now();
    };
    const check = () => {
      if (Date.now() - last >= minutes * 60_000) {
        lock();
        toast.info(`${VaultText.locked} after ${minutes} minute${minutes === 1 ? '' : 's'} of inactivity`);
      }
    };
    for (const event of ACTIVITY) window.addEventListener(event, touch, { passive: true, capture: true });
    document.addEventListener('visibilitychange', check);
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => {
      for (const event of ACTIVITY) window.removeEventListener(event, touch, { capture: true });
      document.removeEventListener('visibilitychange', check);
      clearInterval(timer);
    };
  }, [unlocked, minutes, lock]);
}

/** Mounted once for a signed-in user: learns whether a vault exists, auto-locks, hosts the prompt. */
export function VaultLifecycle() {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const status = useVault((s) => s.status);
  const load = useVault((s) => s.load);
  const promptOpen = useVault((s) => s.promptOpen);
  const minutes = useVaultPrefs((s) => s.autoLockMinutes);
  useIdleLock(minutes);
  useEffect(() => {
    if (signedIn && status === 'unknown') void load();
  }, [signedIn, status, load]);
  if (!signedIn || !promptOpen) return null;
  return (
    <Suspense fallback={null}>
      <VaultPrompt />
    </Suspense>
  );
}
