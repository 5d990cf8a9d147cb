// Bytes over the wire for a first and a repeat visit to the landing page (signed out) and the
// dashboard (signed in), in the Debian Chromium against the built app served by the real server.
// Counts what Chromium received (CDP Network.loadingFinished.encodedDataLength: headers and body as
// sent, after compression), not an estimate from the files. Not part of npm test.
//   npm run build && npm run bench:first-visit -w @linkwise/bench
// FIRST_VISIT_SERVER=<path to a built apps/server/dist/main.js> measures another build (for example
// the commit before a change, built in a copy of the repository).
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startServer } from '../e2e/harness.js';
import { dashboardUser } from './lib/dashboard-user.js';

const RUNS = Number(process.env.FIRST_VISIT_RUNS ?? 3);
const SERVER_MAIN = process.env.FIRST_VISIT_SERVER ? path.resolve(process.env.FIRST_VISIT_SERVER) : undefined;

interface Transfer {
  url: string;
  type: string;
  status: number;
  /** Bytes Chromium received for it (headers + body as sent); 0 when it came from the cache. */
  wire: number;
  /** Body bytes after decoding. */
  decoded: number;
  cached: boolean;
  encoding: string;
}

/** Records every response of a page through CDP until `stop()`. */
async function record(cdp: CDPSession) {
  const byId = new Map<string, Transfer>();
  await cdp.send('Network.enable');
  cdp.on('Network.responseReceived', (e) => {
    byId.set(e.requestId, {
      url: e.response.url,
      type: e.type,
      status: e.response.status,
      wire: 0,
      decoded: 0,
      cached: e.response.fromDiskCache === true || e.response.fromPrefetchCache === true,
      encoding: String(
        Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? '',
      ),
    });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const t = byId.get(e.requestId);
    if (t) t.cached = true;
  });
  cdp.on('Network.dataReceived', (e) => {
    const t = byId.get(e.requestId);
    if (t) t.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const t = byId.get(e.requestId);
    if (t) t.wire = e.encodedDataLength;
  });
  return () => [...byId.values()].filter((t) => t.url.startsWith('http'));
}

interface Visit {
  wire: number;
  decoded: number;
  scriptWire: number;
  /** Requests that reached the server (not answered from the browser's cache). */
  fetched: number;
  requests: number;
  encodings: string;
}

function summarise(transfers: Transfer[]): Visit {
  const fetched = transfers.filter((t) => !t.cached);
  const sum = (xs: Transfer[], f: (t: Transfer) => number) => xs.reduce((n, t) => n + f(t), 0);
  const encodings = [...new Set(fetched.filter((t) => t.type === 'Script').map((t) => t.encoding || 'identity'))];
  return {
    wire: sum(fetched, (t) => t.wire),
    decoded: sum(transfers, (t) => t.decoded),
    scriptWire: sum(
      fetched.filter((t) => t.type === 'Script'),
      (t) => t.wire,
    ),
    fetched: fetched.length,
    requests: transfers.length,
    encodings: encodings.join('+'),
  };
}

/** A first visit in a fresh context (empty cache), then the same URL again in that context. */
async function visit(context: BrowserContext, url: string): Promise<{ first: Visit; repeat: Visit }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  let stop = await record(cdp);
  await page.goto(url, { waitUntil: 'networkidle' });
  const first = summarise(stop());
  await cdp.detach();
  // A new navigation (not a reload, which revalidates on purpose): what a returning user costs.
  const again = await context.newPage();
  const cdp2 = await context.newCDPSession(again);
  stop = await record(cdp2);
  await again.goto(url, { waitUntil: 'networkidle' });
  const repeat = summarise(stop());
  if (new URL(again.url()).pathname !== new URL(url).pathname) {
    throw new Error(`${url} ended on ${again.url()}`);
  }
  await cdp2.detach();
  return { first, repeat };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const kb = (n: number) => (n / 1000).toFixed(1);

async function main() {
  const server = await startServer({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, SERVER_MAIN);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const { session } = await dashboardUser(server.url, 'first-visit');

    const rows: string[] = [];
    for (const [name, route, signedIn] of [
      ['landing `/`', '/', false],
      ['dashboard `/dashboard`', '/dashboard', true],
    ] as const) {
      const runs: { first: Visit; repeat: Visit }[] = [];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        if (signedIn) await context.addInitScript(`localStorage.setItem('auth-storage', ${JSON.stringify(session)})`);
        runs.push(await visit(context, `${server.url}${route}`));
        await context.close();
      }
      const m = (f: (r: { first: Visit; repeat: Visit }) => number) => median(runs.map(f));
      rows.push(
        `| ${name} | ${kb(m((r) => r.first.wire))} | ${kb(m((r) => r.first.scriptWire))} | ${kb(m((r) => r.first.decoded))} | ` +
          `${m((r) => r.first.requests)} | ${runs[0]?.first.encodings} | ${kb(m((r) => r.repeat.wire))} | ` +
          `${m((r) => r.repeat.fetched)} of ${m((r) => r.repeat.requests)} |`,
      );
    }
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    console.log(`\nServer: ${SERVER_MAIN ?? 'this build'}; ${RUNS} runs each, median; load average ${load}\n`);
    console.log(
      '| page | first visit kB over the wire | of it JavaScript kB | decoded kB | requests | scripts sent as | repeat visit kB | repeat visit requests sent |',
    );
    console.log('|---|---:|---:|---:|---:|---|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
