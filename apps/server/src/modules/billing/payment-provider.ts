import type { PaidPlanId, SubscriptionStatus } from '@linkwise/contract';

/** A subscription's state as the payment provider holds it, for one user. */
export interface SubscriptionState {
  provider: 'simulated' | 'stripe';
  userId: string;
  status: SubscriptionStatus;
  plan: PaidPlanId | null;
  scheduledPlan: PaidPlanId | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
  subscriptionId: string | null;
}

/**
 * A subscription change as a payment provider reports it. Every change, whether it comes from the
 * simulated checkout page, a provider's answer to a change we asked for, or a verified webhook, is
 * applied by BillingService.applyProviderEvent, so every path shares one set of rules.
 */
export interface SubscriptionEvent extends SubscriptionState {
  eventId: string;
  type: string;
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

/** Who is checking out, and for what. */
export interface CheckoutRequest {
  userId: string;
  email: string;
  username: string;
  plan: PaidPlanId;
  /** Opens a local session (the simulated provider's pages use it as their capability). */
  openLocalSession: () => Promise<string>;
}

export interface PortalRequest {
  userId: string;
  openLocalSession: () => Promise<string>;
}

export interface PaymentProvider {
  readonly name: 'simulated' | 'stripe';
  /** A checkout to send the browser to: its address, and its id for a client-side redirect helper. */
  startCheckout(request: CheckoutRequest): Promise<{ url: string; sessionId: string }>;
  /** Where to send the browser to manage an existing subscription. */
  startPortal(request: PortalRequest): Promise<{ url: string }>;
  cancelAtPeriodEnd(sub: CurrentSubscription): Promise<SubscriptionEvent>;
  resume(sub: CurrentSubscription): Promise<SubscriptionEvent>;
  changePlan(sub: CurrentSubscription, plan: PaidPlanId, now: number): Promise<SubscriptionEvent>;
}

/** A verified provider event: what the webhook route needs to record and queue it. */
export interface VerifiedEvent {
  id: string;
  type: string;
  data: { object: unknown };
}

/**
 * What a provider with webhooks and remote state (Stripe) adds. Kept apart from its class so the
 * billing service does not load the Stripe SDK in processes that do not use it.
 */
export interface RemoteBilling {
  /** Checks a webhook's signature over its raw bytes; throws when it is not the provider's. */
  verifyWebhook(raw: Buffer, signature: string): VerifiedEvent;
  /** The user's subscription as the provider holds it now. */
  currentState(userId: string, customerId: string): Promise<SubscriptionState>;
  /** Ends every subscription of the customer now and deletes the customer. */
  closeCustomer(customerId: string): Promise<void>;
}
