// Import and export in real Chromium: a browser's bookmarks file through the /import screen (file
// picker, detected format, preview with the mapping, progress that survives a reload, the report
// downloaded as CSV), an imported link found by search, then the JSON export downloaded from
// Profile; the screen at 390 px and the file picker from the keyboard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openPage, registerUser, ROOT, screenshot, signInBrowser, writeArtifact, type WatchedPage } from './harness.js';

interface Context {
  baseUrl: () => string;
  browser: () => Browser;
}

const BOOKMARKS = path.join(ROOT, 'apps', 'server', 'test', 'fixtures', 'imports', 'chrome-bookmarks.html');

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(file, 'utf8') };
}

export function importJourneys(ctx: Context): void {
  void describe('h. import and export', () => {
    let w: WatchedPage;
    before(async () => {
      w = await openPage(ctx.browser());
    });
    after(async () => {
      if (w.errors.length) writeArtifact('h-import.console.txt', w.errors.join('\n'));
      await w.close();
    });

    void it('imports a browser export through the screen, searches it, and downloads the report and an export', async () => {
      const { page } = w;
      const user = await registerUser(ctx.baseUrl(), 'import');
      await signInBrowser(page, ctx.baseUrl(), user);
      await page.goto(`${ctx.baseUrl()}/dashboard`);
      await page.getByRole('button', { name: /account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Import / Export' }).click();
      await page.getByRole('heading', { level: 1, name: 'Import links' }).waitFor();
      // "Import / Export" keeps its word: the exports are on this page too.
      await page.getByRole('button', { name: 'Export JSON' }).waitFor();

      await page.locator('input[type=file]').setInputFiles(BOOKMARKS);
      await page.getByTestId('detected-format').getByText('Browser bookmarks (Netscape HTML)').waitFor();
      const preview = page.getByRole('table');
      await preview.getByText('Research Papers').waitFor();
      await preview.getByText('Skipped: Not a web address (javascript: links are not imported)').waitFor();
      await preview.getByText('Appears earlier in this file: skipped').waitFor();
      await page.getByRole('radio', { name: 'Category: the innermost folder' }).waitFor();
      // Before anything is sent, the screen says how much the plan can still take.
      await page.getByText('Your Free plan has room for 5 more links').waitFor();
      await preview.getByText('The first 8 items of the file, as they will be saved').waitFor();
      await screenshot(page, 'h-import-preview');
      await page.getByRole('button', { name: 'Import', exact: true }).click();

      await page.waitForURL((u) => u.searchParams.has('id'));
      await page.getByRole('heading', { name: /^Import finished/ }).waitFor({ timeout: 30_000 });
      assert.equal(
        await page.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow'),
        '100',
      );
      // The e2e server's Free plan holds 5 links: the file's five web links fit exactly.
      assert.equal(await page.getByTestId('import-created').innerText(), '5');
      assert.equal(await page.getByTestId('import-duplicates').innerText(), '1');
      assert.equal(await page.getByTestId('import-skipped').innerText(), '2');
      // The state lives on the server: a reload shows the same import.
      await page.reload();
      await page.getByRole('heading', { name: /^Import finished/ }).waitFor();
      await page.getByText('Item 6: Appears earlier in this file').waitFor();
      await screenshot(page, 'h-import-report');
      const report = await downloaded(page, () => page.getByRole('button', { name: 'Download report (CSV)' }).click());
      assert.match(report.name, /^linkwise-import-report-.+\.csv$/);
      assert.match(report.text, /4,skipped,javascript:alert\(document\.cookie\),Not a web address/);

      await page.getByRole('link', { name: 'Go to your links' }).click();
      const box = page.getByRole('searchbox', { name: 'Search links' });
      await box.fill('sourdough');
      await page.getByRole('article', { name: 'Sourdough bread & starters', exact: true }).waitFor();

      await page.goto(`${ctx.baseUrl()}/profile`);
      const exported = await downloaded(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
      assert.match(exported.name, /^linkwise-export-\d{4}-\d{2}-\d{2}\.json$/);
      const body = JSON.parse(exported.text) as { format: string; links: { title: string }[] };
      assert.equal(body.format, 'linkwise');
      assert.equal(body.links.length, 5);
      assert.ok(body.links.some((l) => l.title === 'Sourdough bread & starters'));
      assert.deepEqual(w.errors, []);
    });

    void it('works at 390 px and from the keyboard', async () => {
      const phone = await openPage(ctx.browser(), { width: 390, height: 800 });
      try {
        const { page } = phone;
        const user = await registerUser(ctx.baseUrl(), 'import-phone');
        await signInBrowser(page, ctx.baseUrl(), user);
        await page.goto(`${ctx.baseUrl()}/import`);
        await page.getByRole('heading', { level: 1, name: 'Import links' }).waitFor();
        const [chooser] = await Promise.all([
          page.waitForEvent('filechooser'),
          (async () => {
            await page.locator('input[type=file]').focus();
            await page.keyboard.press('Enter');
          })(),
        ]);
        await chooser.setFiles(BOOKMARKS);
        await page.getByTestId('detected-format').waitFor();
        // Each item reads whole at this width: category, tags, state and date under its title.
        const item = page
          .getByRole('list', { name: 'Preview' })
          .getByRole('listitem')
          .filter({ hasText: 'Research Papers' });
        await item.getByText(/Research Papers · .*Read later/).waitFor();
        assert.equal(await page.getByRole('table').isVisible(), false);
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        assert.ok(width <= 390, `the import screen is ${width} px wide at 390 px`);
        await screenshot(page, 'h-import-phone');
      } finally {
        await phone.close();
      }
    });
  });
}
