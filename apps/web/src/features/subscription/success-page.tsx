import { CheckCircle2, Crown } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { buttonClass } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { formatDate, planName } from '../../lib/format';

const UNLOCKED = [
  'Unlimited links',
  'Advanced AI categorisation',
  'Semantic search',
  'Export and backup',
  'Priority email support',
  'Advanced filtering and sorting',
];

/** How long the page waits for the payment provider's confirmation (its webhook) before showing the result. */
const CONFIRM_ATTEMPTS = 20;
const CONFIRM_INTERVAL_MS = 1500;

/**
 * After checkout: confirm the subscription with the server, asking again while the provider's
 * confirmation is on its way, then welcome the new Pro user. The stored user is updated, so the
 * navbar's Pro badge and menu label change without signing out and in.
 */
export default function SuccessPage() {
  const token = useAuth((s) => s.token);
  const user = useAuth((s) => s.user);
  const updateSubscription = useAuth((s) => s.updateSubscription);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(Boolean(token));
  const [confirmed, setConfirmed] = useState(false);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async (attempt: number) => {
      try {
        const status = await api.subscriptionStatus();
        if (cancelled) return;
        if (status.isSubscribed) {
          updateSubscription('active', status.plan, status.endDate);
          setConfirmed(true);
        } else if (attempt < CONFIRM_ATTEMPTS) {
          timer = setTimeout(() => void check(attempt + 1), CONFIRM_INTERVAL_MS);
          return;
        }
        void queryClient.invalidateQueries();
      } catch (error) {
        // A failed refresh is only logged; the success view is shown anyway (spec §8).
        console.warn('Subscription status refresh failed', error);
      }
      if (!cancelled) setConfirming(false);
    };
    void check(1);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [token, updateSubscription, queryClient]);

  if (confirming) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Confirming your subscription..." />
      </div>
    );
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <CheckCircle2 className="mx-auto size-14 text-green-600" aria-hidden />
        <h1 className="mt-4 text-3xl font-bold">Welcome to Pro!</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {confirmed || user?.subscriptionStatus === 'active'
            ? 'Your subscription is active. These features are now unlocked:'
            : 'Thank you! Your payment is still being confirmed; your plan updates by itself within a few minutes. These features come with Pro:'}
        </p>
        <ul className="mt-4 space-y-1 text-left text-sm">
          {UNLOCKED.map((f) => (
            <li key={f} className="flex items-center gap-2">
              <Crown className="size-4 text-amber-500" aria-hidden /> {f}
            </li>
          ))}
        </ul>
        {user?.subscriptionStatus === 'active' && (
          <dl className="mt-6 grid grid-cols-2 gap-3 rounded-lg bg-slate-50 p-4 text-left text-sm dark:bg-slate-800">
            <dt className="text-slate-500 dark:text-slate-400">Plan</dt>
            <dd className="font-medium">{planName(user.subscriptionPlan)}</dd>
            {user.subscriptionEndDate && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">Next billing date</dt>
                <dd className="font-medium">{formatDate(user.subscriptionEndDate)}</dd>
              </>
            )}
          </dl>
        )}
        <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Link to="/" className={buttonClass('primary')}>
            Start Adding Links
          </Link>
          <Link to="/profile" className={buttonClass('secondary')}>
            Manage Subscription
          </Link>
        </div>
      </div>
    </main>
  );
}
