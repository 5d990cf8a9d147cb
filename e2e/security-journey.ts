// Account security in real Chromium: turn two-factor sign-in on from Profile (QR code and key,
// recovery codes) and sign in with a code; reset a forgotten password from the link in the email a
// local SMTP server received; delete the account from Profile on a phone-sized window. The journeys
// run on a server of their own, configured with SMTP.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { totpCode } from '../apps/server/src/modules/auth/totp.js';
import { startMailbox } from '../apps/server/test/mail-double.js';
import {
  api,
  openPage,
  registerUser,
  screenshot,
  signInBrowser,
  startServer,
  waitForFocus,
  writeArtifact,
  type RunningServer,
} from './harness.js';
import { WEB_ENV } from './web-journeys.js';

interface Context {
  browser: () => Browser;
}

const PASSWORD = 'e2e-password-1';
const PHONE = { width: 390, height: 800 };

async function toast(page: Page, message: string | RegExp) {
  await page.locator('[data-sonner-toast]', { hasText: message }).first().waitFor();
}

export function securityJourneys({ browser }: Context): void {
  void describe('h. account security', () => {
    let server: RunningServer | undefined;
    let mailbox: Awaited<ReturnType<typeof startMailbox>> | undefined;
    const baseUrl = () => {
      assert.ok(server, 'the security server is running');
      return server.url;
    };

    before(async () => {
      mailbox = await startMailbox();
      server = await startServer({ ...WEB_ENV, SMTP_URL: mailbox.url, MAIL_FROM: 'Linkwise <no-reply@linkwise.test>' });
    });
    after(async () => {
      if (server) writeArtifact('security-server.log', server.output());
      await server?.stop();
      await mailbox?.close();
    });

    async function journey(
      name: string,
      run: (page: Page) => Promise<void>,
      viewport?: { width: number; height: number },
    ) {
      const watched = await openPage(browser(), viewport);
      try {
        await run(watched.page);
        // The refused attempts the journeys make on purpose are logged by Chromium as failed loads.
        assert.deepEqual(
          watched.errors.filter((e) => !/status of 40[01]/.test(e)),
          [],
        );
      } finally {
        await screenshot(watched.page, name).catch(() => undefined);
        if (watched.errors.length) writeArtifact(`${name}.console.txt`, watched.errors.join('\n'));
        await watched.close();
      }
    }

    void it('turns two-factor sign-in on from Profile and signs in with a code', async () => {
      await journey('h-two-factor', async (page) => {
        const user = await registerUser(baseUrl(), '2fa');
        await signInBrowser(page, baseUrl(), user);
        await page.goto(`${baseUrl()}/profile`);
        await page.getByRole('button', { name: 'Enable', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
        await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
        const secret = (await dialog.getByLabel('Secret key').innerText()).replace(/\s+/g, '');
        assert.match(secret, /^[A-Z2-7]{32}$/);
        await dialog.getByLabel('Code from the app').fill('000000');
        await dialog.getByRole('button', { name: 'Turn On' }).click();
        await dialog.getByText('Invalid or already used code').waitFor();
        await dialog.getByLabel('Code from the app').fill(totpCode(secret, Date.now()));
        await dialog.getByRole('button', { name: 'Turn On' }).click();
        const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
        await codes.first().waitFor();
        assert.equal(await codes.count(), 10);
        // The codes are shown only now: Escape asks first, and going back shows them again.
        await page.keyboard.press('Escape');
        const leaving = page.getByRole('alertdialog', { name: 'Saved your recovery codes?' });
        await leaving.getByRole('button', { name: 'Show the codes' }).click();
        await leaving.waitFor({ state: 'detached' });
        assert.equal(await codes.count(), 10);
        await dialog.getByRole('button', { name: 'I saved them' }).click();
        await page.getByText(/On · 10 recovery codes left/).waitFor();
        await dialog.waitFor({ state: 'detached' });

        // A cancelled password change forgets what was typed; focus goes back to the button that opened it.
        const changeButton = page.getByRole('button', { name: 'Change Password' });
        await changeButton.click();
        const change = page.getByRole('dialog', { name: 'Change Password' });
        // It opens on its first field, not on Close.
        await waitForFocus(change.getByLabel('Current Password', { exact: true }));
        await change.getByLabel('Current Password', { exact: true }).fill('typed but cancelled');
        await page.keyboard.press('Escape');
        await change.waitFor({ state: 'detached' });
        await waitForFocus(changeButton);
        await changeButton.click();
        assert.equal(await change.getByLabel('Current Password', { exact: true }).inputValue(), '');
        await change.getByRole('button', { name: 'Cancel' }).click();

        // API tokens from the keyboard: the one-time token's Copy button takes the focus, Done gives
        // it back to the name, and revoking the only token leaves it in the card, not on <body>.
        await page.getByLabel('Token name').fill('Backup script');
        await page.getByRole('button', { name: 'Create Token' }).press('Enter');
        await waitForFocus(page.getByRole('status').getByRole('button', { name: 'Copy' }));
        await page.getByRole('button', { name: 'Done' }).press('Enter');
        await waitForFocus(page.getByLabel('Token name'));
        // The token's own card (the sign-ins card lists it too, with a Revoke of its own).
        await page
          .getByRole('list', { name: 'Your API tokens' })
          .getByRole('button', { name: /^Revoke/ })
          .press('Enter');
        await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).press('Enter');
        await page
          .getByRole('list', { name: 'Your API tokens' })
          .getByText('Backup script')
          .waitFor({ state: 'detached' });
        await waitForFocus(page.getByRole('region', { name: 'API Tokens' }).getByRole('link').first());

        // Signed out, the sign-in form asks for the code after the password.
        await page.evaluate('localStorage.clear()');
        await page.goto(`${baseUrl()}/login`);
        await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
        await page.getByLabel('Email').fill(user.user.email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign In' }).click();
        const code = page.getByLabel('Authentication code');
        await code.waitFor();
        await code.fill('123456');
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.getByRole('alert').filter({ hasText: 'Invalid or already used code' }).waitFor();
        // The next step's code (the current one was spent turning 2FA on): ±1 step is accepted.
        await code.fill(totpCode(secret, Date.now() + 30_000));
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.waitForURL('**/dashboard');
      });
    });

    void it('resets a forgotten password from the link in the email', async () => {
      await journey('h-password-reset', async (page) => {
        assert.ok(mailbox);
        const user = await registerUser(baseUrl(), 'reset');
        await page.goto(`${baseUrl()}/login`);
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        // The page is its own chunk: wait for it, or the sign-in form's Email field gets the text.
        await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
        await page.getByLabel('Email').fill(user.user.email);
        await page.getByRole('button', { name: 'Send Reset Link' }).click();
        await page.getByRole('status').filter({ hasText: 'If an account exists for that email' }).waitFor();

        const mail = await mailbox.next(user.user.email);
        const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail.text ?? '')?.[0];
        assert.ok(link, `a reset link in: ${mail.text}`);
        await page.goto(link);
        await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
        await page.getByLabel('New Password', { exact: true }).fill('password');
        await page.getByLabel('Confirm Password', { exact: true }).fill('password');
        await page.getByRole('button', { name: 'Set New Password' }).click();
        await page.getByText('This password is too common').first().waitFor();
        await page.getByLabel('New Password', { exact: true }).fill('a much better passphrase');
        await page.getByLabel('Confirm Password', { exact: true }).fill('a much better passphrase');
        await page.getByRole('button', { name: 'Set New Password' }).click();
        await page.waitForURL('**/login');
        await toast(page, 'Your password is changed');
        await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
        // The old session is gone, the new password signs in.
        await assert.rejects(user.client.me(), /Authentication required/);
        await page.getByLabel('Email').fill(user.user.email);
        await page.getByLabel('Password', { exact: true }).fill('a much better passphrase');
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.waitForURL('**/dashboard');
      });
    });

    void it('deletes the account from Profile on a phone-sized window', async () => {
      await journey(
        'h-delete-account',
        async (page) => {
          const user = await registerUser(baseUrl(), 'delete');
          await user.client.createLink({ body: { url: 'https://example.com/keep-me', title: 'Keep me?' } });
          await signInBrowser(page, baseUrl(), user);
          await page.goto(`${baseUrl()}/profile`);
          await page.getByRole('button', { name: 'Delete Account', exact: true }).click();
          const dialog = page.getByRole('dialog', { name: 'Delete Account' });
          // The dialog offers the export first; it downloads the whole library (lossless JSON).
          const [exported] = await Promise.all([
            page.waitForEvent('download'),
            dialog.getByRole('button', { name: 'Export my links (JSON)' }).click(),
          ]);
          assert.equal(exported.suggestedFilename().endsWith('.json'), true, exported.suggestedFilename());
          assert.match(readFileSync(await exported.path(), 'utf8'), /https:\/\/example\.com\/keep-me/);
          await dialog.getByLabel('Password', { exact: true }).fill('not my password');
          await dialog.getByRole('button', { name: 'Delete Everything' }).click();
          await dialog.getByText('Current password is incorrect').waitFor();
          // A wrong password in a signed-in form does not sign out.
          assert.match(page.url(), /\/profile$/);
          await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
          await dialog.getByRole('button', { name: 'Delete Everything' }).click();
          await toast(page, 'Your account and everything in it is deleted.');
          await page.waitForURL('**/login');
          await assert.rejects(
            api(baseUrl()).login({ body: { email: user.user.email, password: PASSWORD } }),
            /Invalid email or password/,
          );
        },
        PHONE,
      );
    });
  });
}
