import { EXTENSION_SHORTCUTS } from '@linkwise/contract';
import { Crown, Lock } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PaymentErrorPanel } from '../../components/payment-error-panel';
import { SubscriptionErrorBoundary } from '../../components/subscription-error-boundary';
import { ApiTokensCard } from '../account/api-tokens-card';
import { AccountSecurityItems } from '../account/security-items';
import { SessionsCard } from '../account/sessions-card';
import DataExportSection from '../import/data-export-section';
import { ExportFirst } from '../import/export-first';
import { Button, buttonClass } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { formatDate, planName, STATUS_LABELS } from '../../lib/format';
import { usePortal, useSubscriptionStatus } from '../../lib/shared-queries';
import { ProfileInstallButtons } from '../extension/install-buttons';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

/** Opens from the app and searches this month (counted by the server as they happen). */
function useUsageCounts() {
  // Always fresh on opening Profile: a search or an open since the last visit changed them.
  return useQuery({
    queryKey: ['link-stats', 'usage'],
    queryFn: async () => (await api.usageCounts()).data,
    staleTime: 0,
  });
}

function useLinkStats() {
  return useQuery({ queryKey: ['link-stats'], queryFn: async () => (await api.linkStats()).data });
}

function SubscriptionCard() {
  const user = useAuth((s) => s.user);
  const status = useSubscriptionStatus();
  const portal = usePortal();
  // A failed status call falls back to the user record (spec §7).
  const s = status.data ?? {
    status: user?.subscriptionStatus ?? 'free',
    plan: user?.subscriptionPlan ?? null,
    endDate: user?.subscriptionEndDate ?? null,
    cancelAtPeriodEnd: false,
    linkLimit: user?.linkLimit ?? null,
    totalLinks: null,
  };
  const pro = s.status === 'active';
  const expires = s.status === 'canceled' || (pro && s.cancelAtPeriodEnd);
  // A failed renewal keeps the subscription at the provider: the card is fixed in the portal, not by a new checkout.
  const paymentDue = (s.status === 'past_due' || s.status === 'unpaid') && s.plan !== null;
  return (
    <section aria-labelledby="subscription" className={card}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="subscription" className="text-lg font-semibold">
          Subscription
        </h2>
        <span
          className={`rounded-full px-3 py-1 text-xs font-semibold ${pro ? 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100' : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200'}`}
        >
          {STATUS_LABELS[s.status]}
        </span>
      </div>
      <p className="mt-3 flex items-center gap-2 text-xl font-bold">
        {pro && <Crown className="size-5 text-amber-500" aria-hidden />}
        {pro ? planName(s.plan) : 'Free'}
      </p>
      {s.endDate && (pro || s.status === 'canceled') && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {expires ? 'Expires:' : 'Renews:'} {formatDate(s.endDate)}
        </p>
      )}
      {!pro && s.linkLimit !== null && s.totalLinks !== null && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {s.totalLinks} of {s.linkLimit} links used
        </p>
      )}
      {paymentDue && (
        <p role="status" className="mt-2 text-sm text-amber-800 dark:text-amber-200">
          Your last payment did not go through, so your account has Free limits for now. Update your payment method to
          get Pro back.
        </p>
      )}
      {portal.isError && (
        <div className="mt-4">
          <PaymentErrorPanel kind="management" onRetry={() => portal.mutate()} />
        </div>
      )}
      <div className="mt-4">
        {pro || paymentDue ? (
          <Button variant="secondary" disabled={portal.isPending} onClick={() => portal.mutate()}>
            Manage
          </Button>
        ) : (
          <Link to="/pricing" className={buttonClass('primary')}>
            Upgrade to Pro
          </Link>
        )}
      </div>
    </section>
  );
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 dark:bg-slate-800">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 truncate text-2xl font-bold">{value}</dd>
    </div>
  );
}

export default function ProfilePage() {
  const user = useAuth((s) => s.user);
  const stats = useLinkStats();
  const usage = useUsageCounts();
  if (!user) return null;
  // When stats fail, zeros and N/A (spec §8).
  const d = stats.data;
  const avgPerDay = d ? (d.linksLast30Days / 30).toFixed(1) : '0';
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Profile</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Member since {formatDate(user.createdAt)}</p>
      </div>

      <section aria-labelledby="account" className={card}>
        <h2 id="account" className="text-lg font-semibold">
          Account
        </h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="Username" value={user.username} readOnly />
          <TextField label="Email" value={user.email} readOnly />
        </div>
      </section>

      <SubscriptionErrorBoundary variant="minimal">
        <SubscriptionCard />
      </SubscriptionErrorBoundary>

      <section aria-labelledby="usage" className={card}>
        <h2 id="usage" className="text-lg font-semibold">
          Usage Statistics
        </h2>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Stat label="Total Links" value={d?.totalLinks ?? 0} />
          <Stat label="Categories" value={d?.categories ?? 0} />
          <Stat label="Read Later" value={d?.readLater ?? 0} />
          <Stat label="Total Clicks" value={usage.data?.totalClicks ?? 0} />
          <Stat label="Avg Links/Day" value={avgPerDay} />
          <Stat label="Top Category" value={d?.topCategory ?? 'N/A'} />
          <Stat label="Searches This Month" value={usage.data?.searchesThisMonth ?? 0} />
        </dl>
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">Average over the last 30 days.</p>
      </section>

      <DataExportSection />

      <section aria-labelledby="extensions" className={card}>
        <h2 id="extensions" className="text-lg font-semibold">
          Browser Extensions
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Save any page with {EXTENSION_SHORTCUTS.chrome} ({EXTENSION_SHORTCUTS.firefox} in Firefox), or right-click a
          link to save it.
        </p>
        <ProfileInstallButtons />
      </section>

      <section aria-labelledby="security" className={card}>
        <h2 id="security" className="text-lg font-semibold">
          Security &amp; Privacy
        </h2>
        <ul className="mt-4 divide-y divide-slate-100 dark:divide-slate-800">
          <li className="flex flex-wrap items-center justify-between gap-2 py-3">
            <span className="flex flex-col text-sm">
              <span className="flex items-center gap-2 font-medium">
                <Lock className="size-4" aria-hidden /> Credential Vault
              </span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                Master password, auto-lock, lock and reset
              </span>
            </span>
            <Link to="/vault" className={buttonClass('secondary', 'sm')}>
              Vault Settings
            </Link>
          </li>
          <AccountSecurityItems exportFirst={<ExportFirst />} />
        </ul>
      </section>

      <SessionsCard />
      <ApiTokensCard />
    </div>
  );
}
