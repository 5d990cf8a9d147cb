/// <reference types="chrome" />
// The Firefox package in Firefox ESR, driven over WebDriver BiDi by puppeteer-core: connect through
// the options page (the host permission asked for on Connect, granted by a test profile preference in
// place of the person's click) and /extension/auth (the token relayed by the content script), the
// Firefox shortcut, save through the background, and the popup.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_SHORTCUTS, FIREFOX_EXTENSION_ID } from '@linkwise/contract';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import {
  FIREFOX,
  FIREFOX_DIR,
  startRestartableServer,
  startSite,
  type RestartableServer,
  type Site,
} from './extension-harness.js';
import { ARTIFACTS, registerUser } from './harness.js';

const CI = process.env.CI === 'true';
const UUID = '6b1f0c8e-3d2a-4f5b-9c7e-1a2b3c4d5e6f';
const BASE = `moz-extension://${UUID}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * moz-extension:// navigations never report completion to the driver: start one and watch the address.
 * The page counts as open once two looks 150 ms apart see the same extension document with its API
 * (the driver can still hold the initial about:blank realm for a moment after the address changes,
 * and a call into it fails with a cross-origin XrayWrapper error).
 */
async function openExtensionPage(browser: Browser, path: string): Promise<Page> {
  const page = await browser.newPage();
  void page.goto(`${BASE}/${path}`).catch(() => undefined);
  const look = () =>
    page
      .evaluate<[], () => string>(
        `document.readyState === 'complete' && typeof chrome === 'object' && chrome.runtime?.id ? location.href : ''`,
      )
      .catch(() => '');
  let previous = '';
  for (let i = 0; i < 100; i++) {
    const href = await look();
    if (href.startsWith(BASE) && href === previous) return page;
    previous = href;
    await sleep(150);
  }
  throw new Error(`${path} did not open`);
}

/**
 * Runs a driver step again (at most three times) when Firefox answers with the cross-origin
 * XrayWrapper error: a transient of its remote agent while a fresh extension page settles, seen once
 * in CI and never reproduced by hand. Any other error fails at once.
 */
async function settled<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('XrayWrapper')) throw error;
      await sleep(300);
    }
  }
}

async function waitForText(page: Page, text: string, ms = 15_000): Promise<void> {
  await page.waitForFunction(`document.body?.innerText.includes(${JSON.stringify(text)})`, { timeout: ms });
}

export function firefoxJourneys(): void {
  void describe('j. browser extension (Firefox ESR)', () => {
    const missing = [FIREFOX, `${FIREFOX_DIR}/manifest.json`].filter((p) => !existsSync(p));
    if (missing.length) {
      console.log(
        `SKIPPED extension Firefox suite: ${missing.join(', ')} missing (apt-get install -y firefox-esr; npm run build)`,
      );
      void it('needs Firefox ESR and the built package', { skip: !CI && 'Firefox ESR missing' }, () => {
        assert.fail(`missing ${missing.join(', ')}`);
      });
      return;
    }
    let server: RestartableServer;
    let site: Site;
    let browser: Browser;
    let user: Awaited<ReturnType<typeof registerUser>>;
    before(async () => {
      server = await startRestartableServer({ FETCH_ALLOW_PRIVATE: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
      site = await startSite();
      user = await registerUser(server.url, 'firefox');
      browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: FIREFOX,
        headless: true,
        args: ['--remote-allow-system-access'],
        extraPrefsFirefox: {
          'extensions.webextensions.uuids': JSON.stringify({ [FIREFOX_EXTENSION_ID]: UUID }),
          // Stands in for the person's "Allow" on the permission prompt of Connect.
          'extensions.webextOptionalPermissionPrompts': false,
        },
      });
      await browser.installExtension(FIREFOX_DIR);
    });
    after(async () => {
      await browser?.close().catch(() => undefined);
      await site?.close();
      await server?.close();
    });

    void it('connects through the options page and /extension/auth (content-script hand-off)', async () => {
      const options = await openExtensionPage(browser, 'options.html');
      const shortcut = await settled(() =>
        options.evaluate(async () => (await chrome.commands.getAll()).find((c) => c.name === 'save-page')?.shortcut),
      );
      assert.equal(shortcut, EXTENSION_SHORTCUTS.firefox);
      await settled(() =>
        options.$eval(
          '#server',
          (el, url) => {
            (el as unknown as { value: string }).value = url;
          },
          server.url,
        ),
      );
      const authTarget = browser.waitForTarget((t) => t.url().includes('/extension/auth'), { timeout: 15_000 });
      await options.click('#connect');
      const auth = await (await authTarget).page();
      assert.ok(auth);
      await auth.waitForSelector('input[type="email"]');
      await auth.type('input[type="email"]', user.user.email);
      await auth.type('input[type="password"]', 'e2e-password-1');
      // The first connection opens the welcome page, with Firefox's own shortcut.
      const welcomeTarget = browser.waitForTarget((t) => t.url().includes('/extension/welcome'), { timeout: 15_000 });
      await auth.click('button[type="submit"]');
      await waitForText(auth, 'Successfully Connected!');
      const welcome = await (await welcomeTarget).page();
      assert.ok(welcome);
      await waitForText(welcome, 'The Linkwise extension is installed!');
      await waitForText(welcome, EXTENSION_SHORTCUTS.firefox);
      await welcome.screenshot({ path: `${ARTIFACTS}/j-firefox-welcome.png` }).catch(() => undefined);
      assert.doesNotMatch(auth.url(), /token=/);
      await auth.screenshot({ path: `${ARTIFACTS}/j-firefox-connected.png` }).catch(() => undefined);
      const connection = await options.evaluate(async () => {
        for (let i = 0; i < 100; i++) {
          const { connection } = await chrome.storage.local.get<{
            connection?: { token?: string; server: string };
          }>('connection');
          if (connection?.token) return connection;
          await new Promise((r) => setTimeout(r, 100));
        }
        return undefined;
      });
      assert.equal(connection?.server, server.url);
      assert.ok(connection?.token);
      await waitForText(options, `Connected to ${server.url} as ${user.user.email}.`);
      await options.close();
    });

    void it('saves through the background (what the shortcut and menu call)', async () => {
      const options = await openExtensionPage(browser, 'options.html');
      const url = site.url('/firefox-saved-page');
      const outcome = await options.evaluate(
        (u: string) =>
          chrome.runtime.sendMessage<unknown, { kind: string }>({
            type: 'save',
            body: { url: u, title: 'Saved from Firefox' },
          }),
        url,
      );
      assert.equal(outcome.kind, 'saved');
      const again = await options.evaluate(
        (u: string) => chrome.runtime.sendMessage<unknown, { kind: string }>({ type: 'save', body: { url: u } }),
        url,
      );
      assert.equal(again.kind, 'already');
      assert.equal((await user.client.lookupLink({ query: { url } })).data?.title, 'Saved from Firefox');
      await options.close();
    });

    void it('popup: saves a page, then shows it as saved', async () => {
      const page = await browser.newPage();
      const url = site.url('/firefox-popup-page');
      await page.goto(url);
      const params = new URLSearchParams({ tab: '1', url, title: 'Firefox popup page' });
      const popup = await openExtensionPage(browser, `popup.html?${params.toString()}`);
      await popup.waitForSelector('body[data-ready="true"]');
      await popup.setViewport({ width: 360, height: 640 });
      await waitForText(popup, 'Firefox popup page');
      await popup.click('#submit');
      await waitForText(popup, 'Saved to Linkwise');
      await waitForText(popup, 'Open in Linkwise');
      await popup.screenshot({ path: `${ARTIFACTS}/j-firefox-popup-saved.png` });
      assert.ok((await user.client.lookupLink({ query: { url } })).data);
      await popup.close();
      await page.close();
    });
  });
}
