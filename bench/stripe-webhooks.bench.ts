// Stripe webhooks: how fast the server takes signed events in (verify, record the id, queue the job),
// redeliveries and forged ones, how long until every subscription is applied (the job re-reads
// Stripe), and what the Stripe SDK adds to an idle server's memory. The server runs from its
// sources in its own process, on SQLite, against the local Stripe double in this process.
//   npm run bench:stripe -w @linkwise/bench      (BENCH_USERS, default 150)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@linkwise/contract';
import { StripeDouble, type StripeEvent } from '../apps/server/test/stripe-double.js';
import { startServerProcess, type ServerProcess } from './lib/child-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USERS = Number(process.env.BENCH_USERS ?? 150);
const CONCURRENCY = 8;
const SEED = 20261125;

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
};

async function pool<T>(items: T[], run: (item: T) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
  return performance.now() - started;
}

async function idleServer(env: Record<string, string>, label: string): Promise<{ server: ServerProcess; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), `linkwise-bench-stripe-${label}-`));
  const server = await startServerProcess(
    { DATA_DIR: dir, LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_MINUTE: '100000', ...env },
    // The repository as working directory: tsx resolves from there (the data lives in DATA_DIR).
    ROOT,
    path.join(dir, 'server.log'),
    { path: '/api/subscription/plans', headers: {} },
  );
  return { server, dir };
}

async function main() {
  const stripe = await new StripeDouble().start();
  const rows: string[] = [];
  try {
    // Idle memory: the same server with simulated billing, and with Stripe (the SDK loaded, prices read).
    for (const [label, env] of [
      ['simulated', { BILLING: 'simulated' }],
      ['stripe', stripe.env()],
    ] as const) {
      const { server, dir } = await idleServer(env, label);
      for (let i = 0; i < 5; i++) await (await fetch(`${server.url}/api/subscription/plans`)).arrayBuffer();
      await new Promise((r) => setTimeout(r, 1000));
      rows.push(`| idle RSS, BILLING=${label} (from sources) | ${rssMb(server.pid)} MB |`);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }

    const { server, dir } = await idleServer(stripe.env(), 'load');
    stripe.webhookUrl = `${server.url}/api/webhooks/stripe`;
    stripe.autoDeliver = false;
    try {
      const users = [];
      for (let i = 0; i < USERS; i++) {
        const name = `bench${SEED}u${i}`;
        const { token } = await createApiClient({ baseUrl: server.url }).register({
          body: { email: `${name}@example.com`, username: name, password: 'bench-password' },
        });
        const api = createApiClient({ baseUrl: server.url, getToken: () => token });
        const checkout = await api.createCheckout({ body: { plan: i % 2 ? 'yearly' : 'monthly' } });
        users.push({ api, events: stripe.completeCheckout(checkout.sessionId ?? '').events });
      }
      const events: StripeEvent[] = users.flatMap((u) => u.events);
      const deliver = (secret?: string) => async (event: StripeEvent) => {
        const status = await stripe.deliver(event, secret);
        if (status !== (secret ? 400 : 200)) throw new Error(`webhook answered ${status}`);
      };

      const fresh = await pool(events, deliver());
      const queuedAt = performance.now();
      // Until every user is Pro: each job lists the customer's subscriptions from the double and applies them.
      await pool(users, async (u) => {
        while ((await u.api.subscriptionStatus()).status !== 'active') await new Promise((r) => setTimeout(r, 25));
      });
      const applied = performance.now() - queuedAt;
      const again = await pool(events, deliver());
      const forged = await pool(events, deliver('whsec_forged'));
      const perSecond = (ms: number) => Math.round((events.length / ms) * 1000);
      rows.push(
        `| fresh events taken in (${events.length}, ${CONCURRENCY} at a time) | ${perSecond(fresh)} /s |`,
        `| every subscription applied after the last delivery (${USERS} users, 3 jobs each) | ${Math.round(applied)} ms |`,
        `| redeliveries (all ${events.length} again) | ${perSecond(again)} /s (×${(fresh / again).toFixed(2)} of fresh) |`,
        `| forged signatures | ${perSecond(forged)} /s (×${(fresh / forged).toFixed(2)} of fresh) |`,
      );
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await stripe.close();
  }
  console.log(['| measure | value |', '| --- | ---: |', ...rows].join('\n'));
}

await main();
