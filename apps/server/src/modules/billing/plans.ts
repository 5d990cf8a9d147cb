import type { Plan } from '@linkwise/contract';

export interface PriceConfig {
  monthly: number;
  yearly: number;
  currency: string;
  freeLinkLimit: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The single plan table every screen reads. The spec quotes two price sets; the product shows the
 * configured one (default $4.90 / $49.90), and savings are computed, never hard-coded.
 */
export function buildPlans(p: PriceConfig): Plan[] {
  const savings = Math.round((1 - p.yearly / (p.monthly * 12)) * 100);
  const monthsFree = Math.round(12 - p.yearly / p.monthly);
  const savingsLine =
    monthsFree >= 1
      ? `${monthsFree} month${monthsFree === 1 ? '' : 's'} free (${savings}% savings)`
      : `${savings}% savings`;
  const pro = [
    'Unlimited links',
    'Advanced AI categorization',
    'Semantic search',
    'Export and backup',
    'Priority email support',
    'Advanced filtering and sorting',
    'Custom tags and categories',
  ];
  return [
    {
      id: 'free',
      name: 'Free',
      price: 0,
      currency: p.currency,
      interval: 'forever',
      priceYearly: 0,
      monthlyEquivalent: null,
      savingsPercent: null,
      features: [
        `Up to ${p.freeLinkLimit} links`,
        'Basic categorization',
        'Standard search',
        'Web app access',
        'Community support',
      ],
      popular: false,
      linkLimit: p.freeLinkLimit,
    },
    {
      id: 'monthly',
      name: 'Pro Monthly',
      price: p.monthly,
      currency: p.currency,
      interval: 'month',
      priceYearly: round2(p.monthly * 12),
      monthlyEquivalent: null,
      savingsPercent: null,
      features: pro,
      popular: false,
      linkLimit: null,
    },
    {
      id: 'yearly',
      name: 'Pro Yearly',
      price: p.yearly,
      currency: p.currency,
      interval: 'year',
      priceYearly: p.yearly,
      monthlyEquivalent: round2(p.yearly / 12),
      savingsPercent: savings > 0 ? savings : null,
      features: savings > 0 ? [...pro, savingsLine] : pro,
      popular: true,
      linkLimit: null,
    },
  ];
}
