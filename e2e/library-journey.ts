// The library as a daily tool in real Chromium, at desktop width and at 390 px: a failed analysis
// shows its reason and Retry analysis succeeds; filters that match nothing say so and Clear filters
// brings the links back; reload and back/forward keep filters and search; a tag on a card filters by
// it; the tag manager renames and merges (links follow, counts right); bulk set category and delete
// with undo; every keyboard shortcut; opens counted (Enter and middle-click) and shown on Profile with
// the month's searches; toasts clear of Add Link and, on a phone, of an open dialog; at 390 px the
// focus stays in view as Tab wraps in a dialog and tag names keep their row; per-route titles; axe.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Link } from '@linkwise/contract';
import type { Browser, Page } from 'playwright-core';
import {
  openPage,
  registerUser,
  screenshot,
  signInBrowser,
  startServer,
  waitForFocus,
  writeArtifact,
  type RunningServer,
  type WatchedPage,
} from './harness.js';

interface Context {
  browser: () => Browser;
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAHklEQVR42mNk+M9Qz0AEYBxVSF+FjKMKR2PQ0BQCAJ1VFQF4l8wGAAAAAElFTkSuQmCC',
  'base64',
);

/** Loopback pages for the links: each a small article with an icon; `/flaky` answers 404 until told otherwise. */
async function servePages(): Promise<{ base: string; server: Server; heal: () => void }> {
  let healed = false;
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/icon.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    if (url === '/flaky' && !healed) {
      res.statusCode = 404;
      return res.end('not here');
    }
    const name = decodeURIComponent(url.slice(1)) || 'home';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>${name} page</title><link rel="icon" href="/icon.png">` +
        `<meta name="description" content="A page about ${name}."></head><body><article><h1>${name}</h1>` +
        `<p>Notes about ${name}, written to be saved and found again.</p></article></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    heal: () => (healed = true),
  };
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

async function toast(page: Page, message: string | RegExp) {
  await page.locator('[data-sonner-toast]', { hasText: message }).first().waitFor();
}

/** Polls in Node (the app's CSP forbids the eval waitForFunction needs). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast just shown does not cover the Add Link button. */
async function toastClearOfAddLink(page: Page) {
  // Measured where it rests: a toast slides in from above for about 400 ms.
  await page.waitForTimeout(800);
  const addLink = await page.getByRole('button', { name: 'Add Link', exact: true }).boundingBox();
  const shown = await page.locator('[data-sonner-toast]').first().boundingBox();
  assert.ok(addLink && shown, 'Add Link and a toast are on screen');
  assert.ok(!overlaps(addLink, shown), `toast ${JSON.stringify(shown)} covers Add Link ${JSON.stringify(addLink)}`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (WCAG 2 A/AA rules); serious and critical violations fail. */
async function axe(page: Page, label: string): Promise<void> {
  // Through the debugger: the app's Content-Security-Policy rightly refuses an inline script tag.
  await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target })) })))`,
  );
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  writeArtifact(`library-axe-${label}.json`, JSON.stringify(violations, null, 2));
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe on ${label}`,
  );
}

export function libraryJourneys(ctx: Context): void {
  void describe('library: failures, filters, tags, bulk actions, shortcuts, counts', () => {
    let server: RunningServer;
    let pages: Awaited<ReturnType<typeof servePages>>;
    let user: Awaited<ReturnType<typeof registerUser>>;
    let w: WatchedPage;
    const titles = {
      flaky: 'Flaky page',
      alpha: 'Alpha garden',
      beta: 'Beta kitchen',
      gamma: 'Gamma orbit',
      delta: 'Delta river',
      epsilon: 'Epsilon forest',
    };

    const linkByTitle = async (title: string): Promise<Link | undefined> =>
      (await user.client.listLinks({ query: { limit: 100 } })).data.find((l) => l.title === title);

    before(async () => {
      pages = await servePages();
      server = await startServer({ BILLING: 'off', FETCH_ALLOW_PRIVATE: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
      user = await registerUser(server.url, 'library');
      const seed = [
        { url: `${pages.base}/flaky`, title: titles.flaky, category: 'Reading', tags: ['later'] },
        { url: `${pages.base}/alpha`, title: titles.alpha, category: 'Home', tags: ['garden', 'tutorial'] },
        { url: `${pages.base}/beta`, title: titles.beta, category: 'Home', tags: ['cooking', 'tutorials'] },
        { url: `${pages.base}/gamma`, title: titles.gamma, category: 'Science', tags: ['space', 'Tutorial-s'] },
        { url: `${pages.base}/delta`, title: titles.delta, category: 'Science', tags: ['water'] },
        { url: `${pages.base}/epsilon`, title: titles.epsilon, category: 'Home', tags: ['garden'] },
      ];
      for (const body of seed) await user.client.createLink({ body });
      // Every analysis has run: five done, the 404 page failed at its first attempt.
      await eventually(
        async () => (await user.client.listLinks({ query: { limit: 100 } })).data.map((l) => l.analysisStatus),
        (s) => s.length === seed.length && !s.includes('pending'),
        'the seeded links to be analysed',
      );
      w = await openPage(ctx.browser(), DESKTOP);
      await signInBrowser(w.page, server.url, { token: user.token, user: user.user });
    });

    after(async () => {
      if (w) {
        await screenshot(w.page, 'library-end').catch(() => undefined);
        if (w.errors.length) writeArtifact('library.console.txt', w.errors.join('\n'));
        await w.close();
      }
      if (server) writeArtifact('library-server.log', server.output());
      await server?.stop();
      await new Promise<void>((resolve) => pages.server.close(() => resolve()));
    });

    void it('a failed analysis shows its reason; Retry analysis succeeds; cards show icon, domain and saved date', async () => {
      const { page } = w;
      await page.goto(`${server.url}/dashboard`);
      assert.equal(await page.title(), 'Your Links · Linkwise');
      const flaky = card(page, titles.flaky);
      await flaky.getByText('Analysis failed: The page answered 404 (not found)').waitFor();
      const alpha = card(page, titles.alpha);
      assert.match((await alpha.innerText()).replace(/\s+/g, ' '), /127\.0\.0\.1 · Saved [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      const icon = await alpha.locator('img').getAttribute('src');
      assert.ok(icon?.startsWith('data:image/png;base64,'), `icon is a data URL: ${icon?.slice(0, 40)}`);
      await screenshot(page, 'library-failed');

      pages.heal();
      await flaky.getByRole('button', { name: 'Retry analysis' }).click();
      await flaky.getByText(/Analyzing link\.\.\.\s*since/).waitFor();
      await flaky.getByText('Analysis failed').waitFor({ state: 'detached', timeout: 20_000 });
      await flaky.getByText('Analyzing link...').waitFor({ state: 'detached', timeout: 20_000 });
      assert.equal((await linkByTitle(titles.flaky))?.analysisStatus, 'done');
    });

    void it('filters that match nothing say so; the address keeps them over a reload; Clear filters', async () => {
      const { page } = w;
      await page.getByLabel('Category').selectOption('Reading');
      await page.getByLabel('Status').selectOption({ label: 'Read' });
      await page.getByRole('heading', { name: 'No links match these filters' }).waitFor();
      assert.equal(await page.getByText(/Showing 0 of/).count(), 0);
      assert.equal(await page.getByText('Add Your First Link').count(), 0);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('category'), 'Reading');
      assert.equal(url.searchParams.get('status'), 'read');
      await page.reload();
      await page.getByRole('heading', { name: 'No links match these filters' }).waitFor();
      assert.equal(await page.getByLabel('Category').inputValue(), 'Reading');
      assert.equal(await page.getByLabel('Status').inputValue(), 'read');
      await screenshot(page, 'library-filter-empty');
      // Back undoes the last filter change.
      await page.goBack();
      await page.getByText('Showing 1 of 1 links').waitFor();
      await page.goForward();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText('Showing 6 of 6 links · Newest First').waitFor();

      await page.getByLabel('Sort by').selectOption({ label: 'Title (A-Z)' });
      await page.reload();
      await page.getByText('Showing 6 of 6 links · Title (A-Z)').waitFor();
      assert.equal(new URL(page.url()).searchParams.get('sort'), 'title-asc');
      await page.getByLabel('Sort by').selectOption({ label: 'Newest First' });
    });

    void it('a tag on a card filters by it; search is in the address; back returns', async () => {
      const { page } = w;
      await card(page, titles.alpha).getByRole('button', { name: 'Show links tagged garden' }).click();
      await page.getByText('Found 2 results using smart search for tag: #garden').waitFor();
      assert.equal(await page.getByLabel('Search links').inputValue(), '#garden');
      assert.equal(new URL(page.url()).searchParams.get('q'), '#garden');
      await page.reload();
      await page.getByText('Found 2 results using smart search for tag: #garden').waitFor();
      await page.goBack();
      await page.getByText('Showing 6 of 6 links').waitFor();
      assert.equal(await page.getByLabel('Search links').inputValue(), '');
    });

    void it('the tag manager renames and merges tags; the links follow and the counts add up', async () => {
      const { page } = w;
      await page.getByRole('button', { name: 'Manage tags' }).click();
      const dialog = page.getByRole('dialog', { name: 'Tags and categories' });
      await dialog.getByText('These look like the same tag').waitFor();
      await screenshot(page, 'library-tags');
      // Rename: garden → gardening.
      await dialog.getByRole('button', { name: 'Rename garden' }).click();
      await dialog.getByLabel('New name for garden').fill('gardening');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Renamed to #gardening');
      await dialog.getByText('#gardening · 2 links').waitFor();
      // Merge from the suggestions: tutorials and Tutorial-s into tutorial.
      await dialog.getByRole('button', { name: 'Merge tutorials into tutorial' }).click();
      await toast(page, 'Merged into #tutorial');
      await dialog.getByRole('button', { name: 'Merge Tutorial-s into tutorial' }).click();
      await dialog.getByText('#tutorial · 3 links').waitFor();
      // Merge by hand: water into space.
      await dialog.getByRole('button', { name: 'Merge water' }).click();
      await dialog.getByLabel('Merge #water into').selectOption('space');
      await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
      await dialog.getByText('#space · 2 links').waitFor();
      // Categories, by the keyboard's way between tabs: rename Science into Home (a merge).
      await dialog.getByRole('tab', { name: 'Tags' }).focus();
      await page.keyboard.press('ArrowRight');
      await dialog.locator('[role="tab"][aria-selected="true"]', { hasText: 'Categories' }).waitFor();
      await dialog.getByRole('tabpanel', { name: 'Categories' }).waitFor();
      await dialog.getByRole('button', { name: 'Merge Science' }).click();
      await dialog.getByLabel('Merge Science into').selectOption('Home');
      await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
      await toast(page, '2 links now in Home');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      const links = (await user.client.listLinks({ query: { limit: 100 } })).data;
      const tagsOf = (title: string) => links.find((l) => l.title === title)?.tags;
      assert.deepEqual(tagsOf(titles.alpha), ['gardening', 'tutorial']);
      assert.deepEqual(tagsOf(titles.beta), ['cooking', 'tutorial']);
      assert.deepEqual(tagsOf(titles.gamma), ['space', 'tutorial']);
      assert.deepEqual(tagsOf(titles.delta), ['space']);
      assert.equal(links.filter((l) => l.category === 'Home').length, 5);
      await card(page, titles.gamma).getByRole('button', { name: 'Show links tagged tutorial' }).waitFor();
    });

    void it('bulk: shift-click a range, set the category; delete with confirmation, undo, then delete', async () => {
      const { page } = w;
      // On a phone, a card ticked at the bottom of the list keeps the bar in sight (under the header).
      const size = page.viewportSize();
      await page.setViewportSize({ width: 375, height: 740 });
      await page.getByLabel(`Select ${titles.alpha}`).scrollIntoViewIfNeeded();
      await page.getByLabel(`Select ${titles.alpha}`).click();
      const shown = await page.getByRole('toolbar', { name: 'Selected links' }).boundingBox();
      assert.ok(
        shown && shown.y >= 64 && shown.y + shown.height <= 740,
        `the bar is in view: ${JSON.stringify(shown)}`,
      );
      await page.getByRole('toolbar', { name: 'Selected links' }).getByRole('button', { name: 'Clear' }).click();
      if (size) await page.setViewportSize(size);
      await page.getByLabel(`Select ${titles.epsilon}`).click();
      await page.getByLabel(`Select ${titles.gamma}`).click({ modifiers: ['Shift'] });
      const bar = page.getByRole('toolbar', { name: 'Selected links' });
      await bar.getByText('3 selected').waitFor();
      await screenshot(page, 'library-bulk');
      await bar.getByRole('button', { name: 'Set category' }).click();
      const ask = page.getByRole('dialog', { name: 'Set category' });
      await ask.getByLabel('Category').fill('Weekend');
      await ask.getByRole('button', { name: 'Apply' }).click();
      await toast(page, '3 links updated');
      await toastClearOfAddLink(page);
      for (const title of [titles.epsilon, titles.delta, titles.gamma]) {
        await card(page, title).getByText('Weekend', { exact: true }).waitFor();
      }
      assert.equal(await card(page, titles.beta).getByText('Weekend', { exact: true }).count(), 0);

      await page.getByLabel(`Select ${titles.delta}`).click();
      await page.getByLabel(`Select ${titles.gamma}`).click();
      await bar.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete 2 links?' }).getByRole('button', { name: 'Delete' }).click();
      await card(page, titles.delta).waitFor({ state: 'detached' });
      await toast(page, '2 links deleted');
      // By keyboard, as the shortcuts dialog says: Alt+T goes to the notifications, Tab to Undo.
      await page.keyboard.press('Alt+KeyT');
      const focusedText = () => page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');
      for (let i = 0; i < 4 && (await focusedText()) !== 'Undo'; i++) await page.keyboard.press('Tab');
      assert.equal(await focusedText(), 'Undo');
      // Held in focus, the toast waits past its time: Undo still undoes (the delete was sent at 6 s).
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      await page.keyboard.press('Enter');
      await toast(page, '2 links restored');
      await card(page, titles.delta).waitFor();
      await card(page, titles.gamma).waitFor();
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      assert.ok(await linkByTitle(titles.delta), 'undone: the link is still saved');

      await page.getByLabel(`Select ${titles.delta}`).click();
      await bar.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete 1 link?' }).getByRole('button', { name: 'Delete' }).click();
      await card(page, titles.delta).waitFor({ state: 'detached' });
      await eventually(
        () => linkByTitle(titles.delta),
        (l) => l === undefined,
        'the deletion after the undo time',
      );
      await page.reload();
      await page.getByText('Showing 5 of 5 links').waitFor();

      // Leaving the page while Undo is offered still deletes what the user confirmed.
      await user.client.createLink({ body: { url: `${pages.base}/leaving`, title: 'Leaving soon' } });
      await page.reload();
      await page.getByLabel('Select Leaving soon').click();
      await bar.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete 1 link?' }).getByRole('button', { name: 'Delete' }).click();
      await card(page, 'Leaving soon').waitFor({ state: 'detached' });
      await page.reload();
      await eventually(
        () => linkByTitle('Leaving soon'),
        (l) => l === undefined,
        'the deletion sent as the page went',
      );
      await page.reload();
      await page.getByText('Showing 5 of 5 links').waitFor();
    });

    void it('every shortcut, and opens counted (Enter, middle-click) and shown on Profile with searches', async () => {
      const { page, context } = w;
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('/');
      assert.equal(await page.evaluate<string>('document.activeElement?.id ?? ""'), 'link-search');
      // Typing in a field does not fire shortcuts.
      await page.keyboard.type('nx');
      assert.equal(await page.getByRole('dialog').count(), 0);
      // Once the search is sent (it follows into the address), so no late one lands between the Escapes.
      await eventually(
        () => Promise.resolve(new URL(page.url()).searchParams.get('q')),
        (q) => q === 'nx',
        'the search in the address',
      );
      // Escape clears the box; a second Escape leaves it, and the shortcuts answer again.
      await page.keyboard.press('Escape');
      assert.equal(await page.getByLabel('Search links').inputValue(), '');
      assert.equal(await page.evaluate<string>('document.activeElement?.id ?? ""'), 'link-search');
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate<string>('document.activeElement?.id ?? ""'), '');

      await page.keyboard.press('n');
      const adding = page.getByRole('dialog', { name: 'Add New Link' });
      await adding.waitFor();
      // A link already saved, sent from the Add button by keyboard: the address is marked and focused.
      await adding.getByLabel('URL').fill(`${pages.base}/beta`);
      await adding.getByRole('button', { name: 'Add Link' }).focus();
      await page.keyboard.press('Enter');
      await adding.getByText('You have already saved this link.').waitFor();
      await waitForFocus(adding.getByLabel('URL'));
      assert.equal(await adding.getByLabel('URL').getAttribute('aria-invalid'), 'true');
      await page.keyboard.press('Escape');
      await page
        .getByRole('alertdialog', { name: 'Discard changes?' })
        .getByRole('button', { name: 'Discard Changes' })
        .click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      // Shortcuts stay quiet while any dialog is open: the confirmation can outlive the form a moment,
      // and the address keeps ?add= until the dashboard has taken the closed form out of it.
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await page.waitForFunction(
        `!new URL(location.href).searchParams.has('add') && !document.querySelector('[role="dialog"], [role="alertdialog"]')`,
      );
      // The search box was left on purpose before the form opened: the focus is not handed back to it.
      assert.notEqual(await page.evaluate<string>('document.activeElement?.id ?? ""'), 'link-search');

      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.getByText('Select or unselect the link').waitFor();
      await screenshot(page, 'library-shortcuts');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      const focusedTitle = () =>
        page.evaluate<string | null>('document.activeElement?.getAttribute("aria-label") ?? null');
      const order = await Promise.all((await page.getByRole('article').all()).map((a) => a.getAttribute('aria-label')));
      await page.keyboard.press('j');
      assert.equal(await focusedTitle(), order[0]);
      await page.keyboard.press('j');
      assert.equal(await focusedTitle(), order[1]);
      await page.keyboard.press('ArrowDown');
      assert.equal(await focusedTitle(), order[2]);
      await page.keyboard.press('k');
      await page.keyboard.press('ArrowUp');
      assert.equal(await focusedTitle(), order[0]);

      await page.keyboard.press('x');
      assert.equal(await page.getByLabel(`Select ${order[0]}`).isChecked(), true);
      await page.keyboard.press('Escape');
      assert.equal(await page.getByLabel(`Select ${order[0]}`).isChecked(), false);

      // An action of the bar, by keyboard: the keyboard comes back to the card the selection was made
      // at (the bar closes under it), not to the top of the page.
      await page.keyboard.press('j');
      await page.keyboard.press('x');
      const bar = page.getByRole('toolbar', { name: 'Selected links' });
      await bar.getByRole('button', { name: 'Mark read' }).focus();
      await page.keyboard.press('Enter');
      await bar.waitFor({ state: 'detached' });
      await eventually(focusedTitle, (label) => label === `Select ${order[1]}`, 'the keyboard back at the card');

      await page.keyboard.press('e');
      await page.getByRole('dialog', { name: 'Edit Link' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      // The dialog hands the keyboard back where it was opened a moment after it is gone; a card
      // focused before that would lose it again.
      await eventually(focusedTitle, (label) => label === `Select ${order[1]}`, 'the keyboard back after Edit');

      const before = (await user.client.usageCounts()).data.totalClicks;
      await card(page, order[0]!).focus();
      const [opened] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
      await opened.close();
      await eventually(
        async () => (await user.client.usageCounts()).data.totalClicks,
        (n) => n === before + 1,
        'Enter to count',
      );
      const [middle] = await Promise.all([
        context.waitForEvent('page'),
        card(page, order[1]!).getByRole('link').click({ button: 'middle' }),
      ]);
      await middle.close();
      await eventually(
        async () => (await user.client.usageCounts()).data.totalClicks,
        (n) => n === before + 2,
        'middle-click to count',
      );

      const searches = (await user.client.usageCounts()).data.searchesThisMonth;
      assert.ok(searches >= 1, `searches counted: ${searches}`);
      await page.goto(`${server.url}/profile`);
      assert.equal(await page.title(), 'Profile · Linkwise');
      const stat = (label: string) =>
        page.locator('dl div', { has: page.getByText(label, { exact: true }) }).locator('dd');
      await eventually(
        () => stat('Total Clicks').innerText(),
        (t) => t === String(before + 2),
        'Total Clicks on Profile',
      );
      assert.equal(await stat('Searches This Month').innerText(), String(searches));
      await screenshot(page, 'library-profile');
    });

    void it('at 390 px: filters empty state, tag filter, bulk bar, add dialog with a bare domain, toasts clear', async () => {
      const phone = await openPage(ctx.browser(), PHONE);
      try {
        const { page } = phone;
        await signInBrowser(page, server.url, { token: user.token, user: user.user });
        await page.goto(`${server.url}/dashboard?category=Reading&status=read`);
        await page.getByRole('heading', { name: 'No links match these filters' }).waitFor();
        await screenshot(page, 'library-phone-filter-empty');
        await page.getByRole('button', { name: 'Clear filters' }).click();
        await page.getByText('Showing 5 of 5 links').waitFor();

        await card(page, titles.alpha).getByRole('button', { name: 'Show links tagged gardening' }).click();
        await page.getByText('Found 2 results using smart search for tag: #gardening').waitFor();
        await page.getByLabel(`Select ${titles.alpha}`).click();
        await page.getByRole('toolbar', { name: 'Selected links' }).getByText('1 selected').waitFor();
        await screenshot(page, 'library-phone-bulk');
        await page.getByLabel(`Select ${titles.alpha}`).click();
        await page.getByLabel('Search links').fill('');
        await page.getByText('Showing 5 of 5 links').waitFor();

        await page.getByRole('button', { name: 'Add Link', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Add New Link' });
        const url = dialog.getByLabel('URL');
        assert.equal(await url.getAttribute('type'), 'url');
        const submit = dialog.getByRole('button', { name: 'Add Link' });
        const box = await submit.boundingBox();
        assert.ok(box && box.y + box.height <= PHONE.height, `submit in view: ${JSON.stringify(box)}`);
        await url.fill('example.com/from-a-phone');
        await screenshot(page, 'library-phone-add');
        await submit.click();
        await toast(page, 'Link added successfully!');
        await toastClearOfAddLink(page);
        const added = (await user.client.listLinks({ query: { limit: 100 } })).data.find((l) =>
          l.url.includes('/from-a-phone'),
        );
        assert.equal(added?.url, 'https://example.com/from-a-phone');
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        assert.ok(width <= PHONE.width, `no horizontal scroll at 390 px: ${width}`);
      } finally {
        await screenshot(phone.page, 'library-phone').catch(() => undefined);
        await phone.close();
      }
    });

    void it('at 390 px: toasts clear of an open dialog; Tab keeps the focus in view; tag names keep their width', async () => {
      const phone = await openPage(ctx.browser(), PHONE);
      try {
        const { page } = phone;
        // Signed in through the form: "Welcome back!" is still up when Add Link opens.
        await page.goto(`${server.url}/login`);
        await page.getByLabel('Email').fill(user.user.email);
        await page.getByLabel('Password', { exact: true }).fill('e2e-password-1');
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard');
        await page.getByRole('button', { name: 'Add Link', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Add New Link' });
        await dialog.getByLabel('Title (optional)').waitFor();
        const clearOfDialog = async (message: string) => {
          const shown = page.locator('[data-sonner-toast]', { hasText: message }).first();
          await shown.waitFor();
          await page.waitForTimeout(800); // where it rests, after sliding in
          const [box, panel] = [await shown.boundingBox(), await dialog.boundingBox()];
          assert.ok(box && panel, `the "${message}" toast and the dialog are on screen`);
          assert.ok(!overlaps(box, panel), `toast ${JSON.stringify(box)} covers the dialog ${JSON.stringify(panel)}`);
        };
        await clearOfDialog('Welcome back!');
        await screenshot(page, 'library-phone-welcome-over-add');
        // A toast the dialog raises itself stays readable too (above the overlay, beside the panel).
        await dialog.getByRole('button', { name: 'Analyze' }).click();
        await clearOfDialog('Please enter a URL first');

        // Tab through the form to the last button; the trap's wrap to Close lands in view.
        const focused = () =>
          page.evaluate<{ label: string; top: number; bottom: number; onTop: boolean }>(
            `(() => { const e = document.activeElement; const r = e.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return { label: e.getAttribute('aria-label') || e.textContent.trim(), top: r.top, bottom: r.bottom,
                onTop: !!hit && (hit === e || e.contains(hit)) }; })()`,
          );
        const inView = (f: Awaited<ReturnType<typeof focused>>) => f.top >= 0 && f.bottom <= PHONE.height && f.onTop;
        let at = await focused();
        for (let i = 0; i < 30 && at.label !== 'Cancel'; i++) {
          await page.keyboard.press('Tab');
          at = await focused();
          assert.ok(inView(at), `Tab to ${at.label} keeps it in view: ${JSON.stringify(at)}`);
        }
        assert.equal(at.label, 'Cancel', 'Cancel is the last control');
        await page.keyboard.press('Tab');
        at = await focused();
        assert.equal(at.label, 'Close');
        assert.ok(inView(at), `Close has the focus and is in view: ${JSON.stringify(at)}`);
        await screenshot(page, 'library-phone-add-tab-wrap');
        await page.keyboard.press('Shift+Tab');
        at = await focused();
        assert.equal(at.label, 'Cancel');
        assert.ok(inView(at), `Shift+Tab back to Cancel: ${JSON.stringify(at)}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        // The tag manager: each name has its row to itself, on one line; the actions sit below it.
        await page.getByRole('button', { name: 'Manage tags' }).click();
        const tags = page.getByRole('dialog', { name: 'Tags and categories' });
        const rows = tags.getByRole('list', { name: 'Tags' }).getByRole('listitem');
        await rows.first().waitFor();
        await screenshot(page, 'library-phone-tags');
        const listed = (await user.client.listTags()).data;
        assert.equal(await rows.count(), listed.length);
        for (const tag of listed) {
          const row = rows.filter({ has: page.getByRole('button', { name: `Rename ${tag.name}`, exact: true }) });
          const name = row.getByTitle(`#${tag.name}`, { exact: true });
          const [nameBox, renameBox, rowBox] = [
            await name.boundingBox(),
            await row.getByRole('button', { name: `Rename ${tag.name}` }).boundingBox(),
            await row.boundingBox(),
          ];
          assert.ok(nameBox && renameBox && rowBox, `#${tag.name}: name, Rename and row on screen`);
          assert.ok(nameBox.height <= 24, `#${tag.name} on one line: ${JSON.stringify(nameBox)}`);
          assert.ok(renameBox.y >= nameBox.y + nameBox.height, `#${tag.name}: the actions wrap below the name`);
          assert.ok(nameBox.x + nameBox.width <= rowBox.x + rowBox.width + 0.5, `#${tag.name} fits its row`);
        }
        // Merge on a phone: the target list gets the row's width, not what the sentence leaves of it.
        const mergeTag = listed[0]!;
        await tags.getByRole('button', { name: `Merge ${mergeTag.name}`, exact: true }).click();
        const into = tags.getByLabel(`Merge #${mergeTag.name} into`);
        const intoBox = await into.boundingBox();
        assert.ok(intoBox && intoBox.width >= 200, `the merge target list is usable: ${JSON.stringify(intoBox)}`);
        await into.press('Escape');
        await waitForFocus(tags.getByRole('button', { name: `Merge ${mergeTag.name}`, exact: true }));
        // At desktop width the actions sit beside the name as before.
        await page.setViewportSize(DESKTOP);
        const first = listed[0]!;
        const row = rows.filter({ has: page.getByRole('button', { name: `Rename ${first.name}`, exact: true }) });
        const nameBox = await row.getByTitle(`#${first.name}`, { exact: true }).boundingBox();
        const renameBox = await row.getByRole('button', { name: `Rename ${first.name}` }).boundingBox();
        assert.ok(nameBox && renameBox);
        assert.ok(renameBox.x > nameBox.x + nameBox.width, 'desktop: Rename to the right of the name');
        assert.ok(renameBox.y < nameBox.y + nameBox.height, 'desktop: Rename on the name’s line');
        await page.keyboard.press('Escape');
      } finally {
        await screenshot(phone.page, 'library-phone-dialogs').catch(() => undefined);
        await phone.close();
      }
    });

    void it('keeps the focused control clear of the sticky navbar and bulk bar, going backwards', async () => {
      // On a phone the cards stand in one column, so walking back scrolls the page up under the bars.
      const phone = await openPage(ctx.browser(), PHONE);
      try {
        const { page } = phone;
        // Without smooth scrolling, each look sees where the page rests, not a frame of the way there.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await signInBrowser(page, server.url, { token: user.token, user: user.user });
        await page.goto(`${server.url}/dashboard`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        /** The focused control when something sticky lies over it (the skip link floats over all on purpose). */
        const hidden = () =>
          page.evaluate<string | null>(`(() => {
            const e = document.activeElement;
            const stuck = [...document.querySelectorAll('header, [role="toolbar"][aria-label="Selected links"]')];
            if (!e || e === document.body || e.matches('a[href="#main"]') || stuck.some((s) => s.contains(e))) return null;
            const r = e.getBoundingClientRect();
            const over = stuck.map((s) => s.getBoundingClientRect()).find((b) => r.top < b.bottom - 1 && r.bottom > b.top + 1);
            return r.height > 0 && over ? (e.getAttribute('aria-label') || e.textContent || e.tagName).trim().slice(0, 40) + ' at ' + Math.round(r.top) + ' under ' + Math.round(over.top) + '–' + Math.round(over.bottom) : null;
          })()`);
        const walkBack = async (label: string) => {
          await page.locator('main button, main a[href], main input').last().focus();
          const found: string[] = [];
          for (let i = 0; i < 60; i++) {
            await page.keyboard.press('Shift+Tab');
            await page.waitForTimeout(30);
            const under = await hidden();
            if (under) found.push(under);
          }
          assert.deepEqual(found, [], `${label}: focused controls hidden under what sticks`);
        };
        await walkBack('the dashboard');
        await page.locator('input[aria-label^="Select "]').first().click();
        await page.getByRole('toolbar', { name: 'Selected links' }).waitFor();
        await walkBack('with the bulk bar');
      } finally {
        await phone.close();
      }
    });

    void it('axe finds no serious violation on any page', async () => {
      const { page } = w;
      const signedIn = ['/dashboard', '/profile', '/vault', '/pricing'];
      const pub = ['/', '/login', '/register', '/privacy', '/terms', '/contact', '/about', '/security', '/status'];
      for (const path of signedIn) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await axe(page, path.slice(1) || 'home');
      }
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('button', { name: 'Manage tags' }).click();
      await page.getByRole('dialog', { name: 'Tags and categories' }).getByRole('list', { name: 'Tags' }).waitFor();
      await axe(page, 'dashboard-tags');
      await page.keyboard.press('Escape');
      const visitor = await openPage(ctx.browser(), DESKTOP);
      try {
        for (const path of pub) {
          await visitor.page.goto(`${server.url}${path}`);
          await visitor.page.getByRole('heading', { level: 1 }).first().waitFor();
          await axe(visitor.page, path.slice(1) || 'landing');
        }
      } finally {
        await visitor.close();
      }
    });

    void it('axe finds none in dark mode either, nor with a toast, an API token or the skip link on screen', async () => {
      await user.client.createApiToken({ body: { name: 'Reading script', scope: 'read' } });
      const dark = await openPage(ctx.browser(), DESKTOP, 'dark');
      try {
        const { page } = dark;
        await signInBrowser(page, server.url, { token: user.token, user: user.user });
        for (const path of ['/dashboard', '/profile', '/vault', '/pricing', '/import', '/privacy', '/contact']) {
          await page.goto(`${server.url}${path}`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await axe(page, `dark-${path.slice(1)}`);
        }
        // Shown only while focused: the first Tab stop of every page.
        await page.keyboard.press('Tab');
        await page.getByRole('link', { name: 'Skip to content' }).waitFor();
        await axe(page, 'dark-skip-link');
        await page.goto(`${server.url}/dashboard`);
        await page.locator('input[aria-label^="Select "]').first().click();
        await page.getByRole('toolbar', { name: 'Selected links' }).getByRole('button', { name: 'Mark read' }).click();
        await page.locator('[data-sonner-toast]').first().waitFor();
        await axe(page, 'dark-toast');
      } finally {
        await dark.close();
      }
      // Toasts in light mode (the first journeys' pages never had one on screen while axe ran).
      const { page } = w;
      await page.goto(`${server.url}/dashboard`);
      await page.locator('input[aria-label^="Select "]').first().click();
      await page.getByRole('toolbar', { name: 'Selected links' }).getByRole('button', { name: 'Mark unread' }).click();
      await page.locator('[data-sonner-toast]').first().waitFor();
      await axe(page, 'toast');
    });
  });
}
