// Stripe subscriptions in real Chromium, on http://localhost (the address the README gives; the
// server's APP_URL is left to its default): pricing → Stripe.js's redirect helper → the hosted
// checkout (the local Stripe double) → the success page, which waits for the webhook and shows the
// plan and next billing date → the Pro badge without signing in again → the Customer Portal from the
// profile → cancel → back on the profile, 'Expires:'. The server runs the official SDK against the
// double, which signs its webhooks as Stripe does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { StripeDouble } from '../apps/server/test/stripe-double.js';
import {
  openPage,
  registerUser,
  screenshot,
  signInBrowser,
  startServer,
  writeArtifact,
  type RunningServer,
} from './harness.js';

interface Context {
  browser: () => Browser;
}

/** What the browser gets for https://js.stripe.com: Stripe.js's redirect helper, sending the tab to the double. */
function stripeJsShim(doubleUrl: string): string {
  return `window.Stripe = function () {
  return {
    _registerWrapper: function () {},
    redirectToCheckout: function (options) {
      window.location.assign(${JSON.stringify(doubleUrl)} + '/c/pay/' + encodeURIComponent(options.sessionId));
      return new Promise(function () {});
    },
  };
};`;
}

export function stripeJourneys(ctx: Context): void {
  void describe('s. Stripe subscriptions on localhost', () => {
    let stripe: StripeDouble | undefined;
    let server: RunningServer | undefined;
    let base = '';

    before(async () => {
      // Webhooks land a moment after the payment, as Stripe's do: the success page must wait for them.
      stripe = await new StripeDouble({ deliveryDelayMs: 1200 }).start();
      server = await startServer({
        ...stripe.env(),
        STRIPE_PUBLISHABLE_KEY: 'pk_test_linkwise_double',
        OPERATOR_NAME: 'Linkwise',
        // Unset: the default must be the address people open, http://localhost:PORT.
        APP_URL: '',
      });
      stripe.webhookUrl = `${server.url}/api/webhooks/stripe`;
      base = server.url.replace('127.0.0.1', 'localhost');
    });

    after(async () => {
      if (server) writeArtifact('stripe-server.log', server.output());
      await stripe?.close();
      await server?.stop();
    });

    void it('pricing → checkout → success with plan and date → Pro badge → portal → cancel → Expires:', async () => {
      assert.ok(stripe && server);
      const double = stripe;
      const w = await openPage(ctx.browser());
      const { page, context } = w;
      let shimServed = 0;
      await context.route('https://js.stripe.com/**', (route) => {
        shimServed += 1;
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: stripeJsShim(double.url) });
      });
      try {
        const user = await registerUser(server.url, 'stripe');
        await signInBrowser(page, base, user);

        await page.goto(`${base}/pricing`);
        const yearly = page.getByRole('article', { name: 'Pro Yearly', exact: true });
        // The price on the card is the one Stripe charges (read from the double's price at start-up).
        await yearly.getByText('$49.90').waitFor();
        await yearly.getByRole('button', { name: 'Upgrade to Pro Yearly' }).click();

        // Stripe.js's helper sends the tab to the hosted checkout.
        await page.waitForURL((u) => u.href.startsWith(`${double.url}/c/pay/cs_test_`));
        assert.equal(shimServed, 1, 'Stripe.js was loaded once, for the checkout');
        await page.getByRole('heading', { name: 'Subscribe to Pro Yearly' }).waitFor();
        assert.match(await page.locator('.amount').innerText(), /\$49\.90 per year/);
        await screenshot(page, 's-stripe-checkout');
        await page.getByRole('button', { name: 'Subscribe' }).click();

        // Back on localhost, signed in: the success page waits for the webhook, then confirms.
        await page.waitForURL((u) => u.origin === base && u.pathname === '/subscription/success');
        assert.match(new URL(page.url()).searchParams.get('session_id') ?? '', /^cs_test_/);
        await page.getByText('Confirming your subscription...').waitFor();
        await page.getByRole('heading', { level: 1, name: 'Welcome to Pro!' }).waitFor({ timeout: 20_000 });
        const details = (await page.locator('dl').innerText()).replace(/\s+/g, ' ');
        assert.match(details, /Plan Pro Yearly/);
        const nextYear = new Date().getUTCFullYear() + 1;
        assert.match(details, new RegExp(`Next billing date \\w+ \\d{1,2}, ${nextYear}`));
        await screenshot(page, 's-stripe-success');

        // The navbar knows without signing out and in: Pro badge, and the menu's subscription label.
        await page.getByRole('link', { name: 'Start Adding Links' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard');
        const menu = page.getByRole('button', { name: /account menu/ });
        await menu.getByText('Pro', { exact: true }).waitFor();
        await menu.click();
        await page.getByRole('menuitem', { name: 'Manage Subscription' }).waitFor();
        await page.keyboard.press('Escape');

        // The profile's Manage button opens the Customer Portal in a new tab.
        await page.goto(`${base}/profile`);
        await page.getByText('Renews:').waitFor();
        const [portal] = await Promise.all([
          context.waitForEvent('page'),
          page.getByRole('button', { name: 'Manage' }).click(),
        ]);
        await portal.waitForURL((u) => u.href.startsWith(`${double.url}/p/session/bps_`));
        await portal.getByText(/Your plan renews on/).waitFor();
        await portal.getByRole('button', { name: 'Cancel plan' }).click();
        await portal.getByText(/Your plan will be canceled on/).waitFor();
        await screenshot(portal, 's-stripe-portal-canceled');
        await double.settled();

        // Return to Linkwise: the profile (same origin, still signed in) says when Pro expires.
        await portal.getByRole('link', { name: 'Return to Linkwise' }).click();
        await portal.waitForURL((u) => u.origin === base && u.pathname === '/profile');
        await portal.getByText('Expires:').waitFor();
        const status = await user.client.subscriptionStatus();
        assert.equal(status.status, 'active');
        assert.equal(status.cancelAtPeriodEnd, true);
        assert.equal(status.plan, 'yearly');
        await screenshot(portal, 's-stripe-profile-expires');
        assert.deepEqual(
          w.errors.filter((e) => !/Failed to load resource/.test(e)),
          [],
        );
      } finally {
        await screenshot(page, 's-stripe-last').catch(() => undefined);
        if (w.errors.length) writeArtifact('s-stripe.console.txt', w.errors.join('\n'));
        await w.close();
      }
    });
  });
}
