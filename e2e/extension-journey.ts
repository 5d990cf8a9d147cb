/// <reference types="chrome" />
// The browser extension in real browsers (issue: browser extensions). Chromium headless with the
// built package: connect through the options page and /extension/auth, save with the command, the
// context menu and the popup, edit an already-saved page, the offline queue and its recovery, 401 →
// Reconnect, the plan limit, Disconnect. Headed Chromium under Xvfb: Ctrl+Shift+H as a real key
// press. Firefox ESR with the built package: connect, save, popup.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BUILT_CHROME_EXTENSION_ID, EXTENSION_SHORTCUTS, type ApiClient } from '@linkwise/contract';
import type { Page } from 'playwright-core';
import {
  CHROME_DIR,
  launchChromiumWithExtension,
  openPopup,
  startRestartableServer,
  startSite,
  storedConnection,
  tabIdOf,
  type ExtensionBrowser,
  type RestartableServer,
  type Site,
} from './extension-harness.js';
import { api, registerUser, screenshot, signInBrowser, waitForFocus, writeArtifact } from './harness.js';
import { firefoxJourneys } from './extension-firefox.js';
import { realKeyJourney } from './extension-keys.js';

const LIMIT = 8;
export const EXTENSION_ENV = {
  FREE_LINK_LIMIT: String(LIMIT),
  FETCH_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_AUTH_PER_MINUTE: '1000',
};

type Outcome = { kind: string; link?: { id: string }; message?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Signs in on the server's /extension/auth page the extension opened, and waits for it to close. */
async function signInOnAuthPage(auth: Page, email: string, urls: string[]): Promise<void> {
  auth.on('framenavigated', (frame) => {
    if (frame === auth.mainFrame()) urls.push(frame.url());
  });
  await auth.waitForLoadState();
  urls.push(auth.url());
  await auth.getByRole('heading', { name: 'Connect your extension' }).waitFor();
  await auth.getByLabel('Email').fill(email);
  await auth.getByLabel('Password', { exact: true }).fill('e2e-password-1');
  await auth.getByRole('button', { name: 'Sign In' }).click();
  await auth.getByRole('heading', { name: 'Successfully Connected!' }).waitFor();
  await screenshot(auth, 'h-extension-connected');
  await auth.waitForEvent('close', { timeout: 8000 });
}

export function extensionJourneys(): void {
  void describe('h. browser extension (Chromium)', () => {
    let server: RestartableServer;
    let site: Site;
    let ext: ExtensionBrowser;
    let user: Awaited<ReturnType<typeof registerUser>>;
    let client: ApiClient;
    const ready = existsSync(`${CHROME_DIR}/manifest.json`);

    before(async () => {
      if (!ready) return;
      server = await startRestartableServer(EXTENSION_ENV);
      site = await startSite();
      ext = await launchChromiumWithExtension();
      user = await registerUser(server.url, 'ext');
      client = user.client;
    });
    after(async () => {
      if (!ready) return;
      writeArtifact('h-extension-server.log', server.current().output());
      await ext.close();
      await site.close();
      await server.close();
    });

    const sw = <T>(fn: (arg: never) => T | Promise<T>, arg?: unknown): Promise<T> =>
      ext.worker.evaluate<T, never>(fn as never, arg as never);
    // The background's handlers (exposed as globalThis.__linkwise), as the browser calls them.
    type Handlers = {
      onCommand: (command: string, tab: unknown) => Promise<Outcome>;
      onMenuClick: (info: unknown, tab: unknown) => Promise<Outcome>;
      flushQueue: (force: boolean) => Promise<{ sent: number; left: number }>;
    };
    const command = (tab: { id: number; url: string; title: string }) =>
      sw<Outcome>(
        (t: unknown) => (globalThis as unknown as { __linkwise: Handlers }).__linkwise.onCommand('save-page', t),
        tab,
      );
    const flush = () =>
      sw<{ sent: number; left: number }>(() =>
        (globalThis as unknown as { __linkwise: Handlers }).__linkwise.flushQueue(true),
      );
    const lookup = async (url: string) => (await client.lookupLink({ query: { url } })).data;

    void it('opens the popup at its own width, whatever width the browser starts it at', async () => {
      // The toolbar popup starts narrow and grows to its content: nothing in it may follow that width.
      const narrow = await ext.context.newPage();
      await narrow.setViewportSize({ width: 120, height: 600 });
      await narrow.goto(`chrome-extension://${ext.id}/popup.html`);
      assert.equal((await narrow.locator('body').boundingBox())?.width, 360);
      await narrow.close();
    });

    void it('installs with its fixed id, its shortcut and the least permissions', async () => {
      assert.ok(ready, `${CHROME_DIR} is missing: run \`npm run build\` first`);
      assert.equal(ext.id, BUILT_CHROME_EXTENSION_ID);
      const commands = await sw(() => chrome.commands.getAll());
      const save = commands.find((c) => c.name === 'save-page');
      assert.equal(save?.shortcut, EXTENSION_SHORTCUTS.chrome);
      const manifest = await sw(() => chrome.runtime.getManifest());
      assert.deepEqual([...(manifest.permissions ?? [])].sort(), [
        'activeTab',
        'alarms',
        'contextMenus',
        'scripting',
        'storage',
      ]);
      assert.equal((manifest as { host_permissions?: string[] }).host_permissions, undefined);
      // Nothing answers at the default address here, so installing opened the settings to set one up.
      const options = await eventually('the options page', () =>
        Promise.resolve(ext.context.pages().find((p) => p.url().endsWith('/options.html'))),
      );
      await options.getByLabel('Server address').waitFor();
      assert.equal(await options.getByLabel('Server address').inputValue(), 'http://localhost:3000');
      await options.close();
    });

    void it('connects through the options page and /extension/auth; the token never enters the address bar', async () => {
      const options = await ext.context.newPage();
      await options.goto(`chrome-extension://${ext.id}/options.html`);
      await options.getByLabel('Server address').fill('http://insecure.example');
      await options.getByRole('button', { name: 'Connect' }).click();
      await options.getByText('Use https:// for a server on another computer').waitFor();
      await options.getByLabel('Server address').fill(server.url);
      const opened = ext.context.waitForEvent('page');
      await options.getByRole('button', { name: 'Connect' }).click();
      const auth = await opened;
      const welcome = ext.context.waitForEvent('page', (p) => p.url().includes('/extension/welcome'));
      const urls: string[] = [];
      await signInOnAuthPage(auth, user.user.email, urls);
      assert.ok(
        urls.some((u) => u.includes(`ext=${ext.id}`)),
        urls.join('\n'),
      );
      assert.ok(
        urls.some((u) => u.endsWith('/extension/auth?success=true')),
        urls.join('\n'),
      );
      for (const u of urls) assert.doesNotMatch(u, /token=/, 'no token in any address the tab showed');

      const connection = await storedConnection(ext);
      assert.equal(connection.server, server.url);
      assert.ok(connection.token);
      const me = await api(server.url, connection.token).me();
      assert.equal(me.user.email, user.user.email);
      await options.getByText(`Connected to ${server.url} as ${user.user.email}.`).waitFor();
      await screenshot(options, 'h-extension-options-connected');

      // The first connection shows the welcome page, with this browser's shortcut.
      const page = await welcome;
      await page.getByRole('heading', { name: 'The Linkwise extension is installed!' }).waitFor();
      assert.match(await page.locator('kbd').first().innerText(), /Ctrl\+Shift\+H/);
      await page.close();
      await options.close();
    });

    void it('saves the current tab with the keyboard command: saved, then already saved', async () => {
      const page = await ext.context.newPage();
      await page.goto(site.url('/tide-pools'));
      const tabId = await tabIdOf(ext, page);
      const tab = { id: tabId, url: page.url(), title: await page.title() };
      const first = await command(tab);
      assert.equal(first.kind, 'saved');
      assert.equal(await sw((id: number) => chrome.action.getBadgeText({ tabId: id }), tabId), '✓');
      const saved = await lookup(site.url('/tide-pools'));
      assert.equal(saved?.id, first.link?.id);
      assert.equal(saved?.title, 'Tide pools');
      const again = await command(tab);
      assert.equal(again.kind, 'already');
      assert.match(await sw((id: number) => chrome.action.getTitle({ tabId: id }), tabId), /Already saved/);
      const list = await client.listLinks({ query: { search: 'tide' } });
      assert.equal(list.data.filter((l) => l.url === site.url('/tide-pools')).length, 1, 'saved once');
      await page.close();
    });

    void it('saves a link and a page from the context menu', async () => {
      const page = await ext.context.newPage();
      await page.goto(site.url('/coastal-birds'));
      const tabId = await tabIdOf(ext, page);
      const linkUrl = site.url('/linked/river-deltas');
      const menu = (info: Record<string, unknown>) =>
        sw<Outcome>(
          (a: { info: unknown; tab: unknown }) =>
            (globalThis as unknown as { __linkwise: Handlers }).__linkwise.onMenuClick(a.info, a.tab),
          { info, tab: { id: tabId, url: page.url(), title: 'Coastal birds' } },
        );
      assert.equal(
        (await menu({ menuItemId: 'save-link', linkUrl, pageUrl: page.url(), editable: false })).kind,
        'saved',
      );
      assert.ok(await lookup(linkUrl), 'the link target is saved, not the page');
      assert.equal(await lookup(page.url()), null);
      assert.equal((await menu({ menuItemId: 'save-page', pageUrl: page.url(), editable: false })).kind, 'saved');
      assert.ok(await lookup(page.url()));
      // Both entries exist under the spec's names.
      for (const id of ['save-link', 'save-page']) {
        await sw((menuId: string) => chrome.contextMenus.update(menuId, {}), id);
      }
      await page.close();
    });

    void it('popup: saves a new page with the analysis suggestions, then shows it as saved', async () => {
      const page = await ext.context.newPage();
      await page.goto(site.url('/rock-pool-creatures'));
      const popup = await openPopup(ext, page);
      await popup.getByRole('heading', { name: 'Rock pool creatures' }).waitFor();
      assert.equal(await popup.getByLabel('Title').inputValue(), 'Rock pool creatures');
      await popup.getByText(/Suggestions added|No suggestions for this page/).waitFor({ timeout: 20_000 });
      // The page reads as two categories almost alike: the analysis's second one is offered under
      // the field, and one click swaps the two.
      const { data: analysis } = await client.analyzeLink({ body: { url: page.url() } });
      assert.ok(analysis.otherCategory, `a second category for this page: ${JSON.stringify(analysis)}`);
      const category = popup.getByLabel('Category');
      assert.equal(await category.inputValue(), analysis.category);
      await popup.getByRole('button', { name: `Use ${analysis.otherCategory} instead` }).click();
      assert.equal(await category.inputValue(), analysis.otherCategory);
      await popup.getByRole('button', { name: `Use ${analysis.category} instead` }).waitFor();
      const usage = popup.getByText(/\d+ of 8 links used on the Free plan/);
      const usedBefore = Number((await usage.textContent())?.split(' ')[0]);
      await screenshot(popup, 'h-popup-new');
      await popup.getByLabel('Tags').fill('marine, field trip');
      await popup.getByLabel('Read later').check();
      // Saved from the keyboard: the focus goes on to the saved link, not to the page.
      await popup.getByRole('button', { name: 'Save', exact: true }).focus();
      await popup.keyboard.press('Enter');
      await popup.getByText('Saved to Linkwise').waitFor();
      await waitForFocus(popup.getByRole('link', { name: 'Open in Linkwise' }));
      assert.equal(await popup.getByText('Already saved.').isVisible(), false);
      assert.equal(await popup.getByText(/Suggestions added|No suggestions/).count(), 0);
      await popup.getByText(`${usedBefore + 1} of 8 links used on the Free plan`).waitFor();
      const saved = await lookup(page.url());
      assert.ok(saved);
      assert.equal(
        await popup.getByRole('link', { name: 'Open in Linkwise' }).getAttribute('href'),
        `${server.url}/dashboard?q=${encodeURIComponent(saved.url)}`,
      );
      assert.ok(saved.tags.includes('marine') && saved.tags.includes('field trip'), saved.tags.join());
      assert.equal(saved.isReadLater, true);
      // The category picked in the popup is the user's: nothing more is offered for it.
      assert.equal(saved.category, analysis.otherCategory);
      assert.equal(saved.otherCategory, undefined);
      await popup.close();
      await page.close();
    });

    void it('popup: an already-saved page is edited in place; quick search finds the library', async () => {
      const page = await ext.context.newPage();
      await page.goto(site.url('/tide-pools'));
      const popup = await openPopup(ext, page);
      await popup.getByText('Already saved.').waitFor();
      const saveChanges = popup.getByRole('button', { name: 'Save changes' });
      assert.equal(await saveChanges.isDisabled(), true, 'nothing to save before a change');
      const before = await lookup(page.url());
      assert.equal(await popup.getByLabel('Title').inputValue(), before?.title);
      await popup.getByLabel('Title').fill('Tide pools at dawn');
      await popup.getByLabel('Description').fill('Where to look, and when.');
      await popup.getByLabel('Category').fill('Nature');
      await popup.getByLabel('Tags').fill('ocean, tides');
      await popup.getByLabel('Notes').fill('Visit at low tide');
      await popup.getByLabel('Read later').check();
      await saveChanges.click();
      await popup.getByText('Changes saved').waitFor();
      const saved = await lookup(page.url());
      assert.equal(saved?.title, 'Tide pools at dawn');
      assert.equal(saved?.description, 'Where to look, and when.');
      assert.equal(saved?.category, 'Nature');
      assert.deepEqual(saved?.tags, ['ocean', 'tides']);
      assert.equal(saved?.notes, 'Visit at low tide');
      assert.equal(saved?.isReadLater, true);
      await screenshot(popup, 'h-popup-saved');

      await popup.getByLabel('Search your links').fill('rock pool');
      await popup.getByRole('link', { name: 'Rock pool creatures' }).waitFor();
      await screenshot(popup, 'h-popup-search');
      await popup.close();
      await page.close();
    });

    void it('queues saves while the server is down and sends each exactly once when it is back', async () => {
      const page = await ext.context.newPage();
      await page.goto(site.url('/offline-reading'));
      const tabId = await tabIdOf(ext, page);
      const tab = { id: tabId, url: page.url(), title: 'Offline reading' };
      await server.stop();
      const outcome = await command(tab);
      assert.equal(outcome.kind, 'queued');
      assert.equal(await sw((id: number) => chrome.action.getBadgeText({ tabId: id }), tabId), '…');
      // The same page saved twice while offline is queued once.
      await command(tab);
      const queue = await sw(async () => (await chrome.storage.local.get<{ queue: unknown[] }>('queue')).queue);
      assert.equal(queue.length, 1);
      assert.ok(await sw(() => chrome.alarms.get('linkwise-retry')), 'a retry is scheduled');
      // The popup, opened while the server is down, says so and still saves (into the queue).
      const second = await ext.context.newPage();
      await second.goto(site.url('/saved-from-the-popup-offline'));
      const popup = await openPopup(ext, second);
      await popup.getByText('Linkwise cannot be reached right now.', { exact: false }).waitFor();
      await popup.getByRole('button', { name: 'Save', exact: true }).click();
      await popup.getByText('Saved offline: it reaches Linkwise when the server is back.').waitFor();
      await screenshot(popup, 'h-popup-offline');
      await popup.close();
      const options = await ext.context.newPage();
      await options.goto(`chrome-extension://${ext.id}/options.html`);
      await options.getByText('2 saved pages wait for the server.').waitFor();
      await screenshot(options, 'h-options-queue');
      // A retry while the server is still down keeps the entries.
      const stillDown = await flush();
      assert.equal(stillDown.left, 2);

      await server.start();
      await options.getByRole('button', { name: 'Retry now' }).click();
      await options.getByText('2 saved pages wait for the server.').waitFor({ state: 'hidden' });
      const saved = await lookup(page.url());
      assert.ok(saved, 'the queued save arrived');
      assert.ok(await lookup(second.url()), 'the popup’s queued save arrived');
      await second.close();
      // A second retry (an answer lost on the way) does not double it.
      await sw(
        (url: string) => chrome.storage.local.set({ queue: [{ id: 'again', body: { url }, attempts: 1, nextAt: 0 }] }),
        page.url(),
      );
      const resent = await flush();
      assert.deepEqual([resent.sent, resent.left], [1, 0]);
      // A save queued while another account was connected waits for that account, never this one.
      const foreign = site.url('/another-accounts-page');
      await sw(
        (url: string) =>
          chrome.storage.local.set({
            queue: [{ id: 'theirs', body: { url }, attempts: 1, nextAt: 0, account: 'someone@example.com on x' }],
          }),
        foreign,
      );
      const kept = await flush();
      assert.deepEqual([kept.sent, kept.left], [0, 1]);
      assert.equal(await lookup(foreign), null);
      await options
        .getByText('1 page saved while another account was connected waits for it', { exact: false })
        .waitFor();
      await sw(() => chrome.storage.local.set({ queue: [] }));
      const all = await client.listLinks({ query: { search: 'offline' } });
      assert.equal(all.data.filter((l) => l.url === page.url()).length, 1, 'exactly one link');
      assert.equal(await sw(() => chrome.alarms.get('linkwise-retry')), undefined);
      await options.close();
      await page.close();
    });

    void it('shows the upgrade prompt at the Free limit', async () => {
      const { subscriptionStatus, createLink } = client;
      let status = await subscriptionStatus();
      for (let i = status.totalLinks; i < LIMIT; i++) await createLink({ body: { url: site.url(`/filler-${i}`) } });
      status = await subscriptionStatus();
      assert.equal(status.canAddLinks, false);
      const page = await ext.context.newPage();
      await page.goto(site.url('/one-too-many'));
      const popup = await openPopup(ext, page);
      await popup.getByText(`You've reached your limit of ${LIMIT} links`).waitFor();
      await popup.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
      assert.equal(await popup.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true);
      await screenshot(popup, 'h-popup-limit');
      const pricing = ext.context.waitForEvent('page');
      await popup.getByRole('button', { name: 'Upgrade to Pro' }).click();
      const opened = await pricing;
      await eventually('the pricing page', () => Promise.resolve(opened.url().endsWith('/pricing')));
      await opened.close();
      // The command says so too, instead of failing silently.
      const tabId = await tabIdOf(ext, page);
      const outcome = await command({ id: tabId, url: page.url(), title: 'One too many' });
      assert.equal(outcome.kind, 'failed');
      assert.equal(outcome.message, `You've reached your limit of ${LIMIT} links`);
      assert.equal(await sw((id: number) => chrome.action.getBadgeText({ tabId: id }), tabId), '!');
      await popup.close();

      // A page saved offline that the server refuses when it is back is kept in sight, not dropped.
      const refusedOffline = async (path: string, title: string) => {
        await server.stop();
        assert.equal((await command({ id: tabId, url: site.url(path), title })).kind, 'queued');
        await server.start();
        const sent = await flush();
        assert.deepEqual([sent.sent, sent.left], [0, 0]);
        await eventually(
          'the refusal on the icon',
          async () => (await sw(() => chrome.action.getBadgeText({}))) === '!',
        );
      };
      await refusedOffline('/offline-at-the-limit', 'Saved at the limit, offline');
      assert.match(await sw(() => chrome.action.getTitle({})), /1 page saved offline could not be added/);
      const options = await ext.context.newPage();
      await options.goto(`chrome-extension://${ext.id}/options.html`);
      const refusal = `${site.url('/offline-at-the-limit')} — You've reached your limit of ${LIMIT} links`;
      await options.getByText('1 page saved offline could not be added to Linkwise:').waitFor();
      await options.getByText(refusal).waitFor();
      await screenshot(options, 'h-options-refused');
      // Try again while the plan is still full: refused again, listed once.
      await options.getByRole('button', { name: 'Try again' }).click();
      await eventually('the retry refused again', () =>
        sw(async () => {
          const stored = await chrome.storage.local.get<{ queue?: unknown[]; refused?: unknown[] }>([
            'queue',
            'refused',
          ]);
          return (stored.queue ?? []).length === 0 && stored.refused?.length === 1;
        }),
      );
      await options.getByText(refusal).waitFor();
      assert.equal(await options.getByText(refusal).count(), 1);
      // With room, Try again sends the save as it was made, its title included.
      const { data } = await client.listLinks({ query: { limit: 1 } });
      await client.deleteLink({ params: { id: data[0]!.id } });
      await options.getByRole('button', { name: 'Try again' }).click();
      await options.getByRole('heading', { name: 'Not saved' }).waitFor({ state: 'hidden' });
      // Try again queues the save, then sends it: the list empties before the server has it.
      await eventually(
        'the save sent again',
        async () => (await lookup(site.url('/offline-at-the-limit')))?.title === 'Saved at the limit, offline',
      );
      await eventually('a clear icon', async () => (await sw(() => chrome.action.getBadgeText({}))) === '');
      // Dismiss lets a refusal go.
      await refusedOffline('/offline-and-dismissed', 'Dismissed');
      await options.getByRole('button', { name: 'Dismiss' }).click();
      await options.getByRole('heading', { name: 'Not saved' }).waitFor({ state: 'hidden' });
      await eventually('a clear icon', async () => (await sw(() => chrome.action.getBadgeText({}))) === '');
      assert.equal(await lookup(site.url('/offline-and-dismissed')), null);
      await options.close();
      await page.close();
    });

    void it('a revoked token shows Reconnect, and reconnecting restores saving', async () => {
      const before = await storedConnection(ext);
      assert.ok(before.token);
      await api(server.url, before.token).logout();
      // Make room again for the two saves below.
      const { data } = await client.listLinks({ query: { limit: 2 } });
      for (const link of data) await client.deleteLink({ params: { id: link.id } });
      const page = await ext.context.newPage();
      await page.goto(site.url('/after-reconnect'));
      const popup = await openPopup(ext, page);
      const reconnect = popup.getByRole('button', { name: 'Reconnect' });
      await reconnect.waitFor();
      await popup.getByText('Your Linkwise session has ended').waitFor();
      await screenshot(popup, 'h-popup-reconnect');
      assert.equal((await storedConnection(ext)).needsReconnect, true);
      assert.equal(await sw(() => chrome.action.getBadgeText({})), '!');
      // The shortcut pressed while signed out keeps the page for after reconnecting.
      const kept = site.url('/kept-for-reconnect');
      const refused = await command({ id: await tabIdOf(ext, page), url: kept, title: 'Kept for reconnect' });
      assert.equal(refused.kind, 'failed');
      assert.equal(refused.message, 'Your Linkwise session ended. Reconnect, and this page is saved then.');

      const opened = ext.context.waitForEvent('page');
      await reconnect.click();
      const auth = await opened;
      await signInOnAuthPage(auth, user.user.email, []);
      const after = await eventually('a new token', async () => {
        const c = await storedConnection(ext);
        return c.token && c.token !== before.token && !c.needsReconnect ? c : undefined;
      });
      assert.equal((await api(server.url, after.token ?? '').me()).user.email, user.user.email);
      await eventually('the page kept while signed out', () => lookup(kept));
      assert.equal(await sw(() => chrome.action.getBadgeText({})), '');
      const popup2 = await openPopup(ext, page);
      await popup2.getByRole('button', { name: 'Save', exact: true }).click();
      await popup2.getByText('Saved to Linkwise').waitFor();
      assert.ok(await lookup(page.url()));
      await popup2.close();
      await page.close();
    });

    void it('install page: downloads, steps, the bookmarklet opening a prefilled Add Link dialog', async () => {
      const page = await ext.context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(server.url);
      // Without store pages configured, the landing page's buttons lead to the install page.
      await page.getByRole('link', { name: 'Install Firefox Extension' }).click();
      await page.waitForURL((u) => u.pathname === '/extension/install' && u.hash === '#firefox');
      await page.getByRole('heading', { name: 'Install the Linkwise extension' }).waitFor();
      const chromeZip = page.getByRole('link', { name: 'Download for Chrome and Edge (.zip)' });
      const href = await chromeZip.getAttribute('href');
      assert.equal(href, '/extension/download/linkwise-chrome.zip');
      const zip = await fetch(`${server.url}${href}`);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-type'), 'application/zip');
      await page.getByRole('link', { name: 'Download for Firefox (.zip)' }).waitFor();
      const code = (await page.getByRole('link', { name: 'Save to Linkwise' }).getAttribute('href')) ?? '';
      assert.ok(code.startsWith('javascript:'), 'the bookmarklet is a javascript: bookmark');
      assert.ok(code.includes(JSON.stringify(`${server.url}/dashboard?add=`)), code);
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(wide <= 390, `no sideways scrolling at 390 px (${wide})`);
      await screenshot(page, 'h-install-page-390');

      // The bookmarklet, run on a page of another site, opens the dashboard's Add Link dialog prefilled.
      // The user filled the plan above; with no room it would open the upgrade dialog (web journeys).
      const client = api(server.url, user.token);
      const [spare] = (await client.listLinks()).data;
      assert.ok(spare);
      await client.deleteLink({ params: { id: spare.id } });
      const article = await ext.context.newPage();
      await article.goto(site.url('/bookmarklet-article'));
      await signInBrowser(page, server.url, { token: user.token, user: user.user });
      const opened = ext.context.waitForEvent('page');
      await article.evaluate(decodeURIComponent(code.slice('javascript:'.length)));
      const dialogPage = await opened;
      await dialogPage.waitForURL((u) => u.pathname === '/dashboard');
      const dialog = dialogPage.getByRole('dialog', { name: 'Add New Link' });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('URL').inputValue(), site.url('/bookmarklet-article'));
      assert.equal(await dialog.getByLabel('Title').inputValue(), 'Bookmarklet article');
      await screenshot(dialogPage, 'h-bookmarklet-dialog');
      await dialogPage.close();
      await article.close();
      await page.close();
    });

    void it('Disconnect revokes the extension’s token on the server', async () => {
      const { token } = await storedConnection(ext);
      assert.ok(token);
      const options = await ext.context.newPage();
      await options.goto(`chrome-extension://${ext.id}/options.html`);
      await options.getByRole('button', { name: 'Disconnect' }).click();
      await options.getByText('Disconnected.').waitFor();
      assert.equal((await storedConnection(ext)).token, null);
      await assert.rejects(api(server.url, token).me(), /Authentication required/);
      const page = await ext.context.newPage();
      await page.goto(site.url('/signed-out'));
      const popup = await openPopup(ext, page);
      await popup.getByRole('button', { name: 'Connect' }).waitFor();
      await screenshot(popup, 'h-popup-connect');
      await popup.close();
      await page.close();
      await options.close();
    });
  });

  realKeyJourney();
  firefoxJourneys();
}
