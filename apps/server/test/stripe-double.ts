// A local Stripe for tests and browser journeys: the endpoints Linkwise calls, answered in Stripe's
// wire format (form-encoded requests, JSON objects, `{error: {type, code, message}}` errors, a
// Request-Id header), plus the hosted Checkout and Customer Portal pages, and webhooks signed with
// the real SDK's test header so the server verifies them exactly as it verifies Stripe's.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Stripe from 'stripe';

export const SECRET_KEY = 'sk_test_linkwise_double';
export const WEBHOOK_SECRET = 'whsec_linkwise_double';
export const PRICE_MONTHLY = 'price_linkwise_monthly';
export const PRICE_YEARLY = 'price_linkwise_yearly';

type Obj = Record<string, unknown>;
type Interval = 'month' | 'year';

interface PriceRecord {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed' };
  product: string;
  type: 'recurring';
  livemode: false;
}

interface SubscriptionRecord {
  id: string;
  object: 'subscription';
  customer: string;
  status: Stripe.Subscription.Status;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  created: number;
  start_date: number;
  trial_end: number | null;
  schedule: string | null;
  metadata: Record<string, string>;
  livemode: false;
  items: { object: 'list'; has_more: false; url: string; data: ItemRecord[] };
}

interface ItemRecord {
  id: string;
  object: 'subscription_item';
  price: PriceRecord;
  quantity: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
}

interface ScheduleRecord {
  id: string;
  object: 'subscription_schedule';
  subscription: string;
  customer: string;
  status: 'active' | 'released' | 'canceled';
  end_behavior: string;
  current_phase: { start_date: number; end_date: number } | null;
  phases: { start_date: number; end_date: number; items: { price: string; quantity: number }[] }[];
}

interface SessionRecord {
  id: string;
  object: 'checkout.session';
  mode: string;
  customer: string;
  client_reference_id: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  url: string | null;
  success_url: string;
  cancel_url: string;
  subscription: string | null;
  metadata: Record<string, string>;
  livemode: false;
  /** Not in Stripe's object; what the double needs to complete it. */
  price: string;
  trialDays: number;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Obj };
}

export interface Delivery {
  event: StripeEvent;
  status: number;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (kind: string, id: string, param = 'id') =>
  new StripeFailure(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseForm(body: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Obj = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = value;
        return;
      }
      node[segment] ??= {};
      node = node[segment] as Obj;
    });
  }
  return arrays(root) as Obj;
}

/** `{0: a, 1: b}` → `[a, b]`, all the way down. */
function arrays(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Obj).map(([k, v]) => [k, arrays(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function addInterval(seconds: number, interval: Interval): number {
  const d = new Date(seconds * 1000);
  const day = d.getUTCDate();
  if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  if (d.getUTCDate() !== day) d.setUTCDate(0);
  return Math.floor(d.getTime() / 1000);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface StripeDoubleOptions {
  /** Where signed events go (the server's `/api/webhooks/stripe`); settable later with `webhookUrl`. */
  webhookUrl?: string;
  /** The time the double lives in (epoch ms); the test clock of the server by default real time. */
  now?: () => number;
  /** Wait before delivering the events of a hosted page action, as Stripe's are asynchronous. */
  deliveryDelayMs?: number;
  prices?: { monthly?: Partial<PriceRecord>; yearly?: Partial<PriceRecord> };
}

/** A local Stripe. `mode = 'down'` answers every API call 500; 'unreachable' drops connections. */
export class StripeDouble {
  readonly prices = new Map<string, PriceRecord>();
  readonly customers = new Map<string, Obj>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  readonly schedules = new Map<string, ScheduleRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly portalSessions = new Map<string, { id: string; customer: string; return_url: string }>();
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  /** Every API call, `METHOD /path`, for asserting what the server asked Stripe. */
  readonly calls: string[] = [];
  mode: 'ok' | 'down' | 'unreachable' = 'ok';
  /** When false, hosted-page actions record events without sending them (`deliver` sends them). */
  autoDeliver = true;
  webhookUrl: string | undefined;
  url = '';
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly signer = new Stripe(SECRET_KEY);
  private readonly now: () => number;
  private readonly deliveryDelayMs: number;
  private pending: Promise<unknown>[] = [];

  constructor(options: StripeDoubleOptions = {}) {
    this.webhookUrl = options.webhookUrl;
    this.now = options.now ?? Date.now;
    this.deliveryDelayMs = options.deliveryDelayMs ?? 0;
    const price = (pid: string, amount: number, interval: Interval, extra?: Partial<PriceRecord>): PriceRecord => ({
      id: pid,
      object: 'price',
      active: true,
      currency: 'usd',
      unit_amount: amount,
      recurring: { interval, interval_count: 1, usage_type: 'licensed' },
      product: 'prod_linkwise_pro',
      type: 'recurring',
      livemode: false,
      ...extra,
    });
    this.prices.set(PRICE_MONTHLY, price(PRICE_MONTHLY, 490, 'month', options.prices?.monthly));
    this.prices.set(PRICE_YEARLY, price(PRICE_YEARLY, 4990, 'year', options.prices?.yearly));
  }

  /** The server's settings for this double. */
  env(): Record<string, string> {
    return {
      BILLING: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_MONTHLY: PRICE_MONTHLY,
      STRIPE_PRICE_YEARLY: PRICE_YEARLY,
      STRIPE_API_BASE: this.url,
    };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await this.settled();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Waits for deliveries in flight. */
  async settled(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      await Promise.allSettled(batch);
    }
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  // ── Webhooks ────────────────────────────────────────────────────────────────────────────────

  /** Records an event carrying a snapshot of `object` (as Stripe's events do). */
  emit(type: string, object: Obj): StripeEvent {
    const event: StripeEvent = {
      id: id('evt'),
      object: 'event',
      type,
      created: this.seconds(),
      api_version: Stripe.API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    };
    this.events.push(event);
    return event;
  }

  /** Sends an event signed as Stripe signs it (or with `secret`, to play a forger). */
  async deliver(event: StripeEvent, secret = WEBHOOK_SECRET): Promise<number> {
    if (!this.webhookUrl) throw new Error('the Stripe double has no webhook URL');
    const payload = JSON.stringify(event);
    const signature = this.signer.webhooks.generateTestHeaderString({ payload, secret });
    const response = await fetch(this.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    await response.arrayBuffer();
    this.deliveries.push({ event, status: response.status });
    return response.status;
  }

  private send(events: StripeEvent[]): void {
    if (!this.autoDeliver) return;
    const run = async () => {
      if (this.deliveryDelayMs) await new Promise((r) => setTimeout(r, this.deliveryDelayMs));
      for (const event of events) await this.deliver(event).catch(() => undefined);
    };
    this.pending.push(run());
  }

  // ── What happens at Stripe (the hosted pages, renewals, failed payments) ─────────────────

  /** The hosted checkout's Pay button: a subscription starts, and its events are sent. */
  completeCheckout(sessionId: string): { location: string; events: StripeEvent[] } {
    const session = this.sessions.get(sessionId);
    if (!session || session.status !== 'open') throw new Error(`checkout ${sessionId} is not open`);
    const price = this.prices.get(session.price);
    if (!price) throw missing('price', session.price);
    const now = this.seconds();
    const trialEnd = session.trialDays > 0 ? now + session.trialDays * 86_400 : null;
    const subId = id('sub');
    const sub: SubscriptionRecord = {
      id: subId,
      object: 'subscription',
      customer: session.customer,
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      created: now,
      start_date: now,
      trial_end: trialEnd,
      schedule: null,
      metadata: { ...session.metadata },
      livemode: false,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${subId}`,
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            subscription: subId,
            current_period_start: now,
            current_period_end: trialEnd ?? addInterval(now, price.recurring.interval),
          },
        ],
      },
    };
    this.subscriptions.set(subId, sub);
    Object.assign(session, {
      status: 'complete',
      payment_status: trialEnd ? 'no_payment_required' : 'paid',
      subscription: subId,
      url: null,
    });
    const events = [
      this.emit('customer.subscription.created', this.view(sub)),
      this.emit('checkout.session.completed', this.sessionView(session)),
      this.emit('invoice.paid', this.invoice(sub, trialEnd ? 0 : price.unit_amount)),
    ];
    this.send(events);
    return { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id), events };
  }

  /** The hosted checkout's back link: the session stays open, as on Stripe, until it expires. */
  cancelCheckout(sessionId: string): string {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no checkout ${sessionId}`);
    return session.cancel_url;
  }

  /** A renewal charge is declined: past_due, and the events Stripe sends for it. */
  failPayment(subId: string): StripeEvent[] {
    const sub = this.subscription(subId);
    sub.status = 'past_due';
    const events = [
      this.emit('invoice.payment_failed', this.invoice(sub, sub.items.data[0]?.price.unit_amount ?? 0, 'open')),
      this.emit('customer.subscription.updated', this.view(sub)),
    ];
    this.send(events);
    return events;
  }

  /** The period ends: renews (switching to a scheduled phase), or ends if cancellation was asked. */
  endPeriod(subId: string): StripeEvent[] {
    const sub = this.subscription(subId);
    const item = sub.items.data[0];
    if (!item) throw new Error('no item');
    if (sub.cancel_at_period_end) return this.end(subId);
    const schedule = sub.schedule ? this.schedules.get(sub.schedule) : undefined;
    const next = schedule?.phases.find((p) => p.start_date >= item.current_period_end);
    if (schedule && next?.items[0]) {
      item.price = this.price(next.items[0].price);
      schedule.status = 'released';
      schedule.current_phase = null;
      sub.schedule = null;
    }
    item.current_period_start = item.current_period_end;
    item.current_period_end = addInterval(item.current_period_start, item.price.recurring.interval);
    sub.status = 'active';
    sub.trial_end = null;
    const events = [
      this.emit('invoice.paid', this.invoice(sub, item.price.unit_amount)),
      this.emit('customer.subscription.updated', this.view(sub)),
    ];
    this.send(events);
    return events;
  }

  /** The subscription ends now (cancelled at period end, or deleted in the dashboard). */
  end(subId: string): StripeEvent[] {
    const sub = this.subscription(subId);
    sub.status = 'canceled';
    sub.ended_at = this.seconds();
    sub.canceled_at ??= this.seconds();
    const events = [this.emit('customer.subscription.deleted', this.view(sub))];
    this.send(events);
    return events;
  }

  /** The one subscription of a customer (tests have one each). */
  subscriptionOf(customer: string): SubscriptionRecord {
    const sub = [...this.subscriptions.values()].find((s) => s.customer === customer);
    if (!sub) throw new Error(`no subscription for ${customer}`);
    return sub;
  }

  private subscription(subId: string): SubscriptionRecord {
    const sub = this.subscriptions.get(subId);
    if (!sub) throw missing('subscription', subId);
    return sub;
  }

  private price(priceId: string): PriceRecord {
    const price = this.prices.get(priceId);
    if (!price) throw missing('price', priceId, 'price');
    return price;
  }

  private invoice(sub: SubscriptionRecord, amount: number, status = 'paid'): Obj {
    return {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: sub.items.data[0]?.price.currency ?? 'usd',
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
      livemode: false,
    };
  }

  private view(sub: SubscriptionRecord): Obj {
    return structuredClone(sub) as unknown as Obj;
  }

  private sessionView(session: SessionRecord): Obj {
    const { price: _price, trialDays: _trialDays, ...rest } = session;
    return structuredClone(rest);
  }

  // ── The API ─────────────────────────────────────────────────────────────────────────────────

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    try {
      if (url.pathname.startsWith('/v1/')) return this.api(req, res, url, body);
      return this.page(req, res, url, body);
    } catch (error) {
      if (error instanceof StripeFailure) return this.json(res, error.status, { error: error.body });
      return this.json(res, 500, { error: { type: 'api_error', message: String(error) } });
    }
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  private api(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    if (this.mode === 'unreachable') {
      req.socket.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    this.calls.push(`${method} ${url.pathname}`);
    if (this.mode === 'down') {
      return this.json(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
    }
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) {
      return this.json(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' },
      });
    }
    const params = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(body);
    const parts = url.pathname.split('/').slice(2);
    return this.json(res, 200, this.route(method, parts, params));
  }

  private route(method: string, parts: string[], p: Obj): unknown {
    // Namespaced resources (`checkout/sessions`, `billing_portal/sessions`) count as one.
    const [resource, rid, action] =
      parts[0] === 'checkout' || parts[0] === 'billing_portal' ? [`${parts[0]}/${parts[1]}`, ...parts.slice(2)] : parts;
    const key = `${method} ${resource}${rid ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (key) {
      case 'GET prices/:id':
        return this.price(rid ?? '');
      case 'POST customers': {
        const customer = {
          id: id('cus'),
          object: 'customer',
          email: str(p.email) ?? null,
          name: str(p.name) ?? null,
          metadata: p.metadata ?? {},
          livemode: false,
        };
        this.customers.set(customer.id, customer);
        return customer;
      }
      case 'DELETE customers/:id': {
        if (!this.customers.delete(rid ?? '')) throw missing('customer', rid ?? '');
        for (const sub of this.subscriptions.values())
          if (sub.customer === rid && sub.status !== 'canceled') this.end(sub.id);
        return { id: rid, object: 'customer', deleted: true };
      }
      case 'POST checkout/sessions':
        return this.createSession(p);
      case 'GET checkout/sessions/:id': {
        const session = this.sessions.get(rid ?? '');
        if (!session) throw missing('checkout.session', rid ?? '');
        return this.sessionView(session);
      }
      case 'POST billing_portal/sessions': {
        const customer = str(p.customer) ?? '';
        if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
        const session = { id: id('bps'), customer, return_url: str(p.return_url) ?? '' };
        this.portalSessions.set(session.id, session);
        return {
          ...session,
          object: 'billing_portal.session',
          url: `${this.url}/p/session/${session.id}`,
          livemode: false,
        };
      }
      case 'GET subscriptions': {
        const data = [...this.subscriptions.values()]
          .filter((s) => !p.customer || s.customer === p.customer)
          .filter((s) => p.status === 'all' || (p.status ? s.status === p.status : s.status !== 'canceled'))
          .sort((a, b) => b.created - a.created);
        return { object: 'list', data: data.map((s) => this.view(s)), has_more: false, url: '/v1/subscriptions' };
      }
      case 'GET subscriptions/:id':
        return this.view(this.subscription(rid ?? ''));
      case 'POST subscriptions/:id':
        return this.updateSubscription(this.subscription(rid ?? ''), p);
      case 'DELETE subscriptions/:id': {
        const sub = this.subscription(rid ?? '');
        this.end(sub.id);
        return this.view(sub);
      }
      case 'POST subscription_schedules':
        return this.createSchedule(str(p.from_subscription) ?? '');
      case 'GET subscription_schedules/:id':
        return this.schedule(rid ?? '');
      case 'POST subscription_schedules/:id':
        return this.updateSchedule(this.schedule(rid ?? ''), p);
      case 'POST subscription_schedules/:id/release': {
        const schedule = this.schedule(rid ?? '');
        schedule.status = 'released';
        schedule.current_phase = null;
        const sub = this.subscription(schedule.subscription);
        sub.schedule = null;
        this.send([this.emit('subscription_schedule.released', schedule as unknown as Obj)]);
        return schedule;
      }
      default:
        throw new StripeFailure(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: /v1/${parts.join('/')}).`,
        });
    }
  }

  private createSession(p: Obj): Obj {
    if (p.mode !== 'subscription')
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'Only subscription mode is supported here.',
        param: 'mode',
      });
    const customer = str(p.customer) ?? '';
    if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
    const lines = p.line_items as { price?: string; quantity?: string }[] | undefined;
    const price = this.price(lines?.[0]?.price ?? '');
    const data = (p.subscription_data ?? {}) as { trial_period_days?: string };
    for (const field of ['success_url', 'cancel_url'] as const) {
      if (!str(p[field]))
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: `Missing required param: ${field}.`,
          param: field,
        });
    }
    const session: SessionRecord = {
      id: `cs_test_${randomBytes(24).toString('hex')}`,
      object: 'checkout.session',
      mode: 'subscription',
      customer,
      client_reference_id: str(p.client_reference_id) ?? null,
      status: 'open',
      payment_status: 'unpaid',
      url: '',
      success_url: str(p.success_url) ?? '',
      cancel_url: str(p.cancel_url) ?? '',
      subscription: null,
      metadata: (p.metadata ?? {}) as Record<string, string>,
      livemode: false,
      price: price.id,
      trialDays: Number(data.trial_period_days ?? 0),
    };
    session.url = `${this.url}/c/pay/${session.id}`;
    this.sessions.set(session.id, session);
    return this.sessionView(session);
  }

  private updateSubscription(sub: SubscriptionRecord, p: Obj): Obj {
    if (sub.status === 'canceled') {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'A canceled subscription can only update its cancellation_details and metadata.',
      });
    }
    if (p.cancel_at_period_end !== undefined) {
      if (sub.schedule) {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        });
      }
      sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
      sub.canceled_at = sub.cancel_at_period_end ? this.seconds() : null;
    }
    const items = p.items as { id?: string; price?: string }[] | undefined;
    const change = items?.[0];
    if (change?.price) {
      const item = sub.items.data.find((i) => i.id === change.id);
      if (!item) throw missing('subscription_item', change.id ?? '', 'items[0][id]');
      const price = this.price(change.price);
      if (price.recurring.interval !== item.price.recurring.interval) {
        // Stripe resets the billing cycle when the interval changes, and invoices the prorated amount now.
        item.current_period_start = this.seconds();
        item.current_period_end = addInterval(item.current_period_start, price.recurring.interval);
      }
      item.price = price;
      sub.status = 'active';
      sub.trial_end = null;
    }
    this.send([this.emit('customer.subscription.updated', this.view(sub))]);
    return this.view(sub);
  }

  private schedule(sid: string): ScheduleRecord {
    const schedule = this.schedules.get(sid);
    if (!schedule) throw missing('subscription_schedule', sid);
    return schedule;
  }

  private createSchedule(subId: string): ScheduleRecord {
    const sub = this.subscription(subId);
    if (sub.schedule)
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: `Subscription ${subId} is already attached to a schedule.`,
      });
    const item = sub.items.data[0];
    if (!item) throw new Error('no item');
    const phase = { start_date: item.current_period_start, end_date: item.current_period_end };
    const schedule: ScheduleRecord = {
      id: id('sub_sched'),
      object: 'subscription_schedule',
      subscription: subId,
      customer: sub.customer,
      status: 'active',
      end_behavior: 'release',
      current_phase: phase,
      phases: [{ ...phase, items: [{ price: item.price.id, quantity: 1 }] }],
    };
    this.schedules.set(schedule.id, schedule);
    sub.schedule = schedule.id;
    return schedule;
  }

  private updateSchedule(schedule: ScheduleRecord, p: Obj): ScheduleRecord {
    const phases = (p.phases ?? []) as {
      start_date?: string;
      end_date?: string;
      items?: { price?: string; quantity?: string }[];
      duration?: { interval?: Interval };
    }[];
    let start = Number(phases[0]?.start_date ?? schedule.current_phase?.start_date ?? this.seconds());
    schedule.phases = phases.map((phase) => {
      const price = this.price(phase.items?.[0]?.price ?? '');
      const startDate = Number(phase.start_date ?? start);
      const end = phase.end_date
        ? Number(phase.end_date)
        : addInterval(startDate, phase.duration?.interval ?? price.recurring.interval);
      start = end;
      return {
        start_date: startDate,
        end_date: end,
        items: [{ price: price.id, quantity: Number(phase.items?.[0]?.quantity ?? 1) }],
      };
    });
    if (str(p.end_behavior)) schedule.end_behavior = str(p.end_behavior) ?? 'release';
    this.send([this.emit('subscription_schedule.updated', schedule as unknown as Obj)]);
    return schedule;
  }

  // ── Hosted pages ────────────────────────────────────────────────────────────────────────────

  private html(res: ServerResponse, status: number, title: string, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
button,a{font:inherit;margin:.25rem .25rem .25rem 0}</style></head>
<body><p role="note">Stripe test double: no card is charged.</p><main>${body}</main></body></html>`);
  }

  private redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { location });
    res.end();
  }

  private page(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    const checkout = /^\/c\/pay\/(cs_test_\w+)(\/complete)?$/.exec(url.pathname);
    if (checkout) {
      const session = this.sessions.get(checkout[1] ?? '');
      if (!session || session.status !== 'open')
        return this.html(res, 404, 'Expired', '<h1>This checkout session has expired</h1>');
      if (req.method === 'POST' && checkout[2]) return this.redirect(res, this.completeCheckout(session.id).location);
      const price = this.price(session.price);
      const amount = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: price.currency.toUpperCase(),
      }).format(price.unit_amount / 100);
      const plan = price.recurring.interval === 'year' ? 'Pro Yearly' : 'Pro Monthly';
      const trial =
        session.trialDays > 0
          ? `<p>${session.trialDays} days free, then ${amount} per ${price.recurring.interval}</p>`
          : '';
      return this.html(
        res,
        200,
        'Checkout',
        `<h1>Subscribe to ${plan}</h1><p class="amount">${amount} per ${price.recurring.interval}</p>${trial}
<form method="post" action="/c/pay/${session.id}/complete"><label>Card number <input name="card" value="4242 4242 4242 4242" autocomplete="off"></label>
<button type="submit">Subscribe</button></form><a href="${escapeHtml(session.cancel_url)}">Back</a>`,
      );
    }
    const portal = /^\/p\/session\/(bps_\w+)(?:\/(cancel|renew|switch-month|switch-year))?$/.exec(url.pathname);
    if (portal) {
      const session = this.portalSessions.get(portal[1] ?? '');
      if (!session) return this.html(res, 404, 'Expired', '<h1>This portal session has expired</h1>');
      const sub = [...this.subscriptions.values()]
        .filter((s) => s.customer === session.customer)
        .sort((a, b) => b.created - a.created)[0];
      if (req.method === 'POST' && portal[2] && sub) {
        void body;
        const item = sub.items.data[0];
        if (portal[2] === 'cancel') this.updateSubscription(sub, { cancel_at_period_end: 'true' });
        else if (portal[2] === 'renew') this.updateSubscription(sub, { cancel_at_period_end: 'false' });
        else if (item)
          this.updateSubscription(sub, {
            items: [{ id: item.id, price: portal[2] === 'switch-year' ? PRICE_YEARLY : PRICE_MONTHLY }],
          });
        return this.redirect(res, `/p/session/${session.id}`);
      }
      const item = sub?.items.data[0];
      const date = item ? new Date(item.current_period_end * 1000).toISOString().slice(0, 10) : '';
      const action = (name: string, label: string) =>
        `<form method="post" action="/p/session/${session.id}/${name}"><button type="submit">${label}</button></form>`;
      const actions =
        !sub || sub.status === 'canceled'
          ? ''
          : [
              sub.cancel_at_period_end ? action('renew', 'Renew plan') : action('cancel', 'Cancel plan'),
              item?.price.recurring.interval === 'month' ? action('switch-year', 'Switch to yearly') : '',
            ].join('');
      const state =
        !sub || sub.status === 'canceled'
          ? 'No active plan'
          : sub.cancel_at_period_end
            ? `Your plan will be canceled on ${date}`
            : `Your plan renews on ${date}`;
      return this.html(
        res,
        200,
        'Billing',
        `<h1>Current plan</h1><p class="state">${state}</p>${actions}<a href="${escapeHtml(session.return_url)}">Return to Linkwise</a>`,
      );
    }
    this.html(res, 404, 'Not found', '<h1>Not found</h1>');
  }
}
