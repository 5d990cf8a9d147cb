// The credential vault in real Chromium (spec §2 card and dialogs, §8 copy toasts; ARCHITECTURE §7):
// set a master password, add a link with two credentials, reload (locked), unlock with a wrong then
// the right password, copy username and password through the real clipboard, edit, delete one,
// change the master password, unlock with the new one. Then every byte the database holds is
// searched for the plaintexts: the SQLite files (main and -wal) of the suite's server, and every
// table of a server started on a fresh PostgreSQL database.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decryptCredential, unlockVault, type Link } from '@linkwise/contract';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { createTestDatabase, postgresAvailable } from '../apps/server/test/pg.js';
import {
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
  /** The suite's own server (SQLite). */
  server: () => RunningServer;
}

const PHONE = { width: 360, height: 740 };
const CLIPBOARD_CLEAR_MS = 30_000;

/** Distinct plaintexts per run, so a hit in a scan can only come from this journey. */
function secretsFor(run: string) {
  const tag = `${run}${Date.now().toString(36)}`;
  return {
    master: `violet harbor lantern ${tag}`,
    newMaster: `quiet granite orchard ${tag}`,
    first: { username: `ada.${tag}@bank.example`, password: `Pw1-${tag}-xK9!q`, note: `backup codes ${tag}` },
    second: { username: `grace.${tag}`, password: `Pw2-${tag}-mZ4#w` },
    secondChanged: `Pw2b-${tag}-tR7&e`,
  };
}
type Secrets = ReturnType<typeof secretsFor>;

const needlesOf = (s: Secrets) => [
  s.master,
  s.newMaster,
  s.first.username,
  s.first.password,
  s.first.note,
  s.second.username,
  s.second.password,
  s.secondChanged,
];

async function toast(page: Page, message: string | RegExp) {
  await page.locator('[data-sonner-toast]', { hasText: message }).first().waitFor();
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const lockButton = (page: Page) => page.getByRole('button', { name: 'Lock vault', exact: true });
const clipboard = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');

async function noHorizontalScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (scrollWidth <= width) return;
  const wide = await page.evaluate<string>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width} + 1)
      .map((e) => e.tagName + ' ' + String(e.className).slice(0, 60) + ' ' + Math.round(e.getBoundingClientRect().right)).join('; ')`,
  );
  assert.fail(`page is ${scrollWidth} px wide at ${width} px (${page.url()}): ${wide}`);
}

/** Bytes of the SQLite database files (main file, -wal, -shm) as they are on disk right now. */
function sqliteBytes(dataDir: string): Buffer {
  const files = readdirSync(dataDir).filter((f) => f.startsWith('linkwise.db'));
  assert.ok(files.includes('linkwise.db'), `database file in ${dataDir}: ${files.join(', ')}`);
  assert.ok(files.includes('linkwise.db-wal'), 'the write-ahead log is scanned too');
  return Buffer.concat(files.map((f) => readFileSync(path.join(dataDir, f))));
}

/** Every row of every table of a PostgreSQL database, text as text and bytes as bytes. */
async function postgresBytes(url: string): Promise<Buffer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ schemaname: string; tablename: string }>(
      "select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    assert.ok(
      tables.rows.some((t) => t.tablename === 'credentials'),
      'the credentials table exists',
    );
    const parts: Buffer[] = [];
    for (const { schemaname, tablename } of tables.rows) {
      const rows = await client.query<Record<string, unknown>>(
        `select * from ${client.escapeIdentifier(schemaname)}.${client.escapeIdentifier(tablename)}`,
      );
      for (const row of rows.rows) {
        for (const value of Object.values(row)) {
          if (Buffer.isBuffer(value)) parts.push(value);
          else if (typeof value === 'string') parts.push(Buffer.from(value));
          else parts.push(Buffer.from(JSON.stringify(value ?? null)));
        }
      }
    }
    return Buffer.concat(parts);
  } finally {
    await client.end();
  }
}

function assertNoPlaintext(haystack: Buffer, secrets: Secrets, where: string, stored: Link) {
  assert.ok(haystack.length > 1000, `${where}: something was read`);
  for (const needle of needlesOf(secrets)) {
    assert.equal(haystack.includes(Buffer.from(needle)), false, `${where} holds the plaintext "${needle}"`);
  }
  // The scan does see stored text: the ciphertext the server returned is in there.
  const ciphertext = stored.credentials[0]?.ciphertext;
  assert.ok(ciphertext && haystack.includes(Buffer.from(ciphertext)), `${where}: the ciphertext is found`);
}

interface JourneyOptions {
  label: string;
  baseUrl: string;
  scan: () => Promise<Buffer>;
  serverLog: () => string;
  /** Wait for the 30-second clipboard clearing (done on one engine; it is the same code). */
  waitForClipboardClear: boolean;
}

/** The whole journey on one server. */
async function vaultJourney(browser: Browser, o: JourneyOptions): Promise<void> {
  const s = secretsFor(o.label);
  const user = await registerUser(o.baseUrl, `vault-${o.label}`);
  await user.client.createLink({ body: { url: 'https://plain.example/', title: 'Plain link without secrets' } });
  const w = await openPage(browser);
  await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: o.baseUrl });
  const { page } = w;
  const shot = (name: string) => screenshot(page, `g-${o.label}-${name}`);
  try {
    await signInBrowser(page, o.baseUrl, user);

    // 1. First use: Profile → Vault Settings → choose a master password.
    await page.goto(`${o.baseUrl}/profile`);
    await page.getByRole('link', { name: 'Vault Settings' }).click();
    await page.waitForURL((u) => u.pathname === '/vault');
    await page.getByRole('heading', { level: 1, name: 'Vault Settings' }).waitFor();
    await page.getByText('Not set up', { exact: true }).waitFor();
    const warning = page.getByRole('note');
    assert.match(await warning.innerText(), /cannot be recovered/);
    assert.match(await warning.innerText(), /different password from your Linkwise login password/);
    await page.getByLabel('Master password', { exact: true }).fill(s.master);
    await page.getByLabel('Confirm master password', { exact: true }).fill(`${s.master}x`);
    await page.getByRole('button', { name: 'Create Vault' }).click();
    await page.getByText("Passwords don't match").waitFor();
    assert.equal(await page.getByLabel('Master password', { exact: true }).inputValue(), s.master, 'input kept');
    assert.equal(
      await page.getByRole('meter', { name: 'Master password strength' }).getAttribute('aria-valuetext'),
      'Very strong',
    );
    await page.getByLabel('Confirm master password', { exact: true }).fill(s.master);
    await page.getByLabel('I understand that a forgotten master password cannot be recovered.').check();
    await shot('setup');
    // From the keyboard: the form gives way to the unlocked vault, and the focus goes with it.
    await page.getByRole('button', { name: 'Create Vault' }).press('Enter');
    await toast(page, 'Vault created and unlocked');
    await page.getByText('Unlocked', { exact: true }).waitFor();
    await waitForFocus(page.getByRole('button', { name: 'Lock Vault', exact: true }));
    const material = (await user.client.getVault()).data;
    assert.ok(material, 'key material is stored');
    assert.equal(material.kdf.iterations, 600_000);

    // 2. A link with two credentials from the add dialog.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await card(page, 'Plain link without secrets').waitFor();
    await page.getByRole('button', { name: 'Add Link', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add New Link' });
    await add.getByLabel('URL').fill('https://bank.example/login');
    await add.getByLabel('Title (optional)').fill('Bank login');
    const creds = add.getByRole('region', { name: 'Credentials' });
    await creds.getByRole('button', { name: 'Add Credential' }).click();
    await creds.getByLabel('Username').fill(s.first.username);
    await creds.getByLabel('Password', { exact: true }).fill(s.first.password);
    await creds.getByLabel('Note (optional)').fill(s.first.note);
    await creds.getByRole('button', { name: 'Save Credential' }).click();
    await creds.getByRole('button', { name: 'Add Credential' }).click();
    // Empty after trimming: refused with a message, nothing lost.
    await creds.getByLabel('Username').fill('   ');
    await creds.getByRole('button', { name: 'Save Credential' }).click();
    await creds.getByText('Username is required').waitFor();
    await creds.getByText('Password is required').waitFor();
    await creds.getByLabel('Username').fill(s.second.username);
    await creds.getByLabel('Password', { exact: true }).fill(s.second.password);
    await creds.getByLabel('Password', { exact: true }).press('Enter');
    await creds.getByRole('list', { name: 'Stored credentials' }).getByText(s.second.username).waitFor();
    await shot('add-dialog');
    await add.getByRole('button', { name: 'Add Link' }).click();
    await toast(page, 'Link added successfully!');
    await add.waitFor({ state: 'detached' });
    const bank = card(page, 'Bank login');
    await bank.getByRole('listitem', { name: s.second.username }).waitFor();
    const saved = (await user.client.listLinks()).data.find((l) => l.title === 'Bank login');
    assert.ok(saved);
    assert.equal(saved.credentials.length, 2);
    for (const c of saved.credentials) assert.deepEqual(Object.keys(c).sort(), ['ciphertext', 'id', 'iv', 'v']);
    assert.doesNotMatch(JSON.stringify(saved), new RegExp(s.first.username.replace(/[.]/g, '\\.')));

    // With Credentials Only keeps the bank link and drops the plain one.
    await page.getByRole('button', { name: 'With Credentials Only' }).click();
    await page.getByText('Showing 1 of 1 links').waitFor();
    assert.equal(await card(page, 'Plain link without secrets').count(), 0);
    await page.getByRole('button', { name: 'With Credentials Only' }).click();
    await page.getByText('Showing 2 of 2 links').waitFor();

    // 3. A reload locks the vault: the card says credentials exist and offers to unlock.
    await page.reload();
    await bank.getByText('2 saved credentials').waitFor();
    assert.equal(await lockButton(page).count(), 0);
    assert.equal(await bank.getByText(s.first.username).count(), 0);
    await shot('locked-card');
    await bank.getByRole('button', { name: 'Unlock to view' }).click();
    const prompt = page.getByRole('dialog', { name: 'Unlock Your Vault' });
    const masterField = prompt.getByLabel('Master password', { exact: true });
    await masterField.fill(`${s.master}?`);
    await masterField.press('Enter');
    await prompt.getByText('Wrong master password. Please try again.').waitFor();
    assert.equal(await masterField.inputValue(), `${s.master}?`, 'the field keeps what was typed');
    await shot('wrong-master');
    await masterField.fill(s.master);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    await prompt.waitFor({ state: 'detached' });
    await lockButton(page).waitFor();

    // 4. Copy username and password through the real clipboard.
    const first = bank.getByRole('listitem', { name: s.first.username });
    await first.getByText(s.first.note).waitFor();
    await first.getByRole('button', { name: 'Copy username' }).click();
    await toast(page, 'Username copied to clipboard!');
    assert.equal(await clipboard(page), s.first.username);
    await first.getByRole('button', { name: 'Copy password' }).click();
    const copiedAt = Date.now();
    await toast(page, 'Password copied to clipboard!');
    assert.equal(await clipboard(page), s.first.password);
    await shot('unlocked-card');

    // 5. Edit the second credential's password.
    await bank.getByRole('button', { name: 'Edit link' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Link' });
    const stored = edit.getByRole('list', { name: 'Stored credentials' });
    await stored.getByText(s.first.username).waitFor();
    assert.equal(await edit.getByRole('button', { name: 'Save Changes' }).isDisabled(), true);
    await stored.getByRole('button', { name: `Edit credential ${s.second.username}` }).click();
    await edit.getByLabel('Password', { exact: true }).fill(s.secondChanged);
    await edit.getByRole('button', { name: 'Save Credential' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Link updated successfully!');
    await edit.waitFor({ state: 'detached' });

    // 6. Delete the first one, after a confirmation.
    await bank.getByRole('button', { name: 'Edit link' }).click();
    await stored.getByRole('button', { name: `Delete credential ${s.first.username}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete credential?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await stored.getByText(s.first.username).waitFor();
    await stored.getByRole('button', { name: `Delete credential ${s.first.username}` }).click();
    await confirm.getByRole('button', { name: 'Delete Credential' }).click();
    await shot('edit-dialog');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Link updated successfully!');
    await edit.waitFor({ state: 'detached' });
    await bank.getByRole('listitem', { name: s.first.username }).waitFor({ state: 'detached' });
    await bank.getByRole('listitem', { name: s.second.username }).waitFor();

    // 7. Change the master password (in-app navigation keeps this tab's state), lock, unlock.
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.getByRole('link', { name: 'Vault Settings' }).click();
    const change = page.getByRole('form', { name: 'Change master password' });
    await change.getByLabel('Current master password', { exact: true }).fill('not my master password');
    await change.getByLabel('New master password', { exact: true }).fill(s.newMaster);
    await change.getByLabel('Confirm new master password', { exact: true }).fill(s.newMaster);
    await change.getByRole('button', { name: 'Change Master Password' }).click();
    await change.getByText('Wrong master password. Please try again.').waitFor();
    assert.equal(await change.getByLabel('New master password', { exact: true }).inputValue(), s.newMaster);
    await change.getByLabel('Current master password', { exact: true }).fill(s.master);
    await change.getByRole('button', { name: 'Change Master Password' }).click();
    await toast(page, 'Master password changed');
    const changed = (await user.client.getVault()).data;
    assert.ok(changed);
    assert.notEqual(changed.wrappedKey, material.wrappedKey);
    await lockButton(page).click();
    await page.getByText('Locked', { exact: true }).waitFor();
    const unlock = page.getByRole('form', { name: 'Unlock your vault' });
    await unlock.getByLabel('Master password', { exact: true }).fill(s.master);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await unlock.getByText('Wrong master password. Please try again.').waitFor();
    await unlock.getByLabel('Master password', { exact: true }).fill(s.newMaster);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('Unlocked', { exact: true }).waitFor();
    await shot('settings');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await bank
      .getByRole('listitem', { name: s.second.username })
      .getByRole('button', { name: 'Copy username' })
      .waitFor();

    // What the server holds opens with the new master password only, and says what was typed.
    const final = (await user.client.listLinks({ query: { hasCredentials: 'true' } })).data;
    assert.deepEqual(
      final.map((l) => l.title),
      ['Bank login'],
    );
    const link = final[0]!;
    await assert.rejects(unlockVault(s.master, changed), /Wrong master password/);
    const key = await unlockVault(s.newMaster, changed);
    const opened = await Promise.all(
      link.credentials.map((c) => decryptCredential(key, { userId: user.user.id, linkId: link.id }, c)),
    );
    assert.deepEqual(
      opened.map(({ username, password, note }) => ({ username, password, note })),
      [{ username: s.second.username, password: s.secondChanged, note: '' }],
    );

    // 8. Not one byte of any plaintext in the database, nor in the server's log.
    assertNoPlaintext(await o.scan(), s, `${o.label} database`, link);
    for (const needle of needlesOf(s)) assert.equal(o.serverLog().includes(needle), false, `server log: ${needle}`);

    // 9. The clipboard is cleared 30 s after the copy, since it still holds the password.
    if (o.waitForClipboardClear) {
      await page.waitForTimeout(Math.max(0, copiedAt + CLIPBOARD_CLEAR_MS + 1_000 - Date.now()));
      assert.equal(await clipboard(page), '', 'the copied password was cleared');
    }
    assert.deepEqual(w.errors, []);
  } finally {
    if (w.errors.length) writeArtifact(`g-${o.label}.console.txt`, w.errors.join('\n'));
    await screenshot(page, `g-${o.label}-end`).catch(() => undefined);
    await w.close();
  }
}

export function vaultJourneys(ctx: Context): void {
  void describe('g. credential vault', () => {
    void it('SQLite: set up, add two credentials, reload, unlock, copy, edit, delete, change master password; no plaintext on disk', async () => {
      const server = ctx.server();
      await vaultJourney(ctx.browser(), {
        label: 'sqlite',
        baseUrl: server.url,
        scan: () => Promise.resolve(sqliteBytes(server.dataDir)),
        serverLog: server.output,
        waitForClipboardClear: true,
      });
    });

    void describe('on PostgreSQL', () => {
      let pgServer: RunningServer | undefined;
      let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
      let skip: string | undefined;

      before(async () => {
        if (!(await postgresAvailable())) {
          skip = 'PostgreSQL is not reachable at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)';
          console.log(`SKIPPED vault journey on PostgreSQL: ${skip}`);
          return;
        }
        database = await createTestDatabase();
        pgServer = await startServer({ ...WEB_ENV, DATABASE_URL: database.url });
      });
      after(async () => {
        if (pgServer) writeArtifact('server-postgres.log', pgServer.output());
        await pgServer?.stop();
        await database?.drop();
      });

      void it('PostgreSQL: the same journey on a fresh database; no plaintext in any table', async (t) => {
        if (skip) {
          if (process.env.CI === 'true') assert.fail(skip);
          t.skip(skip);
          return;
        }
        assert.ok(pgServer && database);
        const { url } = database;
        await vaultJourney(ctx.browser(), {
          label: 'postgres',
          baseUrl: pgServer.url,
          scan: () => postgresBytes(url),
          serverLog: pgServer.output,
          waitForClipboardClear: false,
        });
      });
    });

    void it('phone width and dark mode: settings, credential form and card fit 360 px; keyboard unlock prompt; reset', async () => {
      const server = ctx.server();
      const user = await registerUser(server.url, 'vault-phone');
      const w = await openPage(ctx.browser(), PHONE);
      try {
        const { page } = w;
        await page.emulateMedia({ colorScheme: 'dark' });
        await signInBrowser(page, server.url, user);
        await page.goto(`${server.url}/vault`);
        await page.getByLabel('Master password', { exact: true }).fill('amber meadow falcon river');
        await page.getByRole('meter').waitFor();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, 'g-phone-dark-setup');
        await page.getByLabel('Confirm master password', { exact: true }).fill('amber meadow falcon river');
        await page.getByLabel('I understand that a forgotten master password cannot be recovered.').check();
        await page.getByRole('button', { name: 'Create Vault' }).click();
        await page.getByText('Unlocked', { exact: true }).waitFor();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, 'g-phone-dark-settings');
        // The narrowest phones: the bar's Lock vault button pushed the account menu off screen.
        await page.setViewportSize({ width: 320, height: 640 });
        await noHorizontalScroll(page, 320);
        await page.getByRole('button', { name: /account menu/ }).click();
        await page.getByRole('menuitem', { name: 'Profile Settings' }).waitFor();
        await page.keyboard.press('Escape');
        await page.setViewportSize(PHONE);

        await page.getByRole('link', { name: 'Dashboard' }).click();
        await page.getByRole('button', { name: 'Add Link', exact: true }).click();
        const add = page.getByRole('dialog', { name: 'Add New Link' });
        await add.getByLabel('URL').fill('https://phone-bank.example/');
        await add.getByLabel('Title (optional)').fill('Phone bank');
        await add.getByRole('button', { name: 'Add Credential' }).click();
        await add.getByLabel('Username').fill('a.very.long.username.for.a.small.screen@phone-bank.example');
        await add.getByLabel('Password', { exact: true }).fill('phone secret 1');
        await add.getByLabel('Note (optional)').fill('joint account');
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, 'g-phone-dark-credential-form');
        await add.getByRole('button', { name: 'Save Credential' }).click();
        await add.getByRole('button', { name: 'Add Link' }).click();
        await toast(page, 'Link added successfully!');
        const c = card(page, 'Phone bank');
        await c.getByRole('button', { name: 'Copy password' }).waitFor();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, 'g-phone-dark-card');

        // Locked inside the add dialog: the unlock prompt opens on top, and the dialog below keeps its input.
        await lockButton(page).click();
        await page.getByRole('button', { name: 'Add Link', exact: true }).click();
        await add.getByLabel('URL').fill('https://second-phone-bank.example/');
        await add.getByRole('button', { name: 'Unlock Vault' }).click();
        const stacked = page.getByRole('dialog', { name: 'Unlock Your Vault' });
        await stacked.getByLabel('Master password', { exact: true }).fill('amber meadow falcon river');
        await stacked.getByRole('button', { name: 'Unlock' }).click();
        await stacked.waitFor({ state: 'detached' });
        assert.equal(await add.getByLabel('URL').inputValue(), 'https://second-phone-bank.example/');
        await add.getByRole('button', { name: 'Add Credential' }).click();
        await add.getByLabel('Username').fill('second');
        await page.keyboard.press('Escape');
        await page
          .getByRole('alertdialog', { name: 'Discard changes?' })
          .getByRole('button', { name: 'Discard Changes' })
          .click();
        await add.waitFor({ state: 'detached' });

        // Keyboard only: the unlock prompt traps focus and Escape closes it.
        await lockButton(page).click();
        await c.getByRole('button', { name: 'Unlock to view' }).focus();
        await page.keyboard.press('Enter');
        const prompt = page.getByRole('dialog', { name: 'Unlock Your Vault' });
        await prompt.waitFor();
        const focusedInPrompt = () =>
          page.evaluate<boolean>(
            `Boolean(document.querySelector('[role="dialog"]')?.contains(document.activeElement))`,
          );
        assert.equal(await focusedInPrompt(), true, 'focus moved into the dialog');
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press('Tab');
          assert.equal(await focusedInPrompt(), true, 'Tab stays inside the dialog');
        }
        await screenshot(page, 'g-phone-dark-unlock');
        await page.keyboard.press('Escape');
        await prompt.waitFor({ state: 'detached' });

        // Reset: only after the word is typed; every credential goes, the link stays.
        await page.getByRole('button', { name: /account menu/ }).click();
        await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
        await page.getByRole('link', { name: 'Vault Settings' }).click();
        await page.getByRole('button', { name: 'Reset Vault' }).click();
        const reset = page.getByRole('dialog', { name: 'Reset vault?' });
        const confirmReset = reset.getByRole('button', { name: 'Delete All Credentials' });
        assert.equal(await confirmReset.isDisabled(), true);
        await reset.getByLabel('Type RESET to confirm').fill('reset it');
        assert.equal(await confirmReset.isDisabled(), true);
        await reset.getByLabel('Type RESET to confirm').fill('RESET');
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, 'g-phone-dark-reset');
        await confirmReset.click();
        await toast(page, 'Vault reset. All stored credentials were deleted.');
        await page.getByText('Not set up', { exact: true }).waitFor();
        const [after] = (await user.client.listLinks()).data;
        assert.equal(after?.title, 'Phone bank');
        assert.deepEqual(after?.credentials, []);
        assert.equal((await user.client.getVault()).data, null);
        await page.getByRole('link', { name: 'Dashboard' }).click();
        await card(page, 'Phone bank').waitFor();
        // The list refetches (it was invalidated by the reset): the credential summary goes away.
        await card(page, 'Phone bank')
          .getByText(/saved credential/)
          .waitFor({ state: 'detached' });
        assert.deepEqual(w.errors, []);
      } finally {
        await w.close();
      }
    });
  });
}
