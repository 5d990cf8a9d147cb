import type { PaidPlanId, Plan } from '@linkwise/contract';
import { ArrowLeft, Check } from 'lucide-react';
import { Link } from 'react-router';
import { SubscriptionErrorBoundary } from '../../components/subscription-error-boundary';
import { Button, buttonClass } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../lib/auth-store';
import { formatPrice } from '../../lib/format';
import { PaymentErrorPanel } from '../../components/payment-error-panel';
import { useAppConfig, useCheckout, usePlans, usePortal } from '../../lib/shared-queries';

/** The six questions; the Free plan's size and any trial come from the server's configuration. */
export const faq = (limit: number, trialDays = 0): { q: string; a: string }[] => [
  {
    q: 'Can I change my plan at any time?',
    a: 'Yes. Upgrades take effect immediately. Downgrades and cancellations take effect at the end of the current billing period, and you keep Pro access until then.',
  },
  {
    q: 'What happens to my links if I downgrade?',
    a: `All your links are kept. On the Free plan only the first ${limit} (by creation date) are viewable; upgrading again makes every link visible.`,
  },
  {
    q: 'Is there a free trial?',
    a:
      trialDays > 0
        ? `Yes: your first Pro subscription starts with ${trialDays} days free. Your card is asked for up front and charged only when the trial ends; cancel before then and you pay nothing. The Free plan, with up to ${limit} links, is free for as long as you like.`
        : `There is no free trial beyond the Free plan itself, which you can use for as long as you like with up to ${limit} links.`,
  },
  {
    q: 'Can I get a refund?',
    a: 'Annual plans cancelled within 30 days are refunded pro rata. Monthly plans are not refundable. There are no early-termination fees.',
  },
  {
    q: 'How is my payment handled?',
    a: 'Payments are processed by our card payment provider. We never see or store your card number.',
  },
  {
    q: 'Are my saved credentials safe?',
    a: 'Yes. The username, password and note of each stored credential are encrypted in your browser with AES-256-GCM before they reach our servers, under a key protected by your master password (PBKDF2-SHA-256, 600,000 iterations). We store only encrypted data and never see your master password, so we cannot recover it: if you forget it, your stored credentials are lost. Link addresses, titles, tags and link notes are not encrypted this way.',
  },
];

type Label = { text: string; disabled: boolean; action: 'checkout' | 'portal' | 'none' };

/** Button label and state per card (spec §2 Pricing). */
export function planButton(
  plan: Plan['id'],
  signedIn: boolean,
  status: string | undefined,
  currentPlan: string | null | undefined,
): Label {
  const active = status === 'active';
  if (plan === 'free') {
    if (!signedIn || status === 'free') return { text: 'Current Plan', disabled: true, action: 'none' };
    return { text: 'Free Plan', disabled: true, action: 'none' };
  }
  if (active && currentPlan === plan) return { text: 'Current Plan', disabled: true, action: 'none' };
  if (active) return { text: 'Manage Subscription', disabled: false, action: 'portal' };
  return {
    text: plan === 'yearly' ? 'Upgrade to Pro Yearly' : 'Upgrade to Pro Monthly',
    disabled: false,
    action: 'checkout',
  };
}

function PlanCard({
  plan,
  monthlyYearTotal,
  trialDays,
  checkout,
  portal,
}: {
  plan: Plan;
  monthlyYearTotal: number | null;
  trialDays: number;
  /** Shared by the cards: while one plan's checkout is starting, no other can start a second. */
  checkout: ReturnType<typeof useCheckout>;
  portal: ReturnType<typeof usePortal>;
}) {
  const { user, isAuthenticated } = useAuth();
  const label = planButton(plan.id, isAuthenticated, user?.subscriptionStatus, user?.subscriptionPlan);
  const processing = plan.id !== 'free' && checkout.processing === plan.id;
  return (
    <article
      aria-label={plan.name}
      className={`relative flex flex-col rounded-2xl border bg-white p-6 dark:bg-slate-900 ${plan.popular ? 'border-brand-500 shadow-lg ring-2 ring-brand-500/30' : 'border-slate-200 dark:border-slate-800'}`}
    >
      {plan.popular && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
          Most Popular
        </span>
      )}
      <h2 className="text-xl font-semibold">{plan.name}</h2>
      <p className="mt-3 text-3xl font-bold">
        {plan.id === 'free' ? '$0' : formatPrice(plan.price, plan.currency)}
        <span className="text-base font-normal text-slate-500 dark:text-slate-400">
          {plan.interval === 'forever' ? ' forever' : plan.interval === 'month' ? ' / month' : ' / year'}
        </span>
      </p>
      {plan.id === 'yearly' && plan.monthlyEquivalent != null && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {formatPrice(plan.monthlyEquivalent, plan.currency)} / month
          {monthlyYearTotal != null && (
            <>
              {' '}
              · <s>{formatPrice(monthlyYearTotal, plan.currency)}</s>
            </>
          )}
          {plan.savingsPercent != null && (
            <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-800 dark:bg-green-900 dark:text-green-100">
              Save {plan.savingsPercent}%
            </span>
          )}
        </p>
      )}
      {plan.id !== 'free' && trialDays > 0 && label.action === 'checkout' && (
        <p className="mt-2 text-sm font-medium text-green-700 dark:text-green-300">{trialDays}-day free trial</p>
      )}
      <ul className="mt-5 flex-1 space-y-2 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden /> {f}
          </li>
        ))}
      </ul>
      {checkout.failed === plan.id && (
        <div className="mt-4">
          <PaymentErrorPanel kind="checkout" onRetry={() => void checkout.start(plan.id as PaidPlanId)} />
        </div>
      )}
      <Button
        className="mt-6 w-full"
        variant={plan.popular ? 'primary' : 'secondary'}
        disabled={label.disabled || checkout.processing !== null || portal.isPending}
        onClick={() => {
          if (plan.id === 'free') return;
          if (label.action === 'checkout') void checkout.start(plan.id);
          if (label.action === 'portal') portal.mutate();
        }}
      >
        {processing ? 'Processing...' : label.text}
      </Button>
    </article>
  );
}

export default function PricingPage() {
  const plans = usePlans();
  const checkout = useCheckout();
  const portal = usePortal();
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const monthly = plans.data?.data.find((p) => p.id === 'monthly');
  const freeLimit = plans.data?.data.find((p) => p.id === 'free')?.linkLimit ?? 30;
  const trialDays = useAppConfig().data?.trialDays ?? 0;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1 text-sm text-brand-600 hover:underline dark:text-brand-100"
      >
        <ArrowLeft className="size-4" aria-hidden /> Back to Dashboard
      </Link>
      <div className="mt-6 text-center">
        <h1 className="text-3xl font-bold sm:text-4xl">Simple, transparent pricing</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Start free. Upgrade when you need unlimited links.</p>
      </div>
      <SubscriptionErrorBoundary>
        {plans.isPending ? (
          <div className="py-16 text-center">
            <Spinner label="Loading plans..." />
          </div>
        ) : plans.isError ? (
          <PaymentErrorPanel kind="initialization" onRetry={() => void plans.refetch()} />
        ) : (
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {plans.data.data.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                monthlyYearTotal={monthly?.priceYearly ?? null}
                trialDays={trialDays}
                checkout={checkout}
                portal={portal}
              />
            ))}
          </div>
        )}
      </SubscriptionErrorBoundary>
      <section aria-labelledby="faq" className="mx-auto mt-16 max-w-3xl">
        <h2 id="faq" className="text-center text-2xl font-bold">
          Frequently Asked Questions
        </h2>
        <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {faq(freeLimit, trialDays).map(({ q, a }) => (
            <details key={q} className="group p-4">
              <summary className="cursor-pointer font-medium">{q}</summary>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{a}</p>
            </details>
          ))}
        </div>
      </section>
      {!isAuthenticated && (
        <section className="mt-16 rounded-2xl bg-brand-600 p-8 text-center text-white">
          <h2 className="text-2xl font-bold">Ready to organise your links?</h2>
          <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/register" className={buttonClass('secondary', 'lg')}>
              Create Free Account
            </Link>
            <Link to="/login" className={buttonClass('ghost', 'lg', 'text-white hover:bg-brand-700 dark:text-white')}>
              Sign In
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
