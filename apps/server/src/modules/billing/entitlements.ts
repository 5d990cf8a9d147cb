import type { PaidPlanId, SubscriptionStatus } from '@linkwise/contract';
import type { SubscriptionRow } from '../../db/schema.js';

export type BillingMode = 'off' | 'simulated' | 'stripe';

export interface EffectiveSubscription {
  status: SubscriptionStatus;
  plan: PaidPlanId | null;
  /** The plan that takes over at period end (a downgrade waits for the paid period to run out). */
  scheduledPlan: PaidPlanId | null;
  /** End of the paid period (renewal or expiry date), epoch millis. */
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

const FREE: EffectiveSubscription = {
  status: 'free',
  plan: null,
  scheduledPlan: null,
  periodEnd: null,
  cancelAtPeriodEnd: false,
};

/** Adds one billing interval in UTC calendar terms (a month from Jan 31 is Feb 28/29). */
export function addInterval(from: number, plan: PaidPlanId): number {
  const d = new Date(from);
  const day = d.getUTCDate();
  if (plan === 'yearly') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  // Clamp month overflow (Jan 31 + 1 month must not become Mar 3).
  if (d.getUTCDate() !== day) d.setUTCDate(0);
  return d.getTime();
}

/**
 * The subscription as it stands at `now`. A cancellation takes effect at period end (Pro is kept
 * until then). A simulated subscription that was not cancelled renews itself, as a card payment
 * would; a real provider's renewals arrive as events instead.
 */
export function effectiveSubscription(row: SubscriptionRow | undefined | null, now: number): EffectiveSubscription {
  if (!row) return FREE;
  let plan = row.plan;
  let scheduledPlan = row.scheduled_plan;
  let periodEnd = row.current_period_end;
  if (row.status === 'active' && periodEnd !== null && periodEnd <= now) {
    if (row.cancel_at_period_end === 1) {
      return { status: 'canceled', plan, scheduledPlan: null, periodEnd, cancelAtPeriodEnd: false };
    }
    if (row.provider === 'simulated' && plan) {
      // The scheduled downgrade starts with the first renewal.
      if (scheduledPlan) [plan, scheduledPlan] = [scheduledPlan, null];
      while (periodEnd <= now) periodEnd = addInterval(periodEnd, plan);
    }
  }
  return { status: row.status, plan, scheduledPlan, periodEnd, cancelAtPeriodEnd: row.cancel_at_period_end === 1 };
}

/** Pro means status `active`; every other status counts as Free for limits (spec §4). */
export const isPro = (sub: EffectiveSubscription): boolean => sub.status === 'active';

/**
 * The one entitlement table for link limits: with billing off nobody is limited; otherwise Pro is
 * unlimited and everyone else gets the Free limit. `null` means unlimited.
 */
export function linkLimitFor(sub: EffectiveSubscription, mode: BillingMode, freeLimit: number): number | null {
  if (mode === 'off') return null;
  return isPro(sub) ? null : freeLimit;
}

export type SearchMode = 'text' | 'hybrid';

/**
 * The one entitlement table for search: Free gets text search (full-text and `#tag`), Pro gets hybrid
 * search (text fused with meaning); with billing off everyone gets hybrid.
 */
export function searchModeFor(sub: EffectiveSubscription, mode: BillingMode): SearchMode {
  if (mode === 'off') return 'hybrid';
  return isPro(sub) ? 'hybrid' : 'text';
}

/**
 * The one entitlement rule for LLM analysis: only when a provider is configured; then everyone
 * when billing is off, otherwise Pro. Everyone else gets the offline model.
 */
export function llmAnalysisFor(sub: EffectiveSubscription, mode: BillingMode, providerConfigured: boolean): boolean {
  if (!providerConfigured) return false;
  return mode === 'off' || isPro(sub);
}

export interface Allowance {
  linkLimit: number | null;
  totalLinks: number;
  canAddLinks: boolean;
  remainingLinks: number | null;
}

/** Spec §5: remaining = limit − count, never below 0; unlimited plans have no remaining figure. */
export function allowance(linkLimit: number | null, totalLinks: number): Allowance {
  if (linkLimit === null) return { linkLimit, totalLinks, canAddLinks: true, remainingLinks: null };
  return {
    linkLimit,
    totalLinks,
    canAddLinks: totalLinks < linkLimit,
    remainingLinks: Math.max(0, linkLimit - totalLinks),
  };
}
