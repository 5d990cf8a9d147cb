// The browser extension's latencies and sizes (issue: browser extensions).
//   1. Shortcut → saved confirmation: Ctrl+Shift+H pressed for real (xdotool, headed Chromium under
//      Xvfb) on a fresh page, until the in-page "Saved to Linkwise" appears; 50 saves on loopback.
//   2. Popup open → interactive: the popup page until its data is shown and its controls work
//      (body[data-ready]), on an unsaved and on an already-saved page; 30 opens each.
//   3. Bundle sizes per browser (apps/extension/dist/sizes.json, written by the build).
// Run after `npm run build`: npm run bench:extension -w @linkwise/bench
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  EXTENSION_DIST,
  launchChromiumWithExtension,
  openPopup,
  startRestartableServer,
  startSite,
  startXvfb,
} from '../e2e/extension-harness.js';
import { connectDirectly, focusBrowser, pressKeys } from '../e2e/extension-keys.js';
import { registerUser } from '../e2e/harness.js';
import { percentile } from './lib/stats.js';

const SAVES = Number(process.env.BENCH_SAVES ?? 50);
const OPENS = Number(process.env.BENCH_OPENS ?? 30);

const row = (label: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `| ${label} | ${values.length} | ${percentile(sorted, 50).toFixed(0)} ms | ${percentile(sorted, 95).toFixed(0)} ms | ${sorted[sorted.length - 1]?.toFixed(0)} ms |`;
};

const xvfb = await startXvfb();
if (!xvfb) throw new Error('Xvfb is needed for real key presses (apt-get install -y xvfb xdotool)');
const server = await startRestartableServer({
  FETCH_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  FREE_LINK_LIMIT: '1000',
});
const site = await startSite();
const ext = await launchChromiumWithExtension({ display: xvfb.display });
const lines: string[] = [];
try {
  const user = await registerUser(server.url, 'bench');
  await connectDirectly(ext, server.url, user.token, user.user.email);

  // 1. Shortcut → confirmation. Both clocks are this machine's wall clock (Date.now in the page and here).
  const saves: number[] = [];
  const page = await ext.context.newPage();
  for (let i = 0; i < SAVES + 3; i++) {
    await page.goto(site.url(`/bench-page-${i}`));
    await page.bringToFront();
    focusBrowser(xvfb.display);
    // Records when the in-page confirmation appears (a string: this program has no DOM types).
    await page.evaluate(`new MutationObserver(() => {
      if (document.getElementById('linkwise-save-toast')) window.savedAt ??= Date.now();
    }).observe(document.documentElement, { childList: true })`);
    const pressed = Date.now();
    pressKeys(xvfb.display, 'ctrl+shift+h');
    await page.waitForFunction('window.savedAt', undefined, { timeout: 15_000 });
    const savedAt = await page.evaluate<number>('window.savedAt');
    // The first saves warm the service worker and the server's code paths.
    if (i >= 3) saves.push(savedAt - pressed);
  }
  lines.push(row('Ctrl+Shift+H → "Saved to Linkwise" in the page', saves));

  // 2. Popup open → interactive.
  for (const [label, url] of [
    [
      'popup → interactive, page not saved (lookup, usage, categories; analysis still running)',
      site.url('/never-saved'),
    ],
    ['popup → interactive, page already saved (edit form)', site.url('/bench-page-3')],
  ] as const) {
    await page.goto(url);
    const times: number[] = [];
    for (let i = 0; i < OPENS + 2; i++) {
      const popup = await openPopup(ext, page);
      const ms = Number(await popup.evaluate<string>('document.body.dataset.readyMs'));
      if (i >= 2) times.push(ms);
      await popup.close();
    }
    lines.push(row(label, times));
  }
} finally {
  await ext.close();
  await site.close();
  await server.close();
  xvfb.stop();
}

const sizes = JSON.parse(readFileSync(path.join(EXTENSION_DIST, 'sizes.json'), 'utf8')) as Record<
  string,
  Record<string, number>
>;
console.log('\n| measurement | n | p50 | p95 | max |\n| --- | ---: | ---: | ---: | ---: |');
console.log(lines.join('\n'));
console.log('\n| file | Chrome/Edge | Firefox |\n| --- | ---: | ---: |');
for (const file of Object.keys(sizes.chrome ?? {})) {
  const kb = (n: number | undefined) => (n === undefined ? '–' : `${(n / 1024).toFixed(1)} kB`);
  console.log(`| ${file} | ${kb(sizes.chrome?.[file])} | ${kb(sizes.firefox?.[file])} |`);
}
