import { Link2, Lock } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../lib/auth-store';
import { useVault } from '../lib/vault';
import { buttonClass } from './ui/button';

// The dropdown (Radix menu and its positioning) is only needed once someone is signed in.
const AccountMenu = lazy(() => import('./account-menu'));

/**
 * `compact`: on a phone (under 420 px) the name gives way, the mark stays: the signed-in bar needs
 * the room for Dashboard, Profile and the Pro badge.
 */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900 dark:text-white">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white">
        <Link2 className="size-5" aria-hidden />
      </span>
      <span className={compact ? 'max-[419px]:sr-only' : undefined}>Linkwise</span>
    </Link>
  );
}

/** Shown while the credential vault is unlocked: one press locks it again. */
function LockVaultButton() {
  const unlocked = useVault((s) => s.status === 'unlocked');
  const lock = useVault((s) => s.lock);
  if (!unlocked) return null;
  return (
    <button
      type="button"
      onClick={lock}
      title="Lock vault"
      className="flex items-center gap-1.5 rounded-lg px-2.5 py-2 text-sm font-medium text-amber-700 hover:bg-amber-50 dark:text-amber-300 dark:hover:bg-amber-500/10"
    >
      <Lock className="size-4" aria-hidden />
      <span className="sr-only sm:not-sr-only">Lock vault</span>
    </button>
  );
}

/** The shared navigation bar (spec §2). */
export function Navbar() {
  const { user, isAuthenticated } = useAuth();

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-4 sm:px-6">
        <Logo compact={Boolean(isAuthenticated && user)} />
        {isAuthenticated && user ? (
          <div className="flex items-center gap-1 sm:gap-2">
            <LockVaultButton />
            <NavLink
              to="/dashboard"
              className={({ isActive }) =>
                `rounded-lg px-2 py-2 text-sm font-medium sm:px-3 ${isActive ? 'bg-brand-50 text-brand-700 dark:bg-brand-600/20 dark:text-brand-100' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`
              }
            >
              Dashboard
            </NavLink>
            <Suspense fallback={<span className="w-24" />}>
              <AccountMenu />
            </Suspense>
          </div>
        ) : (
          <div className="flex items-center gap-2">
            <Link to="/login" className={buttonClass('ghost')}>
              Login
            </Link>
            <Link to="/register" className={buttonClass('primary')}>
              Register
            </Link>
          </div>
        )}
      </nav>
    </header>
  );
}
