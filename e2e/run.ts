// Browser end-to-end suite: the real built server (`node apps/server/dist/main.js`) and real
// Chromium. Run from the repository root after `npm run build`:
//   node --conditions=@linkwise/source --import tsx e2e/run.ts
// Screenshots and the server log land in e2e/artifacts/ (git-ignored).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  CHROMIUM,
  SERVER_MAIN,
  WEB_INDEX,
  launchBrowser,
  openPage,
  registerUser,
  resetArtifacts,
  screenshot,
  startServer,
  writeArtifact,
  api,
  type RunningServer,
  type WatchedPage,
} from './harness.js';
import { securityJourneys } from './security-journey.js';
import { importJourneys } from './import-journey.js';
import { stripeJourneys } from './stripe-journey.js';
import { extensionJourneys } from './extension-journey.js';
import { libraryJourneys } from './library-journey.js';
import { vaultJourneys } from './vault-journey.js';
import { WEB_ENV, webJourneys } from './web-journeys.js';

const CI = process.env.CI === 'true';
const WATCHDOG_MS = 8 * 60_000;

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED e2e browser suite: /usr/bin/chromium not found (apt-get install -y chromium)');
  process.exit(CI ? 1 : 0);
}
for (const built of [SERVER_MAIN, WEB_INDEX]) {
  if (!existsSync(built)) {
    console.error(`e2e browser suite: ${built} is missing; run \`npm run build\` at the repository root first.`);
    process.exit(1);
  }
}

let server: RunningServer | undefined;
let browser: Browser | undefined;

const killServer = () => server?.kill();

// A hung run is killed as a whole. process.exit also makes playwright-core kill the Chromium
// process group it launched (its exit handler), so nothing is left behind.
const watchdog = setTimeout(() => {
  console.error(`E2E WATCHDOG: the browser suite ran for more than ${WATCHDOG_MS / 1000} s; killing it.`);
  killServer();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();
process.once('exit', killServer);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killServer();
    process.exit(1);
  });
}

const baseUrl = () => {
  assert.ok(server, 'the server is running');
  return server.url;
};

/**
 * One journey in a fresh browser context. A screenshot is saved whether it passes or fails, and
 * collected console errors are written next to it.
 */
async function journey(
  name: string,
  run: (w: WatchedPage) => Promise<void>,
  viewport?: { width: number; height: number },
): Promise<void> {
  assert.ok(browser, 'Chromium is running');
  const watched = await openPage(browser, viewport);
  try {
    await run(watched);
  } finally {
    await screenshot(watched.page, name).catch(() => undefined);
    if (watched.errors.length) writeArtifact(`${name}.console.txt`, watched.errors.join('\n'));
    await watched.close();
  }
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/** The simulated 410 page logs one "Failed to load resource" line; anything else is a real error. */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 410/.test(e));

/** The web app answered this client-side route with the screen that belongs there. */
async function assertSpaServed(page: Page, heading: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Shared between journeys b and d: the user who paid for Pro Yearly. */
let proUser: Awaited<ReturnType<typeof registerUser>> | undefined;

void describe('Linkwise in Chromium', () => {
  before(async () => {
    resetArtifacts();
    server = await startServer(WEB_ENV);
    browser = await launchBrowser();
  });

  after(async () => {
    if (server) writeArtifact('server.log', server.output());
    await browser?.close().catch(() => undefined);
    await server?.stop();
    clearTimeout(watchdog);
  });

  // a. The web app's journeys (landing, auth, dashboard, dialogs, billing, profile, static pages).
  webJourneys({
    baseUrl,
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
  });

  // g. The credential vault, on this server (SQLite) and on a fresh PostgreSQL database.
  vaultJourneys({
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
    server: () => {
      assert.ok(server, 'the server is running');
      return server;
    },
  });

  // h. Account security: two-factor sign-in, password reset by email, account deletion.
  securityJourneys({
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
  });

  // i. Import a browser export through the screen, search it, export from Profile.
  importJourneys({
    baseUrl,
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
  });

  // s. Stripe subscriptions (the SDK against a local Stripe double), on localhost.
  stripeJourneys({
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
  });

  // h–j. The browser extension: Chromium headless, a real key press under Xvfb, Firefox ESR.
  extensionJourneys();

  // l. The library as a daily tool (its own server: several links, billing off).
  libraryJourneys({
    browser: () => {
      assert.ok(browser, 'Chromium is running');
      return browser;
    },
  });

  void describe('b. simulated checkout, paid', () => {
    void it('pays with the keyboard, lands on /subscription/success and activates Pro Yearly', async () => {
      await journey('b-checkout-paid', async ({ page, errors }) => {
        const user = await registerUser(baseUrl(), 'paid');
        const checkout = await user.client.createCheckout({ body: { plan: 'yearly' } });
        assert.ok(checkout.url.startsWith(`${baseUrl()}/billing/simulated/checkout/cs_`), checkout.url);

        const response = await page.goto(checkout.url);
        assert.equal(response?.status(), 200);
        assert.match(await textOf(page.getByRole('note')), /TEST MODE/);
        await page.getByRole('heading', { name: 'Upgrade to Pro Yearly' }).waitFor();
        const pay = page.getByRole('button', { name: /^Pay .+ \(test\)$/ });
        assert.match(await textOf(pay), /^Pay \$49\.90 \(test\)$/);
        // The Pay button has autofocus: Enter alone pays.
        assert.match(await textOf(page.locator(':focus')), /^Pay /, 'the Pay button has the focus');
        await screenshot(page, 'b-checkout-page');
        await page.keyboard.press('Enter');
        await page.waitForURL((u) => u.pathname === '/subscription/success');

        const landed = new URL(page.url());
        assert.ok(landed.searchParams.get('session_id'), 'session_id query parameter');
        if (checkout.sessionId) assert.equal(landed.searchParams.get('session_id'), checkout.sessionId);
        await assertSpaServed(page, 'Welcome to Pro!');

        const status = await user.client.subscriptionStatus();
        assert.equal(status.status, 'active');
        assert.equal(status.plan, 'yearly');
        assert.equal(status.isSubscribed, true);
        assert.equal(status.hasUnlimitedLinks, true);
        assert.equal(status.cancelAtPeriodEnd, false);
        proUser = user;

        // A used checkout link is gone for good.
        const again = await page.goto(checkout.url);
        assert.equal(again?.status(), 410);
        await page.getByRole('heading', { name: 'Unavailable' }).waitFor();
        assert.match(await textOf(page.locator('main')), /already been completed/);
        assert.equal(await page.getByRole('button', { name: /^Pay/ }).count(), 0);
        assert.deepEqual(unexpected(errors), []);
      });
    });
  });

  void describe('c. simulated checkout, cancelled', () => {
    void it('cancel lands on /subscription/cancel and the account stays free', async () => {
      await journey('c-checkout-cancelled', async ({ page, errors }) => {
        const user = await registerUser(baseUrl(), 'cancel');
        const checkout = await user.client.createCheckout({ body: { plan: 'monthly' } });
        await page.goto(checkout.url);
        await page.getByRole('heading', { name: 'Upgrade to Pro Monthly' }).waitFor();
        await page.getByRole('button', { name: 'Cancel', exact: true }).click();
        await page.waitForURL((u) => u.pathname === '/subscription/cancel');
        await assertSpaServed(page, 'Payment Cancelled');

        const status = await user.client.subscriptionStatus();
        assert.equal(status.status, 'free');
        assert.equal(status.isSubscribed, false);
        assert.equal(status.hasUnlimitedLinks, false);

        // The cancelled checkout cannot be paid afterwards.
        const again = await page.goto(checkout.url);
        assert.equal(again?.status(), 410);
        assert.equal((await user.client.subscriptionStatus()).status, 'free');
        assert.deepEqual(unexpected(errors), []);
      });
    });
  });

  void describe('d. billing portal', () => {
    void it('cancels at period end, schedules monthly and returns to /profile', async () => {
      await journey('d-portal', async ({ page, errors }) => {
        assert.ok(proUser, 'journey b left a Pro Yearly user');
        const client = proUser.client;
        const before = await client.subscriptionStatus();
        const { url: portalUrl } = await client.createPortal();
        assert.ok(portalUrl.startsWith(`${baseUrl()}/billing/simulated/portal/ps_`), portalUrl);

        const response = await page.goto(portalUrl);
        assert.equal(response?.status(), 200);
        assert.match(await textOf(page.getByRole('note')), /TEST MODE/);
        await page.getByRole('heading', { name: 'Manage subscription' }).waitFor();
        assert.match(await textOf(page.locator('dl')), /Plan Pro Yearly Status active Renews \d{4}-\d{2}-\d{2}/);

        await page.getByRole('button', { name: 'Cancel at end of period' }).click();
        await page.getByRole('button', { name: 'Resume subscription' }).waitFor();
        assert.equal(pathOf(page), new URL(portalUrl).pathname);
        assert.match(await textOf(page.locator('dl')), /Active until the end of the period Expires/);
        await screenshot(page, 'd-portal-cancelled');
        let status = await client.subscriptionStatus();
        assert.equal(status.cancelAtPeriodEnd, true);
        assert.equal(status.status, 'active');
        assert.equal(status.isSubscribed, true);
        assert.equal(status.plan, 'yearly');
        assert.equal(status.endDate, before.endDate, 'cancelling keeps the paid period');

        // A downgrade waits for the paid year to end; the cancellation stays in place.
        await page.getByRole('button', { name: 'Switch to Pro Monthly' }).click();
        await page.getByRole('button', { name: 'Keep Pro Yearly' }).waitFor();
        assert.match(
          await textOf(page.locator('dl')),
          /Plan Pro Yearly .*Next plan Pro Monthly from \d{4}-\d{2}-\d{2}/s,
        );
        await screenshot(page, 'd-portal-monthly');
        status = await client.subscriptionStatus();
        assert.equal(status.plan, 'yearly');
        assert.equal(status.scheduledPlan, 'monthly');
        assert.equal(status.endDate, before.endDate, 'a downgrade keeps the paid period');
        assert.equal(status.cancelAtPeriodEnd, true, 'changing plan does not undo a cancellation');

        await page.getByRole('button', { name: 'Keep Pro Yearly' }).click();
        await page.getByRole('button', { name: 'Switch to Pro Monthly' }).waitFor();
        assert.equal((await client.subscriptionStatus()).scheduledPlan, null);

        await page.getByRole('link', { name: 'Return to Linkwise' }).click();
        await page.waitForURL((u) => u.pathname === '/profile' || u.pathname === '/login');
        // This browser holds no session, so the protected /profile sends it on to sign in.
        await page.waitForURL((u) => u.pathname === '/login');
        await assertSpaServed(page, 'Welcome back');
        assert.deepEqual(unexpected(errors), []);
      });
    });
  });

  void describe('server', () => {
    void it('still answers and logged no errors during the run', async () => {
      assert.ok(server);
      assert.equal((await api(server.url).health()).status, 'ok');
      const bad = server
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      assert.deepEqual(bad, []);
    });

    void it('runs with two malloc arenas: started again in its own place, same pid and arguments', async () => {
      assert.ok(server?.child.pid);
      const proc = (pid: number, file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0');
      // The suite starts it without the variable (a minimal environment).
      assert.ok(proc(server.child.pid, 'environ').includes('MALLOC_ARENA_MAX=2'));
      assert.deepEqual(proc(server.child.pid, 'cmdline').filter(Boolean).slice(1), [SERVER_MAIN]);
      // A value the administrator set is kept, and the server still stops cleanly on SIGTERM.
      const own = await startServer({ MALLOC_ARENA_MAX: '8' });
      assert.ok(own.child.pid);
      assert.ok(proc(own.child.pid, 'environ').includes('MALLOC_ARENA_MAX=8'));
      await own.stop();
      assert.equal(own.child.exitCode, 0);
    });
  });
});
