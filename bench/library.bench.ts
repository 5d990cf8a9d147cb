/**
 * Library management at scale, on SQLite and PostgreSQL: one user with 2,000 links carrying 1,000
 * distinct tags (3 a link, seeded with a fixed seed), then through the real HTTP app in this
 * process: the tag list with its merge suggestions, a tag rename and a merge (each over hundreds of
 * links), bulk set-category / add-tags / delete over 1,000 links, and counting an open.
 *
 *   npm run bench:library -w @linkwise/bench              # both engines
 *   BENCH_ENGINES=sqlite npm run bench:library -w @linkwise/bench
 *
 * Medians of `RUNS` runs; times are noisy on a shared machine: compare them as ratios within a run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, parseTags } from '@linkwise/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { newId } from '../apps/server/src/lib/ids.js';
import { LinkRepository } from '../apps/server/src/modules/links/link.repository.js';
import { cleanUpOnSignals, cleanupAll, owe, paid } from './lib/cleanup.js';
import { createBenchDatabase } from './lib/postgres.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(readFileSync(path.join(BENCH_DIR, '../apps/server/package.json'), 'utf8')) as {
  version: string;
};
const LINKS = 2000;
const TAGS = 1000;
const RUNS = 5;

/** mulberry32: a fixed sequence for a fixed seed. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Through the links repository (the API's create is rate limited per user), in one transaction. */
async function seedLinks(links: LinkRepository, userId: string): Promise<string[]> {
  const rand = random(20);
  const ids: string[] = [];
  const now = Date.now();
  await links.transaction(async (tx) => {
    for (let i = 0; i < LINKS; i++) {
      // Tag names with spelling variants, so suggestions have work to do: "topic-12", "Topic 12s".
      const tags = parseTags(
        Array.from({ length: 3 }, () => {
          const n = Math.floor(rand() * TAGS);
          return n % 10 === 0 ? `Topic ${n}s` : `topic-${n}`;
        }),
      );
      const id = newId();
      await tx.insert({
        id,
        user_id: userId,
        url: `https://bench.example/${i}`,
        normalized_url: `bench.example/${i}`,
        title: `Link ${i}`,
        description: '',
        ai_description: null,
        category: null,
        notes: '',
        is_read: 0,
        is_read_later: 0,
        has_credentials: 0,
        favicon: null,
        analysis_status: 'done',
        created_at: now + i,
        updated_at: now + i,
      });
      await tx.setTags(userId, id, tags, now);
      ids.push(id);
    }
  });
  return ids;
}

async function runEngine(engine: Engine): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-library-bench-'));
  owe(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  const pg = engine === 'postgres' ? await createBenchDatabase() : undefined;
  if (pg) owe(pg.drop);
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      DATA_DIR: path.join(dir, 'data'),
      BILLING: 'off',
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      ...(pg && { DATABASE_URL: pg.url }),
    },
    version,
  );
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
  });
  await migrateToLatest(database);
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const { token, user } = await createApiClient({ baseUrl }).register({
      body: { email: 'bench@example.com', username: 'bench', password: 'bench-password' },
    });
    const api = createApiClient({ baseUrl, getToken: () => token });
    const ids = await seedLinks(new LinkRepository(database.db, engine), user.id);
    const out: Record<string, number> = {};
    const tags = await api.listTags();
    out['tags listed'] = tags.data.length;
    out['suggestions'] = tags.suggestions.length;
    const listing: number[] = [];
    for (let i = 0; i < RUNS; i++) listing.push(await timed(() => api.listTags()));
    out['GET /api/tags (ms)'] = median(listing);
    const byCount = [...tags.data].sort((a, b) => b.count - a.count);
    out['rename a tag on N links: N'] = byCount[0]!.count;
    out['rename a tag (ms)'] = await timed(() =>
      api.renameTag({ params: { id: byCount[0]!.id }, body: { name: 'renamed' } }),
    );
    out['merge two tags: links moved'] = byCount[1]!.count;
    out['merge a tag (ms)'] = await timed(() =>
      api.renameTag({ params: { id: byCount[1]!.id }, body: { name: 'renamed' } }),
    );
    const thousand = ids.slice(0, 1000);
    out['bulk set-category 1,000 (ms)'] = await timed(() =>
      api.bulkLinks({ body: { action: 'set-category', ids: thousand, category: 'Bench' } }),
    );
    out['bulk add-tags 1,000 (ms)'] = await timed(() =>
      api.bulkLinks({ body: { action: 'add-tags', ids: thousand, tags: ['bulk-added'] } }),
    );
    out['bulk mark-read 1,000 (ms)'] = await timed(() =>
      api.bulkLinks({ body: { action: 'mark-read', ids: thousand } }),
    );
    const clicks: number[] = [];
    for (let i = 0; i < 50; i++) clicks.push(await timed(() => api.countClick({ params: { id: ids[i]! } })));
    out['count an open (ms, median of 50)'] = median(clicks);
    out['bulk delete 1,000 (ms)'] = await timed(() => api.bulkLinks({ body: { action: 'delete', ids: thousand } }));
    return out;
  } finally {
    await app.close();
    await database.close();
    if (pg) {
      await pg.drop();
      paid(pg.drop);
    }
  }
}

async function main() {
  cleanUpOnSignals();
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
  const results: Record<string, Record<string, number>> = {};
  for (const engine of engines) {
    console.error(`${engine}: seeding ${LINKS} links with ${TAGS} tags`);
    results[engine] = await runEngine(engine);
  }
  const rows = Object.keys(results[engines[0]!]!);
  console.log(`| measure | ${engines.join(' | ')} |`);
  console.log(`|---|${engines.map(() => '---:').join('|')}|`);
  for (const row of rows) {
    console.log(`| ${row} | ${engines.map((e) => Math.round((results[e]![row] ?? NaN) * 10) / 10).join(' | ')} |`);
  }
  await cleanupAll();
}

main().catch(async (error: unknown) => {
  console.error(error);
  await cleanupAll();
  process.exit(1);
});
