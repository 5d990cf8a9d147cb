import { AlertTriangle, RotateCw } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from './ui/button';

/** The four payment error panels of spec §8, each with a retry and a way back to the dashboard. */
export const PaymentErrorTitles = {
  initialization: 'Payment System Initialization Failed',
  checkout: 'Checkout Error',
  management: 'Subscription Management Error',
  payment: 'Payment Error',
} as const;

export const PaymentErrorMessages = {
  initialization: 'Payment system error. Please refresh and try again.',
  checkout: 'Failed to create checkout session. Please try again.',
  management: 'Failed to open subscription management. Please try again.',
  payment: 'Payment system error. Please try again later.',
} as const;

export type PaymentErrorKind = keyof typeof PaymentErrorTitles;

export function PaymentErrorPanel({ kind, onRetry }: { kind: PaymentErrorKind; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="mx-auto my-10 max-w-lg rounded-xl border border-red-200 bg-red-50 p-6 dark:border-red-900 dark:bg-red-950/40"
    >
      <div className="flex items-center gap-3">
        <AlertTriangle className="size-6 shrink-0 text-red-600" aria-hidden />
        <h2 className="text-lg font-semibold">{PaymentErrorTitles[kind]}</h2>
      </div>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{PaymentErrorMessages[kind]}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" onClick={onRetry}>
          <RotateCw className="size-4" aria-hidden /> Retry
        </Button>
        <Link to="/dashboard" className={buttonClass('secondary', 'sm')}>
          Back to Dashboard
        </Link>
      </div>
    </div>
  );
}
