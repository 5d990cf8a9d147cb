import type { PaidPlanId } from '@linkwise/contract';
import * as RadioGroup from '@radix-ui/react-radio-group';
import { Check, Crown } from 'lucide-react';
import { useState } from 'react';
import { formatPrice } from '../lib/format';
import { useCheckout, usePlans } from '../lib/shared-queries';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';

/** Shown when adding a link at the plan limit: monthly or yearly, then checkout. */
export function UpgradeDialog({
  open,
  onOpenChange,
  limit,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  limit: number;
}) {
  const plans = usePlans();
  const checkout = useCheckout();
  const [choice, setChoice] = useState<PaidPlanId>('yearly');
  const plan = plans.data?.data.find((p) => p.id === choice);
  const monthly = plans.data?.data.find((p) => p.id === 'monthly');

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Upgrade to Pro"
      description={`You've reached your limit of ${limit} links`}
    >
      {/* Radix: one Tab stop, arrow keys move between the periods (the ARIA radio group pattern). */}
      <RadioGroup.Root
        value={choice}
        onValueChange={(value) => setChoice(value as PaidPlanId)}
        orientation="horizontal"
        aria-label="Billing period"
        className="grid grid-cols-2 gap-2 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
      >
        {(['monthly', 'yearly'] as const).map((id) => (
          <RadioGroup.Item
            key={id}
            value={id}
            className={`rounded-md px-3 py-2 text-sm font-medium ${choice === id ? 'bg-white shadow dark:bg-slate-950' : 'text-slate-600 dark:text-slate-300'}`}
          >
            {id === 'monthly' ? 'Monthly' : 'Yearly'}
            {id === 'yearly' && plans.data?.data.find((p) => p.id === 'yearly')?.savingsPercent != null && (
              <span className="ml-1 rounded bg-green-100 px-1.5 text-xs text-green-800 dark:bg-green-900 dark:text-green-100">
                Save {plans.data.data.find((p) => p.id === 'yearly')?.savingsPercent}%
              </span>
            )}
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      {plan ? (
        <div className="mt-4 rounded-lg border border-brand-100 p-4 dark:border-slate-700">
          <p className="flex items-center gap-2 font-semibold">
            <Crown className="size-4 text-amber-500" aria-hidden /> {plan.name}
            {plan.popular && <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">Popular</span>}
          </p>
          <p className="mt-1 text-2xl font-bold">
            {formatPrice(
              plan.id === 'yearly' ? (plan.monthlyEquivalent ?? plan.price / 12) : plan.price,
              plan.currency,
            )}
            <span className="text-sm font-normal text-slate-500 dark:text-slate-400"> / month</span>
          </p>
          {plan.id === 'yearly' && (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {formatPrice(plan.price, plan.currency)} billed yearly
              {monthly?.priceYearly != null && (
                <>
                  {' '}
                  instead of <s>{formatPrice(monthly.priceYearly, plan.currency)}</s>
                </>
              )}
            </p>
          )}
          <ul className="mt-3 space-y-1 text-sm">
            {plan.features.map((f) => (
              <li key={f} className="flex items-start gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden /> {f}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">Loading plans...</p>
      )}
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Maybe Later
        </Button>
        <Button disabled={!plan || checkout.processing !== null} onClick={() => void checkout.start(choice)}>
          {checkout.processing ? 'Processing...' : `Upgrade to ${plan?.name ?? 'Pro'}`}
        </Button>
      </div>
    </Dialog>
  );
}
