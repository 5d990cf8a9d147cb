import type { PaidPlanId, SubscriptionStatus } from '@linkwise/contract';

/**
 * A subscription change as a payment provider reports it. Every change, whether it comes from the
 * simulated checkout page or (later) a verified provider webhook, is applied by
 * BillingService.applyProviderEvent, so both paths share one set of rules.
 */
export interface SubscriptionEvent {
  eventId: string;
  provider: 'simulated' | 'stripe';
  type: string;
  userId: string;
  status: SubscriptionStatus;
  plan: PaidPlanId | null;
  scheduledPlan: PaidPlanId | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface CurrentSubscription {
  userId: string;
  plan: PaidPlanId;
  scheduledPlan: PaidPlanId | null;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface PaymentProvider {
  readonly name: 'simulated' | 'stripe';
  /** Where to send the browser to pay for `plan`. */
  checkoutUrl(sessionId: string): string;
  /** Where to send the browser to manage an existing subscription. */
  portalUrl(sessionId: string): string;
  /** The provider's confirmation that a checkout was paid. */
  confirmCheckout(userId: string, plan: PaidPlanId, now: number): Promise<SubscriptionEvent>;
  cancelAtPeriodEnd(sub: CurrentSubscription): Promise<SubscriptionEvent>;
  resume(sub: CurrentSubscription): Promise<SubscriptionEvent>;
  changePlan(sub: CurrentSubscription, plan: PaidPlanId, now: number): Promise<SubscriptionEvent>;
}
