import type { PaidPlanId, SubscriptionStatus } from '@linkwise/contract';
import Stripe from 'stripe';
import { AppError } from '../../errors.js';
import type {
  CheckoutRequest,
  CurrentSubscription,
  PaymentProvider,
  PortalRequest,
  RemoteBilling,
  SubscriptionEvent,
  SubscriptionState,
} from './payment-provider.js';
import { returnUrls } from './return-urls.js';
import type { SubscriptionRepository } from './subscription.repository.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  prices: Record<PaidPlanId, string>;
  appUrl: string;
  trialDays: number;
  /** STRIPE_API_BASE: another API address (a local double in tests, a proxy). */
  apiBase?: string | undefined;
  /** Where Stripe's failures are reported for the operator (the user sees the spec's sentence). */
  log?: { warn(context: object, message: string): void };
}

/** A plan's price as Stripe charges it. */
export interface StripePrice {
  id: string;
  /** In the currency's major unit (4.9, not 490). */
  amount: number;
  currency: string;
  interval: 'month' | 'year';
}

/** Stripe's message for the user when Stripe fails, per action (spec §8). */
export const StripeFailure = {
  checkout: 'Failed to create checkout session. Please try again.',
  portal: 'Failed to open subscription management. Please try again.',
  change: 'Payment system error. Please try again later.',
} as const;

/** Currencies Stripe counts in whole units (no cents). */
const ZERO_DECIMAL = new Set(
  'bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' ').map((c) => c.toUpperCase()),
);

/** Stripe statuses that still hold (or are about to hold) a subscription, most current first. */
const LIVE: Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];

/**
 * Spec §4's statuses from Stripe's. A trial is Pro. A subscription that never got paid
 * (`incomplete`) or has ended (`canceled`, `incomplete_expired`) is Free: nothing counts as paid
 * that Stripe did not confirm. A paused one (a trial ended without a card) cannot be charged.
 */
export function statusFromStripe(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'unpaid':
    case 'paused':
      return 'unpaid';
    case 'incomplete':
    case 'incomplete_expired':
    case 'canceled':
      return 'free';
  }
  // A status a newer API version adds grants nothing until it is mapped here.
  return 'free';
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Whether an error is Stripe (or the way to it) failing, as opposed to a bug of ours. */
export const isStripeError = (error: unknown): error is Stripe.errors.StripeError =>
  error instanceof Stripe.errors.StripeError;

/**
 * Stripe subscriptions through the official SDK: Checkout Sessions (`mode=subscription`), the
 * Customer Portal, cancel at period end, resume, plan changes (upgrades at once and prorated,
 * downgrades at period end through a subscription schedule), and verified webhooks. Every state it
 * reports is re-read from Stripe, so events arriving late or out of order cannot roll it back.
 */
export class StripePaymentProvider implements PaymentProvider, RemoteBilling {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;
  private readonly back: ReturnType<typeof returnUrls>;

  constructor(
    private readonly settings: StripeSettings,
    private readonly subscriptions: SubscriptionRepository,
  ) {
    const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 15_000,
      appInfo: { name: 'Linkwise' },
      telemetry: false,
      ...(base && {
        host: base.hostname,
        port: base.port || (base.protocol === 'https:' ? 443 : 80),
        protocol: base.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    this.back = returnUrls(settings.appUrl);
  }

  /**
   * The configured prices as Stripe charges them, read once at start-up: every screen shows these,
   * so no screen can disagree with the charge. A missing, inactive or mismatched price stops the
   * server with one line naming the variable.
   */
  async loadPrices(): Promise<Record<PaidPlanId, StripePrice>> {
    const read = async (plan: PaidPlanId, variable: string, interval: 'month' | 'year') => {
      const id = this.settings.prices[plan];
      let price: Stripe.Price;
      try {
        price = await this.stripe.prices.retrieve(id);
      } catch (error) {
        const why = isStripeError(error) ? error.message : String(error);
        throw new Error(`${variable} ${id} could not be read from Stripe: ${why}`);
      }
      if (!price.active) throw new Error(`${variable} ${id} is archived in Stripe`);
      if (price.recurring?.interval !== interval || (price.recurring.interval_count ?? 1) !== 1) {
        throw new Error(`${variable} ${id} must be a recurring price billed every ${interval}`);
      }
      if (price.unit_amount == null) throw new Error(`${variable} ${id} must have a fixed amount`);
      const currency = price.currency.toUpperCase();
      const amount = ZERO_DECIMAL.has(currency) ? price.unit_amount : price.unit_amount / 100;
      return { id, amount, currency, interval };
    };
    const monthly = await read('monthly', 'STRIPE_PRICE_MONTHLY', 'month');
    const yearly = await read('yearly', 'STRIPE_PRICE_YEARLY', 'year');
    if (monthly.currency !== yearly.currency) {
      throw new Error(
        `STRIPE_PRICE_MONTHLY (${monthly.currency}) and STRIPE_PRICE_YEARLY (${yearly.currency}) must use one currency`,
      );
    }
    return { monthly, yearly };
  }

  /** Runs a Stripe call; Stripe's failure (down, slow, refusing) becomes the spec's message for it. */
  private async call<T>(failure: keyof typeof StripeFailure, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof AppError || !isStripeError(error)) throw error;
      // Stripe's error carries no secret: its type, code, status, request id and message.
      this.settings.log?.warn(
        {
          action: failure,
          type: error.type,
          code: error.code,
          statusCode: error.statusCode,
          requestId: error.requestId,
          reason: error.message,
        },
        'stripe call failed',
      );
      throw new AppError('SERVICE_UNAVAILABLE', StripeFailure[failure], {
        provider: 'stripe',
        type: error.type,
        ...(error.code && { providerCode: error.code }),
      });
    }
  }

  /** The user's one Stripe customer, created on first need (an idempotency key stops doubles). */
  private async customerFor(request: Pick<CheckoutRequest, 'userId' | 'email' | 'username'>): Promise<string> {
    const known = await this.subscriptions.findCustomer(request.userId);
    if (known) return known.customer_id;
    const customer = await this.stripe.customers.create(
      { email: request.email, name: request.username, metadata: { userId: request.userId } },
      { idempotencyKey: `linkwise-customer-${request.userId}` },
    );
    const saved = await this.subscriptions.saveCustomer({
      user_id: request.userId,
      provider: 'stripe',
      customer_id: customer.id,
      created_at: Date.now(),
    });
    return saved.customer_id;
  }

  private async subscriptionsOf(customerId: string): Promise<Stripe.Subscription[]> {
    const list = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
    return list.data;
  }

  /** The subscription that decides the user's plan: a live one first, else the newest. */
  private static pick(subs: Stripe.Subscription[]): Stripe.Subscription | undefined {
    const live = subs.filter((s) => LIVE.includes(s.status));
    const pool = live.length ? live : subs;
    return [...pool].sort((a, b) => LIVE.indexOf(a.status) - LIVE.indexOf(b.status) || b.created - a.created)[0];
  }

  async startCheckout(request: CheckoutRequest): Promise<{ url: string; sessionId: string }> {
    return this.call('checkout', async () => {
      const customer = await this.customerFor(request);
      const subs = await this.subscriptionsOf(customer);
      // A payment whose webhook has not arrived yet must not lead to a second subscription.
      if (subs.some((s) => LIVE.includes(s.status))) {
        throw new AppError(
          'INVALID_STATE',
          'You already have a subscription: manage it from your profile (Manage Subscription).',
        );
      }
      // One trial per customer: whoever subscribed before pays from the first day.
      const trial = this.settings.trialDays > 0 && subs.length === 0 ? this.settings.trialDays : 0;
      const session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: request.userId,
        line_items: [{ price: this.settings.prices[request.plan], quantity: 1 }],
        success_url: this.back.success(),
        cancel_url: this.back.cancel,
        payment_method_collection: 'always',
        metadata: { userId: request.userId, plan: request.plan },
        subscription_data: {
          metadata: { userId: request.userId },
          ...(trial > 0 && { trial_period_days: trial }),
        },
      });
      if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', StripeFailure.checkout);
      return { url: session.url, sessionId: session.id };
    });
  }

  async startPortal(request: PortalRequest): Promise<{ url: string }> {
    const known = await this.subscriptions.findCustomer(request.userId);
    if (!known) throw new AppError('INVALID_STATE', 'There is no subscription to manage yet.');
    return this.call('portal', async () => {
      const session = await this.stripe.billingPortal.sessions.create({
        customer: known.customer_id,
        return_url: this.back.portalReturn,
      });
      return { url: session.url };
    });
  }

  private requireSubscriptionId(sub: CurrentSubscription): string {
    if (!sub.subscriptionId) throw new AppError('INVALID_STATE', 'There is no active subscription to change.');
    return sub.subscriptionId;
  }

  /** A pending downgrade lives in a schedule; cancelling or resuming drops it first. */
  private async releaseSchedule(subscription: Stripe.Subscription): Promise<void> {
    const schedule = idOf(subscription.schedule);
    if (schedule) await this.stripe.subscriptionSchedules.release(schedule);
  }

  cancelAtPeriodEnd(sub: CurrentSubscription): Promise<SubscriptionEvent> {
    const id = this.requireSubscriptionId(sub);
    return this.call('change', async () => {
      await this.releaseSchedule(await this.stripe.subscriptions.retrieve(id));
      const updated = await this.stripe.subscriptions.update(id, { cancel_at_period_end: true });
      return this.answer(sub.userId, updated);
    });
  }

  resume(sub: CurrentSubscription): Promise<SubscriptionEvent> {
    const id = this.requireSubscriptionId(sub);
    return this.call('change', async () => {
      await this.releaseSchedule(await this.stripe.subscriptions.retrieve(id));
      const updated = await this.stripe.subscriptions.update(id, { cancel_at_period_end: false });
      return this.answer(sub.userId, updated);
    });
  }

  /**
   * Upgrades (monthly → yearly) take effect at once: the item's price changes and Stripe prorates
   * and invoices now. Downgrades (yearly → monthly) wait for the paid year: a schedule whose next
   * phase is monthly. Choosing the current plan again releases that schedule.
   */
  changePlan(sub: CurrentSubscription, plan: PaidPlanId): Promise<SubscriptionEvent> {
    const id = this.requireSubscriptionId(sub);
    return this.call('change', async () => {
      const current = await this.stripe.subscriptions.retrieve(id);
      const item = current.items.data[0];
      if (!item) throw new AppError('INVALID_STATE', 'There is no active subscription to change.');
      const price = this.settings.prices[plan];
      if (item.price.id === price) {
        await this.releaseSchedule(current);
        return this.answer(sub.userId, await this.stripe.subscriptions.retrieve(id));
      }
      if (plan === 'yearly') {
        await this.releaseSchedule(current);
        const updated = await this.stripe.subscriptions.update(id, {
          items: [{ id: item.id, price, quantity: 1 }],
          proration_behavior: 'always_invoice',
        });
        return this.answer(sub.userId, updated);
      }
      const scheduleId =
        idOf(current.schedule) ?? (await this.stripe.subscriptionSchedules.create({ from_subscription: id })).id;
      const schedule = await this.stripe.subscriptionSchedules.retrieve(scheduleId);
      const phase = schedule.current_phase ?? {
        start_date: item.current_period_start,
        end_date: item.current_period_end,
      };
      await this.stripe.subscriptionSchedules.update(scheduleId, {
        end_behavior: 'release',
        phases: [
          {
            items: [{ price: item.price.id, quantity: 1 }],
            start_date: phase.start_date,
            end_date: phase.end_date,
          },
          { items: [{ price, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
        ],
      });
      return this.answer(sub.userId, await this.stripe.subscriptions.retrieve(id));
    });
  }

  /** Stripe's answer to a change we asked for, as an event; its request id makes it unique. */
  private async answer(userId: string, sub: Stripe.Response<Stripe.Subscription>): Promise<SubscriptionEvent> {
    const state = await this.stateOf(userId, sub);
    return { ...state, eventId: `stripe_req:${sub.lastResponse.requestId}`, type: 'customer.subscription.updated' };
  }

  private planOfPrice(priceId: string | undefined): PaidPlanId | null {
    if (priceId === this.settings.prices.monthly) return 'monthly';
    if (priceId === this.settings.prices.yearly) return 'yearly';
    return null;
  }

  /** What a Stripe subscription means for the user, including a downgrade its schedule holds. */
  private async stateOf(userId: string, sub: Stripe.Subscription): Promise<SubscriptionState> {
    const item = sub.items.data[0];
    const status = statusFromStripe(sub.status);
    let scheduledPlan: PaidPlanId | null = null;
    const scheduleId = idOf(sub.schedule);
    if (scheduleId && status === 'active') {
      const schedule = await this.stripe.subscriptionSchedules.retrieve(scheduleId);
      const currentEnd = schedule.current_phase?.end_date;
      const next = currentEnd === undefined ? undefined : schedule.phases.find((p) => p.start_date >= currentEnd);
      const nextPrice = next?.items[0]?.price;
      const nextPlan = this.planOfPrice(typeof nextPrice === 'string' ? nextPrice : nextPrice?.id);
      if (nextPlan && nextPlan !== this.planOfPrice(item?.price.id)) scheduledPlan = nextPlan;
    }
    return {
      provider: 'stripe',
      userId,
      status,
      plan: status === 'free' ? null : this.planOfPrice(item?.price.id),
      scheduledPlan,
      currentPeriodEnd: status === 'free' || !item ? null : item.current_period_end * 1000,
      cancelAtPeriodEnd: status !== 'free' && sub.cancel_at_period_end,
      customerId: idOf(sub.customer),
      subscriptionId: status === 'free' ? null : sub.id,
    };
  }

  /** The user's subscription as Stripe holds it now (webhooks re-read it rather than trust the event). */
  async currentState(userId: string, customerId: string): Promise<SubscriptionState> {
    const chosen = StripePaymentProvider.pick(await this.subscriptionsOf(customerId));
    if (chosen) return this.stateOf(userId, chosen);
    return {
      provider: 'stripe',
      userId,
      status: 'free',
      plan: null,
      scheduledPlan: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      customerId,
      subscriptionId: null,
    };
  }

  /** Checks a webhook's signature over its raw bytes; throws when it is not Stripe's. */
  verifyWebhook(raw: Buffer, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(raw, signature, this.settings.webhookSecret);
  }

  /** Account deletion: ends every subscription now (no further charge) and deletes the customer. */
  async closeCustomer(customerId: string): Promise<void> {
    for (const sub of await this.subscriptionsOf(customerId)) {
      if (sub.status !== 'canceled' && sub.status !== 'incomplete_expired') {
        await this.stripe.subscriptions.cancel(sub.id, { prorate: false, invoice_now: false });
      }
    }
    try {
      await this.stripe.customers.del(customerId);
    } catch (error) {
      // Already deleted (in the dashboard, or by an earlier attempt): nothing is left to forget.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)) throw error;
    }
  }
}
