import { RotateCw } from 'lucide-react';
import { Link } from 'react-router';
import { AlertPanel } from './alert-panel';
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
    <AlertPanel title={PaymentErrorTitles[kind]} message={PaymentErrorMessages[kind]}>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" onClick={onRetry}>
          <RotateCw className="size-4" aria-hidden /> Retry
        </Button>
        <Link to="/dashboard" className={buttonClass('secondary', 'sm')}>
          Back to Dashboard
        </Link>
      </div>
    </AlertPanel>
  );
}
