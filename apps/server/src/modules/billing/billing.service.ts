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
import type { PaymentProvider, SubscriptionEvent } from './payment-provider.js';
import type { CheckoutSessionRow, SubscriptionRepository } from './subscription.repository.js';

const SESSION_TTL_MS = 60 * 60 * 1000;

export interface BillingDeps {
  subscriptions: SubscriptionRepository;
  countLinks: (userId: string) => Promise<number>;
  provider: PaymentProvider | null;
  mode: BillingMode;
  freeLinkLimit: number;
  plans: Plan[];
  clock: Clock;
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
    const sessionId = await this.openSession(actor, 'checkout', plan);
    return { url: provider.checkoutUrl(sessionId), sessionId };
  }

  async createPortal(actor: Actor): Promise<{ url: string }> {
    const provider = this.requireProvider();
    const sub = this.subscriptionOf(actor);
    if (!sub.plan) throw new AppError('INVALID_STATE', 'There is no subscription to manage yet.');
    const sessionId = await this.openSession(actor, 'portal', sub.plan);
    return { url: provider.portalUrl(sessionId) };
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
    const existing = await this.deps.subscriptions.find(event.userId);
    const row = {
      user_id: event.userId,
      provider: event.provider,
      status: event.status,
      plan: event.plan,
      scheduled_plan: event.scheduledPlan,
      current_period_end: event.currentPeriodEnd,
      cancel_at_period_end: event.cancelAtPeriodEnd ? 1 : 0,
      provider_customer_id: event.customerId,
      provider_subscription_id: event.subscriptionId,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    } as const;
    await this.deps.subscriptions.upsert(row);
    return row;
  }

  /** An open, unexpired session of the given kind, or an explanation of why it cannot be used. */
  async openSessionFor(id: string, kind: 'checkout' | 'portal'): Promise<CheckoutSessionRow | { problem: string }> {
    const session = await this.deps.subscriptions.findSession(id);
    if (!session || session.kind !== kind) return { problem: 'This page does not exist or has been used already.' };
    if (session.status !== 'open') return { problem: 'This checkout has already been completed or cancelled.' };
    if (session.expires_at <= this.deps.clock.now()) return { problem: 'This page has expired. Please start again.' };
    return session;
  }

  /** The simulated checkout's Pay button: the provider confirms, then the shared event path applies it. */
  async completeCheckout(id: string): Promise<'completed' | 'unavailable'> {
    const session = await this.openSessionFor(id, 'checkout');
    if ('problem' in session) return 'unavailable';
    if (!(await this.deps.subscriptions.closeSession(id, 'completed'))) return 'unavailable';
    const event = await this.requireProvider().confirmCheckout(session.user_id, session.plan, this.deps.clock.now());
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
