// Lighthouse (performance and accessibility) on the landing page, the signed-in dashboard and Profile,
// against the built app served by the real server, in the Debian Chromium. Not part of npm test.
//   npm run build && npm run bench:lighthouse -w @linkwise/bench
// Writes the full reports to bench/.tmp/lighthouse/ and prints a Markdown table for RESULTS.md.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, freePort, startServer } from '../e2e/harness.js';
import { dashboardUser } from './lib/dashboard-user.js';

const OUT = path.join(import.meta.dirname, '.tmp', 'lighthouse');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

interface Score {
  page: string;
  formFactor: 'mobile' | 'desktop';
  performance: number[];
  accessibility: number[];
  lcpMs: number[];
  tbtMs: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main() {
  mkdirSync(OUT, { recursive: true });
  const server = await startServer({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), 'linkwise-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [`--remote-debugging-port=${port}`, ...CHROMIUM_ARGS],
  });
  try {
    // A user with a dozen links, signed in through the same storage the app uses.
    const { session } = await dashboardUser(server.url, 'lighthouse');
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/status`);
    await page.evaluate(`localStorage.setItem('auth-storage', ${JSON.stringify(session)})`);

    const scores: Score[] = [];
    for (const formFactor of ['mobile', 'desktop'] as const) {
      for (const [name, route] of [
        ['landing', '/'],
        ['dashboard', '/dashboard'],
        ['profile', '/profile'],
      ] as const) {
        // The landing page redirects a signed-in visitor, so it is audited signed out.
        await page.evaluate(
          name === 'landing'
            ? `localStorage.removeItem('auth-storage')`
            : `localStorage.setItem('auth-storage', ${JSON.stringify(session)})`,
        );
        const score: Score = { page: name, formFactor, performance: [], accessibility: [], lcpMs: [], tbtMs: [] };
        for (let run = 0; run < RUNS; run++) {
          // A loaded machine sometimes loses the trace (NO_NAVSTART); such a run is repeated.
          let result: Awaited<ReturnType<typeof lighthouse>>;
          for (let attempt = 1; ; attempt++) {
            result = await lighthouse(
              `${server.url}${route}`,
              {
                port,
                output: 'json',
                logLevel: 'error',
                onlyCategories: ['performance', 'accessibility'],
                disableStorageReset: true,
              },
              formFactor === 'desktop' ? desktopConfig : undefined,
            );
            if (!result?.lhr.runtimeError || attempt === 3) break;
            console.warn(`${name} ${formFactor}: ${result.lhr.runtimeError.code}, repeating the run`);
          }
          if (!result) throw new Error('lighthouse returned nothing');
          const { lhr } = result;
          if (lhr.runtimeError) throw new Error(`${name}: ${lhr.runtimeError.message}`);
          if (run === 0) writeFileSync(path.join(OUT, `${name}-${formFactor}.json`), JSON.stringify(lhr, null, 1));
          score.performance.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
          score.accessibility.push(Math.round((lhr.categories.accessibility?.score ?? 0) * 100));
          score.lcpMs.push(Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN));
          score.tbtMs.push(Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN));
          const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
          if (finalPath !== route) throw new Error(`${name} ended on ${finalPath}, not ${route}`);
        }
        scores.push(score);
      }
    }

    const version = (
      JSON.parse(readFileSync(path.join(OUT, 'landing-mobile.json'), 'utf8')) as { lighthouseVersion: string }
    ).lighthouseVersion;
    // These machines are shared: the load average says how far to trust the performance column.
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    console.log(`\nLighthouse ${version}, ${RUNS} runs each, median (all runs); load average ${load}:\n`);
    console.log('| page | form factor | performance | accessibility | LCP ms | TBT ms |');
    console.log('|---|---|---|---|---|---|');
    for (const s of scores) {
      console.log(
        `| ${s.page} | ${s.formFactor} | ${median(s.performance)} (${s.performance.join(', ')}) | ${median(s.accessibility)} | ${median(s.lcpMs)} | ${median(s.tbtMs)} |`,
      );
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await server.stop();
  }
}

await main();
