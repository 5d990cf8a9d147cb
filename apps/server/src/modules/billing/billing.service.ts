import type { PaidPlanId, Plan, SubscriptionStatusResponse } from '@linkwise/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { toIsoOrNull } from '../../lib/clock.js';
import { newSecret } from '../../lib/ids.js';
import type { Actor } from '../../platform/actor.js';
import {
  allowance,
  effectiveSubscription,
  isPro,
  linkLimitFor,
  type BillingMode,
  type EffectiveSubscription,
} from './entitlements.js';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { PaymentProvider, RemoteBilling, SubscriptionEvent, SubscriptionState } from './payment-provider.js';
import { SimulatedPaymentProvider } from './simulated-provider.js';
import type { CheckoutSessionRow, SubscriptionRepository } from './subscription.repository.js';

/** Stripe events that can change a subscription; others are acknowledged and ignored. */
export const STRIPE_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
]);

const SESSION_TTL_MS = 60 * 60 * 1000;

export interface BillingDeps {
  subscriptions: SubscriptionRepository;
  countLinks: (userId: string) => Promise<number>;
  provider: PaymentProvider | null;
  /** The same provider's webhooks and remote state, when it has them (Stripe). */
  remote?: RemoteBilling;
  mode: BillingMode;
  freeLinkLimit: number;
  plans: Plan[];
  clock: Clock;
  /** Where verified webhooks are handed to be applied once (the `stripe-event` job). */
  queue?: JobQueue;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Plans, allowances and every subscription change. */
export class BillingService {
  constructor(private readonly deps: BillingDeps) {}

  get mode(): BillingMode {
    return this.deps.mode;
  }

  /** The subscription as it stands now for the acting user. */
  subscriptionOf(actor: Pick<Actor, 'subscription'>): EffectiveSubscription {
    return effectiveSubscription(actor.subscription, this.deps.clock.now());
  }

  /** The link limit of the acting user (`null` = unlimited). */
  linkLimitOf(actor: Pick<Actor, 'subscription'>): number | null {
    return linkLimitFor(this.subscriptionOf(actor), this.deps.mode, this.deps.freeLinkLimit);
  }

  plans(): { data: Plan[]; billing: BillingMode } {
    return { data: this.deps.plans, billing: this.deps.mode };
  }

  async status(actor: Actor): Promise<SubscriptionStatusResponse> {
    const sub = this.subscriptionOf(actor);
    const limit = linkLimitFor(sub, this.deps.mode, this.deps.freeLinkLimit);
    const usage = allowance(limit, await this.deps.countLinks(actor.userId));
    return {
      status: sub.status,
      plan: sub.plan,
      scheduledPlan: sub.scheduledPlan,
      endDate: toIsoOrNull(sub.periodEnd),
      isSubscribed: isPro(sub),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      hasUnlimitedLinks: limit === null,
      ...usage,
    };
  }

  async usage(actor: Actor) {
    const limit = this.linkLimitOf(actor);
    const usage = allowance(limit, await this.deps.countLinks(actor.userId));
    return {
      totalLinks: usage.totalLinks,
      linkLimit: limit,
      hasUnlimitedLinks: limit === null,
      canAddLinks: usage.canAddLinks,
    };
  }

  private requireProvider(): PaymentProvider {
    if (!this.deps.provider) {
      throw new AppError(
        'BILLING_DISABLED',
        'Payments are turned off on this server: every account already has unlimited links.',
      );
    }
    return this.deps.provider;
  }

  private async openSession(actor: Actor, kind: 'checkout' | 'portal', plan: PaidPlanId): Promise<string> {
    const provider = this.requireProvider();
    const now = this.deps.clock.now();
    const id = `${kind === 'checkout' ? 'cs' : 'ps'}_${newSecret()}`;
    await this.deps.subscriptions.insertSession({
      id,
      kind,
      user_id: actor.userId,
      provider: provider.name,
      plan,
      status: 'open',
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
    });
    return id;
  }

  async createCheckout(actor: Actor, plan: PaidPlanId): Promise<{ url: string; sessionId: string }> {
    const provider = this.requireProvider();
    const sub = this.subscriptionOf(actor);
    if (isPro(sub)) {
      throw new AppError(
        'INVALID_STATE',
        sub.plan === plan
          ? 'You are already subscribed to this plan.'
          : 'You already have Pro: switch between monthly and yearly from subscription management.',
      );
    }
    return provider.startCheckout({
      userId: actor.userId,
      email: actor.email,
      username: actor.username,
      plan,
      openLocalSession: () => this.openSession(actor, 'checkout', plan),
    });
  }

  async createPortal(actor: Actor): Promise<{ url: string }> {
    const provider = this.requireProvider();
    const sub = this.subscriptionOf(actor);
    const plan = sub.plan;
    if (!plan) throw new AppError('INVALID_STATE', 'There is no subscription to manage yet.');
    return provider.startPortal({
      userId: actor.userId,
      openLocalSession: () => this.openSession(actor, 'portal', plan),
    });
  }

  private current(actor: Actor) {
    const sub = this.subscriptionOf(actor);
    const row = actor.subscription;
    if (!isPro(sub) || !row || !sub.plan || sub.periodEnd === null) {
      throw new AppError('INVALID_STATE', 'There is no active subscription to change.');
    }
    return {
      userId: actor.userId,
      plan: sub.plan,
      scheduledPlan: sub.scheduledPlan,
      currentPeriodEnd: sub.periodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      customerId: row.provider_customer_id,
      subscriptionId: row.provider_subscription_id,
    };
  }

  private async changeAndReport(actor: Actor, event: Promise<SubscriptionEvent>): Promise<SubscriptionStatusResponse> {
    const applied = await this.applyProviderEvent(await event);
    return this.status({ ...actor, subscription: applied ?? actor.subscription });
  }

  /** Cancel at period end: Pro stays until then (spec §4, FAQ). */
  cancel(actor: Actor): Promise<SubscriptionStatusResponse> {
    return this.changeAndReport(actor, this.requireProvider().cancelAtPeriodEnd(this.current(actor)));
  }

  resume(actor: Actor): Promise<SubscriptionStatusResponse> {
    return this.changeAndReport(actor, this.requireProvider().resume(this.current(actor)));
  }

  updatePlan(actor: Actor, plan: PaidPlanId): Promise<SubscriptionStatusResponse> {
    const current = this.current(actor);
    if (current.plan === plan && !current.scheduledPlan) return this.status(actor);
    return this.changeAndReport(actor, this.requireProvider().changePlan(current, plan, this.deps.clock.now()));
  }

  /**
   * The one place a subscription changes. Idempotent per provider event id: a redelivered event is
   * recorded once and ignored after. Returns the stored row, or undefined for a duplicate.
   */
  async applyProviderEvent(event: SubscriptionEvent) {
    const now = this.deps.clock.now();
    const fresh = await this.deps.subscriptions.markEventProcessed(event.eventId, event.provider, event.type, now);
    if (!fresh) return undefined;
    return this.applyState(event, now);
  }

  /**
   * Stores a subscription state as the provider holds it (states, unlike events, may be applied
   * again). `readAt` is when the provider was asked: with a provider customer on record, a state read
   * earlier than the one already applied is dropped (two jobs for one customer may finish in either
   * order). Returns the row as stored, or undefined when the state was older.
   */
  private async applyState(state: SubscriptionState, readAt: number) {
    return this.deps.subscriptions.transaction(async (tx) => {
      const customer = await tx.findCustomer(state.userId);
      if (customer && customer.provider === state.provider && !(await tx.claimSync(state.userId, readAt))) {
        return undefined;
      }
      return this.writeState(tx, state);
    });
  }

  private async writeState(subscriptions: SubscriptionRepository, state: SubscriptionState) {
    const now = this.deps.clock.now();
    const existing = await subscriptions.find(state.userId);
    const row = {
      user_id: state.userId,
      provider: state.provider,
      status: state.status,
      plan: state.plan,
      scheduled_plan: state.scheduledPlan,
      current_period_end: state.currentPeriodEnd,
      cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
      provider_customer_id: state.customerId,
      provider_subscription_id: state.subscriptionId,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    } as const;
    await subscriptions.upsert(row);
    return row;
  }

  private stripe(): RemoteBilling {
    if (this.deps.provider?.name !== 'stripe' || !this.deps.remote) throw new AppError('NOT_FOUND', 'Not found');
    return this.deps.remote;
  }

  /**
   * `POST /api/webhooks/stripe`: verifies the signature over the raw bytes, records the event id and
   * queues its processing in one transaction. A redelivered event finds its id recorded and adds
   * nothing; a bad signature changes nothing.
   */
  async receiveStripeWebhook(raw: Buffer, signature: string | undefined): Promise<{ received: true }> {
    const stripe = this.stripe();
    let event;
    try {
      if (!signature) throw new Error('no Stripe-Signature header');
      event = stripe.verifyWebhook(raw, signature);
    } catch (error) {
      this.deps.log?.warn({ reason: error instanceof Error ? error.message : String(error) }, 'stripe webhook refused');
      throw new AppError('VALIDATION_ERROR', 'Invalid Stripe webhook signature.');
    }
    if (!STRIPE_EVENTS.has(event.type)) return { received: true };
    const object = event.data.object as { object?: string; customer?: unknown; client_reference_id?: unknown };
    const customerId =
      typeof object.customer === 'string'
        ? object.customer
        : object.customer && typeof object.customer === 'object' && 'id' in object.customer
          ? String(object.customer.id)
          : undefined;
    if (!customerId) return { received: true };
    const userId =
      object.object === 'checkout.session' && typeof object.client_reference_id === 'string'
        ? object.client_reference_id.slice(0, 64)
        : null;
    const queue = this.deps.queue;
    if (!queue) throw new Error('the stripe-event job needs a queue');
    const queued = await this.deps.subscriptions.transaction(async (tx) => {
      if (!(await tx.markEventProcessed(event.id, 'stripe', event.type, this.deps.clock.now()))) return false;
      await queue.enqueue(
        'stripe-event',
        { eventId: event.id, type: event.type, customerId, userId },
        { tx: tx.connection },
      );
      return true;
    });
    if (queued) queue.queued();
    return { received: true };
  }

  /** The `stripe-event` job: the customer's subscription as Stripe holds it now, applied. */
  async syncStripeCustomer(customerId: string, claimedUserId: string | null): Promise<void> {
    const stripe = this.stripe();
    let userId = await this.deps.subscriptions.userForCustomer('stripe', customerId);
    if (!userId && claimedUserId && (await this.deps.subscriptions.userExists(claimedUserId))) {
      // A customer made outside this server (a Payment Link, the dashboard) is linked by its checkout.
      const saved = await this.deps.subscriptions.saveCustomer({
        user_id: claimedUserId,
        provider: 'stripe',
        customer_id: customerId,
        created_at: this.deps.clock.now(),
      });
      if (saved.customer_id === customerId) userId = claimedUserId;
    }
    if (!userId) {
      this.deps.log?.warn({ customerId }, 'stripe event for a customer no user has; ignored');
      return;
    }
    const readAt = this.deps.clock.now();
    await this.applyState(await stripe.currentState(userId, customerId), readAt);
  }

  /**
   * For account deletion: ends the user's paid subscription at once (no further charge), deletes the
   * provider's customer and forgets both here. Throws when the provider cannot be reached, so the
   * account is not deleted while a subscription keeps charging.
   */
  async forgetCustomer(userId: string): Promise<void> {
    const customer = await this.deps.subscriptions.findCustomer(userId);
    if (customer?.provider === 'stripe') {
      const remote = this.deps.provider?.name === 'stripe' ? this.deps.remote : undefined;
      if (!remote) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'This account has a Stripe subscription but Stripe is not configured.',
        );
      }
      try {
        await remote.closeCustomer(customer.customer_id);
      } catch (error) {
        this.deps.log?.error({ err: error }, 'could not close the Stripe customer');
        throw new AppError('SERVICE_UNAVAILABLE', 'Payment system error. Please try again later.');
      }
    }
    await this.deps.subscriptions.forget(userId);
  }

  /** An open, unexpired session of the given kind, or an explanation of why it cannot be used. */
  async openSessionFor(id: string, kind: 'checkout' | 'portal'): Promise<CheckoutSessionRow | { problem: string }> {
    const session = await this.deps.subscriptions.findSession(id);
    if (!session || session.kind !== kind) return { problem: 'This page does not exist or has been used already.' };
    if (session.status !== 'open') return { problem: 'This checkout has already been completed or cancelled.' };
    if (session.expires_at <= this.deps.clock.now()) return { problem: 'This page has expired. Please start again.' };
    return session;
  }

  /**
   * The simulated checkout's Pay button: the provider confirms, then the shared event path applies it.
   * A second checkout opened before the first was paid is not paid too: changing plans is the
   * portal's (it keeps a pending cancellation and never charges twice).
   */
  async completeCheckout(id: string): Promise<'completed' | 'unavailable' | 'already-pro'> {
    const session = await this.openSessionFor(id, 'checkout');
    if ('problem' in session) return 'unavailable';
    const current = await this.deps.subscriptions.find(session.user_id);
    if (isPro(this.subscriptionOf({ subscription: current }))) {
      await this.deps.subscriptions.closeSession(id, 'canceled');
      return 'already-pro';
    }
    if (!(await this.deps.subscriptions.closeSession(id, 'completed'))) return 'unavailable';
    const provider = this.requireProvider();
    if (!(provider instanceof SimulatedPaymentProvider)) return 'unavailable';
    const event = await provider.confirmCheckout(session.user_id, session.plan, this.deps.clock.now());
    await this.applyProviderEvent(event);
    return 'completed';
  }

  /** The simulated checkout's Cancel button; false when the checkout was no longer open. */
  async cancelCheckout(id: string): Promise<boolean> {
    const session = await this.openSessionFor(id, 'checkout');
    if ('problem' in session) return false;
    return this.deps.subscriptions.closeSession(id, 'canceled');
  }

  /** Builds the acting user for a portal session (the portal page carries no bearer token). */
  async actorForPortal(id: string): Promise<Actor | { problem: string }> {
    const session = await this.openSessionFor(id, 'portal');
    if ('problem' in session) return session;
    return {
      userId: session.user_id,
      tokenId: '',
      email: '',
      username: '',
      createdAt: 0,
      linkCount: await this.deps.countLinks(session.user_id),
      subscription: await this.deps.subscriptions.find(session.user_id),
    };
  }
}
