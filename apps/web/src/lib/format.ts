import type { SubscriptionStatus } from '@linkwise/contract';

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  free: 'Free Plan',
  active: 'Active',
  canceled: 'Canceled',
  past_due: 'Past Due',
  unpaid: 'Payment Failed',
};

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? 'N/A'
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

export function formatPrice(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(amount);
}

export const planName = (plan: 'monthly' | 'yearly' | null | undefined): string =>
  plan === 'yearly' ? 'Pro Yearly' : plan === 'monthly' ? 'Pro Monthly' : 'Free';
