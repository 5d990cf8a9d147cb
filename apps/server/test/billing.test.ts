import { PlanSchema } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, startServer, type TestServer } from './harness.js';

const DAY = 86_400_000;

/** Presses the simulated checkout's Pay button the way the browser form does. */
async function pay(url: string) {
  const res = await fetch(`${url}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

describe.each(engines())('plans and simulated billing on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('publishes one plan table with configured prices', async () => {
    const plans = await server.api().subscriptionPlans();
    expect(plans.billing).toBe('simulated');
    const [free, monthly, yearly] = plans.data.map((p) => PlanSchema.strict().parse(p));
    expect(free).toMatchObject({ id: 'free', price: 0, linkLimit: 30, popular: false });
    expect(monthly).toMatchObject({
      id: 'monthly',
      name: 'Pro Monthly',
      price: 4.9,
      currency: 'USD',
      interval: 'month',
      linkLimit: null,
    });
    expect(yearly).toMatchObject({
      id: 'yearly',
      name: 'Pro Yearly',
      price: 49.9,
      monthlyEquivalent: 4.16,
      savingsPercent: 15,
      popular: true,
    });
    expect(yearly?.features).toContain('2 months free (15% savings)');
    expect(monthly?.priceYearly).toBe(58.8);
  });

  it('reports a new account as Free with the full allowance', async () => {
    const { api } = await server.signUp('free');
    expect(await api.subscriptionStatus()).toEqual({
      status: 'free',
      plan: null,
      scheduledPlan: null,
      endDate: null,
      isSubscribed: false,
      cancelAtPeriodEnd: false,
      hasUnlimitedLinks: false,
      linkLimit: 30,
      canAddLinks: true,
      totalLinks: 0,
      remainingLinks: 30,
    });
    await api.createLink({ body: { url: 'https://example.com/one' } });
    expect(await api.subscriptionUsage()).toEqual({
      totalLinks: 1,
      linkLimit: 30,
      hasUnlimitedLinks: false,
      canAddLinks: true,
    });
  });

  it('runs checkout → active → cancel → resume → switch plan → expiry', async () => {
    const { api } = await server.signUp('buyer');
    const start = server.clock.now();
    const checkout = await api.createCheckout({ body: { plan: 'yearly' } });
    expect(checkout.url).toBe(`${server.url}/billing/simulated/checkout/${checkout.sessionId}`);

    const page = await raw(server, 'GET', new URL(checkout.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('TEST MODE');
    expect(page.text).toContain('Upgrade to Pro Yearly');
    expect(page.text).toContain('$49.90');

    const paid = await pay(checkout.url);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${server.url}/subscription/success?session_id=${checkout.sessionId}`);

    const active = await api.subscriptionStatus();
    expect(active).toMatchObject({
      status: 'active',
      plan: 'yearly',
      isSubscribed: true,
      hasUnlimitedLinks: true,
      linkLimit: null,
      remainingLinks: null,
    });
    expect(Date.parse(active.endDate ?? '')).toBe(Date.UTC(2027, 10, 22, 12));
    expect((await api.me()).user).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionPlan: 'yearly',
      linkLimit: null,
    });

    // The Pay button cannot be pressed twice, and the page says so.
    const again = await pay(checkout.url);
    expect(again.status).toBe(410);
    expect(await server.database.db.selectFrom('payment_events').selectAll().execute()).toHaveLength(1);
    const second = await failure(api.createCheckout({ body: { plan: 'yearly' } }));
    expect([second.status, second.code]).toEqual([409, 'INVALID_STATE']);

    const canceled = await api.cancelSubscription();
    expect(canceled).toMatchObject({
      status: 'active',
      isSubscribed: true,
      cancelAtPeriodEnd: true,
      endDate: active.endDate,
    });
    const resumed = await api.resumeSubscription();
    expect(resumed).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    // A downgrade waits for the paid year to run out, and can be withdrawn.
    server.clock.advance(10 * DAY);
    const scheduled = await api.updatePlan({ body: { plan: 'monthly' } });
    expect(scheduled).toMatchObject({
      plan: 'yearly',
      scheduledPlan: 'monthly',
      endDate: active.endDate,
      isSubscribed: true,
    });
    expect(await api.updatePlan({ body: { plan: 'yearly' } })).toMatchObject({ plan: 'yearly', scheduledPlan: null });
    await api.updatePlan({ body: { plan: 'monthly' } });

    // The year runs out: monthly takes over and renews monthly from the old period end.
    // (Signed-in use keeps the token alive; it expires after 90 idle days.)
    for (let i = 0; i < 4; i++) {
      server.clock.advance(90 * DAY);
      await api.me();
    }
    const renewed = await api.subscriptionStatus();
    expect(renewed).toMatchObject({ status: 'active', plan: 'monthly', scheduledPlan: null });
    expect(Date.parse(renewed.endDate ?? '')).toBe(Date.UTC(2027, 11, 22, 12));

    // Cancelled and past the period end: back to the Free rules.
    await api.cancelSubscription();
    server.clock.advance(30 * DAY);
    const expired = await api.subscriptionStatus();
    expect(expired).toMatchObject({ status: 'canceled', isSubscribed: false, linkLimit: 30, hasUnlimitedLinks: false });
    expect((await api.me()).user.subscriptionStatus).toBe('canceled');
    expect(server.clock.now() - start).toBe(400 * DAY);
  });

  it('upgrades monthly to yearly at once and keeps a pending cancellation', async () => {
    const { api } = await server.signUp('upgrader');
    await pay((await api.createCheckout({ body: { plan: 'monthly' } })).url);
    await api.cancelSubscription();
    server.clock.advance(5 * DAY);
    const upgraded = await api.updatePlan({ body: { plan: 'yearly' } });
    expect(upgraded).toMatchObject({ plan: 'yearly', scheduledPlan: null, cancelAtPeriodEnd: true });
    const inAYear = new Date(server.clock.now());
    inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
    expect(upgraded.endDate).toBe(inAYear.toISOString());
  });

  it('renews a simulated subscription that was not cancelled', async () => {
    const { api } = await server.signUp('renewer');
    const { url } = await api.createCheckout({ body: { plan: 'monthly' } });
    await pay(url);
    server.clock.advance(45 * DAY);
    const status = await api.subscriptionStatus();
    expect(status).toMatchObject({ status: 'active', plan: 'monthly' });
    expect(Date.parse(status.endDate ?? '')).toBeGreaterThan(server.clock.now());
  });

  it('leaves the account Free when the checkout is cancelled or expires', async () => {
    const { api } = await server.signUp('undecided');
    const { url } = await api.createCheckout({ body: { plan: 'monthly' } });
    const res = await fetch(`${url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([303, `${server.url}/subscription/cancel`]);
    expect((await api.subscriptionStatus()).status).toBe('free');
    expect((await pay(url)).status).toBe(410);

    // Cancel in a stale tab after paying must not claim the payment was cancelled.
    const paidFirst = await api.createCheckout({ body: { plan: 'monthly' } });
    await pay(paidFirst.url);
    const stale = await fetch(`${paidFirst.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(stale.status).toBe(410);
    expect((await api.subscriptionStatus()).status).toBe('active');

    const other = await server.signUp('late');
    const late = await other.api.createCheckout({ body: { plan: 'monthly' } });
    server.clock.advance(2 * 60 * 60 * 1000);
    expect((await raw(server, 'GET', new URL(late.url).pathname)).status).toBe(410);
    expect((await pay(late.url)).status).toBe(410);
    expect((await other.api.subscriptionStatus()).status).toBe('free');
  });

  it('validates plan choices and state', async () => {
    const { api } = await server.signUp('picky');
    const bad = await failure(api.createCheckout({ body: { plan: 'weekly' as 'monthly' } }));
    expect([bad.status, bad.details]).toEqual([400, { fields: { plan: 'Plan must be monthly or yearly' } }]);
    for (const call of [() => api.cancelSubscription(), () => api.resumeSubscription(), () => api.createPortal()]) {
      const e = await failure(call());
      expect([e.status, e.code]).toEqual([409, 'INVALID_STATE']);
    }
    const anonymous = await failure(server.api().createCheckout({ body: { plan: 'monthly' } }));
    expect(anonymous.status).toBe(401);
    expect((await raw(server, 'GET', '/billing/simulated/checkout/cs_nope')).status).toBe(410);
  });

  it('manages the subscription from the simulated portal', async () => {
    const { api } = await server.signUp('portal');
    await pay((await api.createCheckout({ body: { plan: 'monthly' } })).url);
    const { url } = await api.createPortal();
    const page = await raw(server, 'GET', new URL(url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Cancel at end of period');
    const cancel = await fetch(`${url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.status).toBe(303);
    expect((await api.subscriptionStatus()).cancelAtPeriodEnd).toBe(true);
    expect((await raw(server, 'GET', new URL(url).pathname)).text).toContain('Resume subscription');
  });
});

describe.each(engines())('billing off on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { BILLING: 'off', FREE_LINK_LIMIT: '1' });
  });
  afterAll(() => server.close());

  it('gives everyone unlimited links and no checkout', async () => {
    const { api } = await server.signUp('selfhost');
    await api.createLink({ body: { url: 'https://a.example' } });
    await api.createLink({ body: { url: 'https://b.example' } });
    expect(await api.subscriptionStatus()).toMatchObject({
      status: 'free',
      linkLimit: null,
      hasUnlimitedLinks: true,
      canAddLinks: true,
    });
    expect((await api.me()).user.linkLimit).toBeNull();
    const e = await failure(api.createCheckout({ body: { plan: 'monthly' } }));
    expect([e.status, e.code]).toEqual([404, 'BILLING_DISABLED']);
    expect((await server.api().subscriptionPlans()).billing).toBe('off');
  });
});
