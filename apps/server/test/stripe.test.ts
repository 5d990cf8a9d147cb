// BILLING=stripe end to end on both engines: the official SDK against a local Stripe double that
// speaks Stripe's wire and error format, webhooks signed with the SDK's test header and verified with
// constructEvent exactly as in production, processed once through the `stripe-event` job.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BillingService } from '../src/modules/billing/billing.service.js';
import { buildPlans } from '../src/modules/billing/plans.js';
import { StripePaymentProvider } from '../src/modules/billing/stripe-provider.js';
import { SubscriptionRepository } from '../src/modules/billing/subscription.repository.js';
import {
  engines,
  failure,
  raw,
  startServer,
  TestClock as TestClockOf,
  type TestClock,
  type TestServer,
} from './harness.js';
import {
  PRICE_MONTHLY,
  PRICE_YEARLY,
  SECRET_KEY,
  StripeDouble,
  WEBHOOK_SECRET,
  type StripeEvent,
} from './stripe-double.js';

const DAY = 86_400_000;
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The real entry point from its sources; resolves with its exit code and what it printed on stderr. */
function runMain(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-stripe-start-'));
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@linkwise/source', '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
      { cwd: root, env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: dataDir, MODEL_DOWNLOAD: 'false', ...env } },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stderr });
    });
  });
}

/** Waits until `check` passes: webhooks and their job land a moment after the action that caused them. */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe.each(engines())('Stripe subscriptions on %s', (engine) => {
  let server: TestServer;
  let stripe: StripeDouble;
  let clock: TestClock | undefined;

  beforeAll(async () => {
    stripe = await new StripeDouble({ now: () => clock?.now() ?? Date.now() }).start();
    server = await startServer(engine, { ...stripe.env(), JOBS_ENABLED: 'true' });
    clock = server.clock;
    stripe.webhookUrl = `${server.url}/api/webhooks/stripe`;
  });
  afterAll(async () => {
    await stripe?.close();
    await server?.close();
  });
  afterEach(async () => {
    stripe.mode = 'ok';
    stripe.autoDeliver = true;
    await stripe.settled();
  });

  const stripeJobs = () =>
    server.database.db.selectFrom('jobs').select(['status', 'attempts']).where('type', '=', 'stripe-event').execute();
  const customerOf = async (userId: string) =>
    (
      await server.database.db
        .selectFrom('billing_customers')
        .select('customer_id')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).customer_id;

  /** Signs up and pays for `plan` on the hosted checkout; resolves once the webhooks made the user Pro. */
  async function subscribed(plan: 'monthly' | 'yearly' = 'monthly') {
    const user = await server.signUp(`stripe-${plan}`);
    const checkout = await user.api.createCheckout({ body: { plan } });
    const { location } = stripe.completeCheckout(checkout.sessionId ?? '');
    await eventually(async () => expect((await user.api.subscriptionStatus()).status).toBe('active'));
    const customer = await customerOf(user.userId);
    return { ...user, checkout, location, customer, sub: stripe.subscriptionOf(customer) };
  }

  it('shows the prices Stripe charges on every screen', async () => {
    const plans = await server.api().subscriptionPlans();
    expect(plans.billing).toBe('stripe');
    expect(plans.data.map((p) => [p.id, p.price, p.currency, p.interval])).toEqual([
      ['free', 0, 'USD', 'forever'],
      ['monthly', 4.9, 'USD', 'month'],
      ['yearly', 49.9, 'USD', 'year'],
    ]);
    expect(stripe.calls).toContain(`GET /v1/prices/${PRICE_MONTHLY}`);
    expect(await server.api().appConfig()).toMatchObject({
      billing: 'stripe',
      trialDays: 0,
      stripePublishableKey: null,
    });
    const csp = (await raw(server, 'GET', '/api/config')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
  });

  it('checkout → signed checkout.session.completed → active, with the return addresses built from APP_URL', async () => {
    const { api, userId } = await server.signUp('checkout');
    const checkout = await api.createCheckout({ body: { plan: 'yearly' } });
    expect(checkout.sessionId).toMatch(/^cs_test_/);
    expect(checkout.url).toBe(`${stripe.url}/c/pay/${checkout.sessionId}`);
    const session = stripe.sessions.get(checkout.sessionId ?? '');
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: userId,
      price: PRICE_YEARLY,
      success_url: `${server.config.appUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.config.appUrl}/subscription/cancel`,
      trialDays: 0,
    });
    // One customer per user, made before the checkout and reused by the next one.
    const customer = await customerOf(userId);
    expect(session?.customer).toBe(customer);
    expect(stripe.customers.get(customer)).toMatchObject({ metadata: { userId } });
    expect((await api.subscriptionStatus()).status).toBe('free');

    stripe.autoDeliver = false;
    const { location, events } = stripe.completeCheckout(checkout.sessionId ?? '');
    expect(location).toBe(`${server.config.appUrl}/subscription/success?session_id=${checkout.sessionId}`);
    // Paid at Stripe, but nothing changes here until Stripe says so.
    expect((await api.subscriptionStatus()).status).toBe('free');
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    expect(completed && (await stripe.deliver(completed))).toBe(200);
    const active = await eventually(async () => {
      const s = await api.subscriptionStatus();
      expect(s.status).toBe('active');
      return s;
    });
    const periodEnd = (stripe.subscriptionOf(customer).items.data[0]?.current_period_end ?? 0) * 1000;
    expect(active).toMatchObject({
      plan: 'yearly',
      isSubscribed: true,
      hasUnlimitedLinks: true,
      cancelAtPeriodEnd: false,
      endDate: new Date(periodEnd).toISOString(),
    });
    expect((await api.me()).user).toMatchObject({ subscriptionStatus: 'active', subscriptionPlan: 'yearly' });

    // A second checkout is refused: the user is Pro (and even before the webhook, Stripe says so).
    const again = await failure(api.createCheckout({ body: { plan: 'monthly' } }));
    expect([again.status, again.code]).toEqual([409, 'INVALID_STATE']);
    expect(
      [...stripe.customers.values()].filter((c) => (c.metadata as { userId?: string }).userId === userId),
    ).toHaveLength(1);
  });

  it('a duplicate delivery changes nothing and queues nothing', async () => {
    const { api, customer } = await subscribed('monthly');
    await stripe.settled();
    await eventually(async () => expect((await stripeJobs()).every((j) => j.status === 'done')).toBe(true));
    const before = { jobs: (await stripeJobs()).length, status: await api.subscriptionStatus() };
    const completed = stripe.events.find(
      (e) => e.type === 'checkout.session.completed' && e.data.object.customer === customer,
    ) as StripeEvent;
    expect(await stripe.deliver(completed)).toBe(200);
    expect(await stripe.deliver(completed)).toBe(200);
    expect((await stripeJobs()).length).toBe(before.jobs);
    expect(await api.subscriptionStatus()).toEqual(before.status);
    const ledger = await server.database.db
      .selectFrom('payment_events')
      .select('id')
      .where('id', '=', completed.id)
      .execute();
    expect(ledger).toHaveLength(1);
  });

  it('applies what Stripe holds now when events arrive out of order', async () => {
    const { api, sub } = await subscribed('monthly');
    await stripe.settled();
    stripe.autoDeliver = false;
    // Cancelled, then resumed, at Stripe (say, in the portal); the events come newest first.
    await api.cancelSubscription();
    const canceledEvent = stripe.events.at(-1) as StripeEvent;
    expect(canceledEvent.data.object).toMatchObject({ cancel_at_period_end: true });
    await api.resumeSubscription();
    const resumedEvent = stripe.events.at(-1) as StripeEvent;
    expect(await stripe.deliver(resumedEvent)).toBe(200);
    expect(await stripe.deliver(canceledEvent)).toBe(200);
    await eventually(async () => expect((await stripeJobs()).every((j) => j.status === 'done')).toBe(true));
    expect(await api.subscriptionStatus()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(stripe.subscriptions.get(sub.id)?.cancel_at_period_end).toBe(false);

    // A subscription.created that arrives after the payment failed does not make the user active again.
    const created = stripe.events.find(
      (e) => e.type === 'customer.subscription.created' && e.data.object.id === sub.id,
    );
    stripe.failPayment(sub.id);
    await stripe.deliver(stripe.events.at(-1) as StripeEvent);
    await eventually(async () => expect((await api.subscriptionStatus()).status).toBe('past_due'));
    expect(created && (await stripe.deliver(created))).toBe(200);
    await eventually(async () => expect((await stripeJobs()).every((j) => j.status === 'done')).toBe(true));
    expect((await api.subscriptionStatus()).status).toBe('past_due');
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { api, userId } = await server.signUp('forged');
    await api.createLink({ body: { url: 'http://127.0.0.1:1/forged' } });
    const customer = 'cus_forged';
    const jobsBefore = (await stripeJobs()).length;
    const forged = stripe.emit('checkout.session.completed', {
      id: 'cs_test_forged',
      object: 'checkout.session',
      customer,
      client_reference_id: userId,
    });
    expect(await stripe.deliver(forged, 'whsec_not_the_secret')).toBe(400);
    const unsigned = await raw(server, 'POST', '/api/webhooks/stripe', { body: JSON.stringify(forged) });
    expect(unsigned.status).toBe(400);
    expect(unsigned.json()).toEqual({ error: 'Invalid Stripe webhook signature.', code: 'VALIDATION_ERROR' });
    // A valid signature over other bytes: one changed character in the body.
    const payload = JSON.stringify(forged);
    const header = stripe.deliveries.length; // keep the count for the assertion below
    const signature = new (await import('stripe')).default(SECRET_KEY).webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
    });
    const tampered = await raw(server, 'POST', '/api/webhooks/stripe', {
      body: payload.replace('forged', 'f0rged'),
      headers: { 'stripe-signature': signature },
    });
    expect(tampered.status).toBe(400);
    expect(stripe.deliveries.length).toBe(header);
    expect((await stripeJobs()).length).toBe(jobsBefore);
    const ledger = await server.database.db
      .selectFrom('payment_events')
      .select('id')
      .where('id', '=', forged.id)
      .execute();
    expect(ledger).toEqual([]);
    expect((await api.subscriptionStatus()).status).toBe('free');
  });

  it('invoice.payment_failed → past_due, which counts as Free for limits', async () => {
    const { api, sub } = await subscribed('monthly');
    await stripe.settled();
    const [failed] = stripe.failPayment(sub.id);
    expect(failed?.type).toBe('invoice.payment_failed');
    const status = await eventually(async () => {
      const s = await api.subscriptionStatus();
      expect(s.status).toBe('past_due');
      return s;
    });
    expect(status).toMatchObject({ isSubscribed: false, linkLimit: 30, hasUnlimitedLinks: false, plan: 'monthly' });
  });

  it('deletion → Free: every link kept, the first 30 by creation date viewable', async () => {
    const { api, sub } = await subscribed('monthly');
    for (let i = 0; i < 33; i++) {
      server.clock.advance(1000);
      await api.createLink({ body: { url: `http://127.0.0.1:1/link-${i}`, title: `Link ${i}` } });
    }
    await stripe.settled();
    stripe.end(sub.id);
    await eventually(async () => expect((await api.subscriptionStatus()).status).toBe('free'));
    expect(await api.subscriptionStatus()).toMatchObject({
      plan: null,
      endDate: null,
      isSubscribed: false,
      canAddLinks: false,
      totalLinks: 33,
      linkLimit: 30,
    });
    const list = await api.listLinks({ query: { sortBy: 'oldest', limit: 100 } });
    expect([list.total, list.actualTotal]).toEqual([30, 33]);
    const viewable = list.data.map((l) => Number(l.title.replace('Link ', ''))).sort((a, b) => a - b);
    expect(viewable).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const over = await failure(api.createLink({ body: { url: 'http://127.0.0.1:1/one-more' } }));
    expect(over.code).toBe('LINK_LIMIT_REACHED');
  });

  it('opens the Customer Portal for the customer, returning to APP_URL/profile', async () => {
    const free = await server.signUp('no-portal');
    const none = await failure(free.api.createPortal());
    expect([none.status, none.code]).toEqual([409, 'INVALID_STATE']);

    const { api, customer } = await subscribed('monthly');
    const { url } = await api.createPortal();
    expect(url).toMatch(new RegExp(`^${stripe.url}/p/session/bps_`));
    const session = [...stripe.portalSessions.values()].at(-1);
    expect(session).toMatchObject({ customer, return_url: `${server.config.appUrl}/profile` });
  });

  it('cancels at period end, resumes, upgrades at once and downgrades at period end', async () => {
    const { api, sub } = await subscribed('monthly');
    const monthlyEnd = (await api.subscriptionStatus()).endDate;

    const canceled = await api.cancelSubscription();
    expect(canceled).toMatchObject({
      status: 'active',
      isSubscribed: true,
      cancelAtPeriodEnd: true,
      endDate: monthlyEnd,
    });
    expect(stripe.subscriptions.get(sub.id)?.cancel_at_period_end).toBe(true);
    expect(await api.resumeSubscription()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    // Upgrade: yearly now, a new yearly period (Stripe resets the cycle and prorates).
    server.clock.advance(5 * DAY);
    const yearly = await api.updatePlan({ body: { plan: 'yearly' } });
    expect(yearly).toMatchObject({ plan: 'yearly', scheduledPlan: null, status: 'active' });
    expect(Date.parse(yearly.endDate ?? '')).toBeGreaterThan(server.clock.now() + 360 * DAY);
    expect(stripe.subscriptions.get(sub.id)?.items.data[0]?.price.id).toBe(PRICE_YEARLY);

    // Downgrade: waits for the paid year in a schedule; asking for yearly again withdraws it.
    const scheduled = await api.updatePlan({ body: { plan: 'monthly' } });
    expect(scheduled).toMatchObject({ plan: 'yearly', scheduledPlan: 'monthly', endDate: yearly.endDate });
    expect(stripe.subscriptions.get(sub.id)?.schedule).toMatch(/^sub_sched_/);
    expect(await api.updatePlan({ body: { plan: 'yearly' } })).toMatchObject({ plan: 'yearly', scheduledPlan: null });
    expect(stripe.subscriptions.get(sub.id)?.schedule).toBeNull();
    await api.updatePlan({ body: { plan: 'monthly' } });

    // The year ends at Stripe: the schedule's monthly phase takes over, and the webhook says so.
    stripe.endPeriod(sub.id);
    await eventually(async () => expect((await api.subscriptionStatus()).plan).toBe('monthly'));
    expect(await api.subscriptionStatus()).toMatchObject({ status: 'active', scheduledPlan: null });

    // Cancelling while a downgrade waits drops the downgrade: the subscription ends at period end.
    await api.updatePlan({ body: { plan: 'yearly' } });
    await api.updatePlan({ body: { plan: 'monthly' } });
    expect(await api.cancelSubscription()).toMatchObject({ cancelAtPeriodEnd: true, scheduledPlan: null });
  });

  it('says the spec’s message when Stripe is down, and marks nothing paid', async () => {
    const { api } = await server.signUp('down');
    stripe.mode = 'down';
    const checkout = await failure(api.createCheckout({ body: { plan: 'monthly' } }));
    expect([checkout.status, checkout.code, checkout.message]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      'Failed to create checkout session. Please try again.',
    ]);
    stripe.mode = 'unreachable';
    const again = await failure(api.createCheckout({ body: { plan: 'monthly' } }));
    expect(again.message).toBe('Failed to create checkout session. Please try again.');
    stripe.mode = 'ok';
    expect((await api.subscriptionStatus()).status).toBe('free');

    const pro = await subscribed('monthly');
    stripe.mode = 'down';
    const portal = await failure(pro.api.createPortal());
    expect([portal.status, portal.message]).toEqual([503, 'Failed to open subscription management. Please try again.']);
    const cancel = await failure(pro.api.cancelSubscription());
    expect([cancel.status, cancel.message]).toEqual([503, 'Payment system error. Please try again later.']);
    stripe.mode = 'ok';
    expect(await pro.api.subscriptionStatus()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });

  it('retries an event while Stripe cannot be read, then applies it', async () => {
    const { api, checkout } = await server.signUp('retry').then(async (u) => ({
      ...u,
      checkout: await u.api.createCheckout({ body: { plan: 'monthly' } }),
    }));
    stripe.autoDeliver = false;
    const { events } = stripe.completeCheckout(checkout.sessionId ?? '');
    stripe.mode = 'down';
    await stripe.deliver(events[1] as StripeEvent);
    await eventually(async () => {
      const job = (await stripeJobs()).find((j) => j.status === 'queued' && j.attempts === 1);
      expect(job).toBeDefined();
    });
    expect((await api.subscriptionStatus()).status).toBe('free');
    stripe.mode = 'ok';
    // The second attempt (due 2 s later on the server's clock) reads Stripe again and applies what it holds.
    server.clock.advance(5000);
    await eventually(async () => expect((await api.subscriptionStatus()).status).toBe('active'), 15_000);
  });

  it('never lets a state read earlier overwrite one read later (two jobs for one customer finishing out of order)', async () => {
    const { userId, customer, api } = await subscribed('monthly');
    await stripe.settled();
    const repo = new SubscriptionRepository(server.database.db);
    const provider = new StripePaymentProvider(
      {
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        prices: { monthly: PRICE_MONTHLY, yearly: PRICE_YEARLY },
        appUrl: server.config.appUrl,
        trialDays: 0,
        apiBase: stripe.url,
      },
      repo,
    );
    const jobClock = new TestClockOf(server.clock.now() + 60_000);
    const billing = new BillingService({
      subscriptions: repo,
      countLinks: () => Promise.resolve(0),
      provider,
      remote: provider,
      mode: 'stripe',
      freeLinkLimit: 30,
      plans: buildPlans({ monthly: 4.9, yearly: 49.9, currency: 'USD', freeLinkLimit: 30 }),
      clock: jobClock,
    });
    // A job that read Stripe a minute from now applied "cancelling"...
    const current = (await repo.find(userId))!;
    await billing.applyProviderEvent({
      eventId: `evt_later_${userId}`,
      type: 'customer.subscription.updated',
      provider: 'stripe',
      userId,
      status: 'active',
      plan: 'monthly',
      scheduledPlan: null,
      currentPeriodEnd: current.current_period_end,
      cancelAtPeriodEnd: true,
      customerId: customer,
      subscriptionId: current.provider_subscription_id,
    });
    // ...and a job whose read started earlier finishes after it: its older state is dropped.
    jobClock.current -= 30_000;
    await billing.syncStripeCustomer(customer, null);
    expect((await api.subscriptionStatus()).cancelAtPeriodEnd).toBe(true);
    // A later read applies again.
    jobClock.current += 60_000;
    await billing.syncStripeCustomer(customer, null);
    expect((await api.subscriptionStatus()).cancelAtPeriodEnd).toBe(false);
  });

  it('closes the customer for account deletion: subscription ended at once, customer deleted, rows forgotten', async () => {
    const { userId, customer, sub } = await subscribed('yearly');
    const repo = new SubscriptionRepository(server.database.db);
    const provider = new StripePaymentProvider(
      {
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        prices: { monthly: PRICE_MONTHLY, yearly: PRICE_YEARLY },
        appUrl: server.config.appUrl,
        trialDays: 0,
        apiBase: stripe.url,
      },
      repo,
    );
    const billing = new BillingService({
      subscriptions: repo,
      countLinks: () => Promise.resolve(0),
      provider,
      remote: provider,
      mode: 'stripe',
      freeLinkLimit: 30,
      plans: buildPlans({ monthly: 4.9, yearly: 49.9, currency: 'USD', freeLinkLimit: 30 }),
      clock: server.clock,
    });
    await billing.forgetCustomer(userId);
    expect(stripe.subscriptions.get(sub.id)?.status).toBe('canceled');
    expect(stripe.customers.has(customer)).toBe(false);
    expect(await repo.findCustomer(userId)).toBeUndefined();
    expect(await repo.find(userId)).toBeUndefined();
    // Asked again (a retried deletion): nothing left, no error.
    await billing.forgetCustomer(userId);
  });
});

describe('Stripe start-up and trials', () => {
  let stripe: StripeDouble;
  beforeAll(async () => {
    stripe = await new StripeDouble().start();
  });
  afterAll(() => stripe.close());

  it('stops at start-up with one line when a price is missing or not what the plan needs', async () => {
    await expect(startServer('sqlite', { ...stripe.env(), STRIPE_PRICE_MONTHLY: 'price_nope' })).rejects.toThrow(
      "Invalid configuration: STRIPE_PRICE_MONTHLY price_nope could not be read from Stripe: No such price: 'price_nope'",
    );
    await expect(startServer('sqlite', { ...stripe.env(), STRIPE_PRICE_MONTHLY: PRICE_YEARLY })).rejects.toThrow(
      `Invalid configuration: STRIPE_PRICE_MONTHLY ${PRICE_YEARLY} must be a recurring price billed every month`,
    );
    stripe.mode = 'down';
    await expect(startServer('sqlite', stripe.env())).rejects.toThrow(
      /^Invalid configuration: STRIPE_PRICE_MONTHLY price_linkwise_monthly could not be read from Stripe/,
    );
    stripe.mode = 'ok';
  });

  it('the server process stops with one line naming what is missing or wrong', async () => {
    const missing = await runMain({ BILLING: 'stripe', STRIPE_SECRET_KEY: 'sk_test_hunter2' });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET is required when BILLING=stripe (also missing: STRIPE_PRICE_MONTHLY, STRIPE_PRICE_YEARLY)',
    );
    expect(missing.stderr).not.toContain('hunter2');
    const unknown = await runMain({ ...stripe.env(), STRIPE_PRICE_YEARLY: 'price_gone' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      "Invalid configuration: STRIPE_PRICE_YEARLY price_gone could not be read from Stripe: No such price: 'price_gone'",
    );
  });

  it('with TRIAL_DAYS, a first checkout starts a trial with the card asked up front, and says so', async () => {
    const server = await startServer('sqlite', {
      ...stripe.env(),
      TRIAL_DAYS: '14',
      JOBS_ENABLED: 'true',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_linkwise',
    });
    try {
      stripe.webhookUrl = `${server.url}/api/webhooks/stripe`;
      expect(await server.api().appConfig()).toMatchObject({ trialDays: 14, stripePublishableKey: 'pk_test_linkwise' });
      // Stripe.js may load (for its redirect helper) only where it is configured.
      const csp = (await raw(server, 'GET', '/api/config')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' https://js.stripe.com");
      const { api } = await server.signUp('trial');
      const checkout = await api.createCheckout({ body: { plan: 'monthly' } });
      expect(stripe.sessions.get(checkout.sessionId ?? '')?.trialDays).toBe(14);
      stripe.completeCheckout(checkout.sessionId ?? '');
      const status = await eventually(async () => {
        const s = await api.subscriptionStatus();
        expect(s.status).toBe('active');
        return s;
      });
      const trialEnd = Date.parse(status.endDate ?? '');
      expect(Math.round((trialEnd - Date.now()) / DAY)).toBe(14);
    } finally {
      await stripe.settled();
      await server.close();
    }
  });
});
