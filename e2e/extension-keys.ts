/// <reference types="chrome" />
// Ctrl+Shift+H as a real key press: headed Chromium on an X server of our own, the key sent by
// xdotool to the focused window, exactly as a person presses it (automation's own key events never
// reach the browser's shortcut handling). One-click login runs here too: only a person's action
// (the shortcut, the toolbar button) gives the extension the tab it fills.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createVault, encryptCredential } from '@linkwise/contract';
import {
  launchChromiumWithExtension,
  openPopup,
  startRestartableServer,
  startSite,
  startXvfb,
  tabIdOf,
  type ExtensionBrowser,
  type RestartableServer,
  type Site,
} from './extension-harness.js';
import { registerUser, screenshot, waitForFocus } from './harness.js';

const CI = process.env.CI === 'true';
const XDOTOOL = '/usr/bin/xdotool';

/** Presses keys on the given display (with the modifiers as they are, like a keyboard). */
export function pressKeys(display: string, keys: string): void {
  const result = spawnSync(XDOTOOL, ['key', '--clearmodifiers', keys], { env: { ...process.env, DISPLAY: display } });
  if (result.status !== 0) throw new Error(`xdotool failed: ${result.stderr.toString()}`);
}

/** Gives the browser window the keyboard focus (a fresh X server has no window manager to do it). */
export function focusBrowser(display: string): void {
  const env = { ...process.env, DISPLAY: display };
  const found = spawnSync(XDOTOOL, ['search', '--onlyvisible', '--class', 'chromium'], { env });
  const window = found.stdout.toString().trim().split('\n').filter(Boolean).pop();
  if (window) spawnSync(XDOTOOL, ['windowfocus', '--sync', window], { env });
}

/** Connects the extension by storing a token for the server (the connect flow has its own journey). */
export async function connectDirectly(ext: ExtensionBrowser, server: string, token: string, email: string) {
  await ext.worker.evaluate(
    async (c) => {
      await chrome.storage.local.set({
        connection: {
          server: c.server,
          token: c.token,
          user: { email: c.email, username: 'x' },
          needsReconnect: false,
          welcomed: true,
        },
      });
    },
    { server, token, email },
  );
}

export function realKeyJourney(): void {
  const missing = [XDOTOOL, '/usr/bin/Xvfb'].filter((p) => !existsSync(p));
  void describe('i. Ctrl+Shift+H as a real key press and one-click login (headed Chromium under Xvfb)', () => {
    if (missing.length) {
      console.log(`SKIPPED extension real-key suite: ${missing.join(', ')} missing (apt-get install -y xvfb xdotool)`);
      void it('needs xvfb and xdotool', { skip: !CI && 'xvfb or xdotool missing' }, () => {
        assert.fail(`missing ${missing.join(', ')}`);
      });
      return;
    }
    let xvfb: Awaited<ReturnType<typeof startXvfb>>;
    let server: RestartableServer;
    let site: Site;
    let ext: ExtensionBrowser;
    before(async () => {
      xvfb = await startXvfb();
      assert.ok(xvfb, 'an X server started');
      server = await startRestartableServer({ FETCH_ALLOW_PRIVATE: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
      site = await startSite();
      ext = await launchChromiumWithExtension({ display: xvfb.display });
    });
    after(async () => {
      await ext?.close();
      await site?.close();
      await server?.close();
      xvfb?.stop();
    });

    void it('saves the focused tab and confirms it on the badge', async () => {
      assert.ok(xvfb);
      const user = await registerUser(server.url, 'keys');
      await connectDirectly(ext, server.url, user.token, user.user.email);
      const page = await ext.context.newPage();
      await page.goto(site.url('/pressed-with-keys'));
      await page.bringToFront();
      focusBrowser(xvfb.display);
      await page.locator('h1').click();
      pressKeys(xvfb.display, 'ctrl+shift+h');
      const deadline = Date.now() + 10_000;
      let saved = null;
      while (!saved && Date.now() < deadline) {
        saved = (await user.client.lookupLink({ query: { url: page.url() } })).data;
        if (!saved) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(saved, 'the key press saved the page');
      // The server can hold the link a moment before the extension has read its answer ('…').
      const badgeText = () =>
        ext.worker.evaluate(async () => {
          const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
          return chrome.action.getBadgeText({ tabId: tab?.id });
        });
      let badge = await badgeText();
      while (badge === '…' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        badge = await badgeText();
      }
      assert.equal(badge, '✓');
      // The in-page confirmation (activeTab lets the extension show it only now).
      await page.locator('#linkwise-save-toast').waitFor({ state: 'attached' });
      await screenshot(page, 'i-real-key-saved');
      await page.close();
    });

    void it('one-click login: unlock, fill a loopback login page; refuse another origin, no password field, a framed form', async () => {
      assert.ok(xvfb);
      const display = xvfb.display;
      const user = await registerUser(server.url, 'login');
      await connectDirectly(ext, server.url, user.token, user.user.email);
      // The vault and one credential, made the way the web app makes them (zero knowledge).
      const master = `tidal ember quarry ${Date.now().toString(36)}`;
      const { material, vaultKey } = await createVault(master);
      await user.client.putVault({ body: { ...material, replaces: null } });
      const loginUrl = site.url('/login');
      const link = await user.client.createLink({ body: { url: loginUrl, title: 'Site login' } });
      const credential = await encryptCredential(
        vaultKey,
        { userId: user.user.id, linkId: link.id },
        { id: 'c1', username: 'ada@example.com', password: 'correct horse battery', note: '' },
      );
      await user.client.updateLink({ params: { id: link.id }, body: { credentials: [credential] } });

      // A person presses the shortcut on the page, which grants the extension that tab (activeTab);
      // the popup then opens about it. (The page is already saved, so the press only says so.)
      const page = await ext.context.newPage();
      await page.goto(loginUrl);
      await page.bringToFront();
      focusBrowser(display);
      await page.locator('h1').click();
      pressKeys(display, 'ctrl+shift+h');
      await page.locator('#linkwise-save-toast').waitFor({ state: 'attached' });
      const popup = await openPopup(ext, page);
      await popup.getByText('1 saved login for this site. Unlock your vault to use it.').waitFor();
      await popup.getByLabel('Master password').fill('not the password');
      await popup.getByRole('button', { name: 'Unlock vault' }).click();
      await popup.getByText('Wrong master password.').waitFor({ timeout: 30_000 });
      // The keyboard stays on the form for another try, and then moves on to the first login.
      await waitForFocus(popup.getByLabel('Master password'));
      await popup.getByLabel('Master password').fill(master);
      await popup.getByRole('button', { name: 'Unlock vault' }).click();
      const fillButton = popup.getByRole('button', { name: 'Fill login ada@example.com' });
      await fillButton.waitFor({ timeout: 30_000 });
      await waitForFocus(fillButton);
      await screenshot(popup, 'i-popup-login');
      // A server that does not answer is said so, instead of nothing happening.
      await server.stop();
      await fillButton.click();
      await popup.getByText('Linkwise cannot be reached right now. Try again in a moment.').waitFor();
      await server.start();
      await fillButton.click();
      await popup.getByText('Filled in. Check the page, then sign in.').waitFor();
      assert.equal(await page.locator('#username').inputValue(), 'ada@example.com');
      assert.equal(await page.locator('#password').inputValue(), 'correct horse battery');
      assert.equal(new URL(page.url()).pathname, '/login', 'filled, never submitted');
      await popup.close().catch(() => undefined);

      // The same credential asked for on another origin's login page is refused.
      const other = await startSite();
      try {
        const foreign = await ext.context.newPage();
        await foreign.goto(other.url('/login'));
        await foreign.bringToFront();
        focusBrowser(display);
        await foreign.locator('h1').click();
        pressKeys(display, 'ctrl+shift+h');
        await foreign.locator('#linkwise-save-toast').waitFor({ state: 'attached' });
        const fill = (tabId: number, linkId = link.id) =>
          ext.worker.evaluate(
            (a) =>
              (
                globalThis as unknown as {
                  __linkwise: { fill: (t: number, l: string, c: string) => Promise<string> };
                }
              ).__linkwise.fill(a.tabId, a.linkId, 'c1'),
            { tabId, linkId },
          );
        assert.equal(await fill(await tabIdOf(ext, foreign)), 'origin-mismatch');
        assert.equal(await foreign.locator('#password').inputValue(), '');

        // The credential's own origin, but no password field in the page itself, only in a frame of
        // another origin: nothing is filled anywhere.
        const framed = await ext.context.newPage();
        await framed.goto(site.url('/no-password'));
        await framed.evaluate(
          `(() => { const f = document.createElement('iframe'); f.src = ${JSON.stringify(other.url('/login'))}; document.body.append(f); })()`,
        );
        await framed.frameLocator('iframe').locator('#password').waitFor();
        await framed.bringToFront();
        focusBrowser(display);
        await framed.locator('#q').click();
        pressKeys(display, 'ctrl+shift+h');
        await framed.locator('#linkwise-save-toast').waitFor({ state: 'attached' });
        assert.equal(await fill(await tabIdOf(ext, framed)), 'no-password-field');
        assert.equal(await framed.frameLocator('iframe').locator('#password').inputValue(), '');
        await framed.close();
        await foreign.close();

        // A login deleted in the web app since the popup listed it, or its whole link, says so.
        const loginTab = await tabIdOf(ext, page);
        await user.client.updateLink({ params: { id: link.id }, body: { credentials: [] } });
        assert.equal(await fill(loginTab), 'gone');
        await user.client.updateLink({ params: { id: link.id }, body: { credentials: [credential] } });
        const deleted = await user.client.createLink({ body: { url: site.url('/login?deleted') } });
        await user.client.deleteLink({ params: { id: deleted.id } });
        assert.equal(await fill(loginTab, deleted.id), 'gone');
        assert.equal(await page.locator('#password').inputValue(), 'correct horse battery');
      } finally {
        await other.close();
      }

      // Locking (what the idle timer does) forgets the key: the next popup asks for the password again.
      const again = await openPopup(ext, page);
      await again.getByRole('button', { name: 'Fill login ada@example.com' }).waitFor();
      await again.evaluate(() => chrome.runtime.sendMessage({ type: 'vault-lock' }));
      await again.reload();
      await again.getByText('1 saved login for this site. Unlock your vault to use it.').waitFor();
      await again.close();
      await page.close();
    });
  });
}
