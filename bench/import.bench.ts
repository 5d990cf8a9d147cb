/**
 * Import and export at scale, each engine, the server in its own process (`npm run bench:import -w
 * @linkwise/bench`; BENCH_ENGINES=sqlite,postgres, BENCH_IMPORT_BIG=100000):
 * - a 10,000-link Netscape file and a 10,000-row Pocket CSV: upload → every link created and
 *   text-searchable (the import's `done`, then a search for the last one);
 * - a BENCH_IMPORT_BIG-link Netscape file: time and the server's peak RSS growth (VmHWM over the
 *   RSS before the upload, from /proc);
 * - export of that library as JSON and HTML: time and peak RSS growth.
 * Files are generated from fixed rules (no randomness), so every run imports the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@linkwise/contract';
import { startServerProcess } from './lib/child-server.js';
import { cleanUpOnSignals, cleanupAll, owe, paid } from './lib/cleanup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const BIG = Number(process.env.BENCH_IMPORT_BIG ?? 100_000);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (message: string) => console.error(`[import bench] ${message}`);

function netscape(n: number, prefix: string): string {
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  for (let i = 0; i < n; i++) {
    if (i % 250 === 0) lines.push(`  <DT><H3>Folder ${i / 250}</H3>`, '  <DL><p>');
    lines.push(
      `    <DT><A HREF="https://${prefix}${i % 97}.example.com/article/${i}" ADD_DATE="${1500000000 + i * 60}" TAGS="topic${i % 41},year${2010 + (i % 15)}">Article ${i} about subject ${i % 113}</A>`,
      `    <DD>Notes on subject ${i % 113}, item ${i}.`,
    );
    if (i % 250 === 249 || i === n - 1) lines.push('  </DL><p>');
  }
  lines.push('</DL><p>');
  return lines.join('\n');
}

function pocketCsv(n: number): string {
  const rows = ['title,url,time_added,tags,status'];
  for (let i = 0; i < n; i++) {
    rows.push(
      `"Saved story ${i}, part ${i % 9}",https://pocket${i % 89}.example.net/story/${i},${1600000000 + i * 30},tag${i % 23}|reading,${i % 3 === 0 ? 'archive' : 'unread'}`,
    );
  }
  return rows.join('\n');
}

const kb = (bytes: number) => Math.round(bytes / 1024);
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** Resets the peak so VmHWM measures from now on (Linux: writing 5 to clear_refs). */
async function resetPeak(pid: number): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
}

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `linkwise_bench_import_${process.pid}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

interface Row {
  engine: string;
  what: string;
  links: number;
  seconds: number;
  peakRssGrowthMb: number | null;
}

async function main(): Promise<void> {
  cleanUpOnSignals(log);
  const rows: Row[] = [];
  for (const engine of ENGINES) {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-bench-import-'));
    const removeDir = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));
    owe(removeDir);
    const pg = engine === 'postgres' ? await createPgDatabase() : undefined;
    if (pg) owe(pg.drop);
    const server = await startServerProcess(
      {
        DATA_DIR: dir,
        LOG_LEVEL: 'warn',
        BILLING: 'off',
        // The bench measures the import; analysis of example.* hosts fails at DNS and is not the point.
        JOBS_ENABLED: 'true',
        IMPORT_MAX_BYTES: String(500 * 1024 * 1024),
        ...(pg && { DATABASE_URL: pg.url }),
      },
      ROOT,
      path.join(dir, 'server.log'),
      { path: '/api/health', headers: {} },
    );
    const stop = () => server.stop();
    owe(stop);
    log(`${engine}: server pid ${server.pid}`);
    let n = 0;
    const importOne = async (what: string, body: string, name: string, count: number, measureRss: boolean) => {
      n += 1;
      const { token } = await createApiClient({ baseUrl: server.url }).register({
        body: { email: `bench${n}@example.com`, username: `bench${n}user`, password: 'correct horse' },
      });
      const api = createApiClient({ baseUrl: server.url, getToken: () => token });
      if (measureRss) await resetPeak(server.pid);
      const before = memory(server.pid);
      const started = performance.now();
      const form = new FormData();
      form.append('file', new Blob([body]), name);
      const accepted = (await (
        await fetch(`${server.url}/api/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        })
      ).json()) as { id: string };
      for (;;) {
        const state = (await (
          await fetch(`${server.url}/api/import/${accepted.id}`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { status: string; created: number };
        if (state.status !== 'queued' && state.status !== 'running') {
          if (state.status !== 'done' || state.created !== count) throw new Error(`${what}: ${JSON.stringify(state)}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const found = await api.listLinks({ query: { search: `${count - 1}` } });
      if (found.total < 1) throw new Error(`${what}: the last link is not searchable`);
      const seconds = (performance.now() - started) / 1000;
      const after = memory(server.pid);
      const growth = measureRss ? (after.hwm - before.rss) / 1024 / 1024 : null;
      rows.push({ engine, what, links: count, seconds, peakRssGrowthMb: growth });
      log(`${engine}: ${what}: ${seconds.toFixed(1)} s${growth === null ? '' : `, peak RSS +${growth.toFixed(0)} MB`}`);
      return { api, token };
    };
    await importOne('Netscape HTML import', netscape(10_000, 'site'), 'bookmarks.html', 10_000, true);
    await importOne('Pocket CSV import', pocketCsv(10_000), 'part_000000.csv', 10_000, true);
    const big = await importOne(
      `Netscape HTML import, ${BIG.toLocaleString('en-US')} links`,
      netscape(BIG, 'big'),
      'big.html',
      BIG,
      true,
    );
    for (const format of ['json', 'html'] as const) {
      await resetPeak(server.pid);
      const before = memory(server.pid);
      const started = performance.now();
      const response = await fetch(`${server.url}/api/export?format=${format}`, {
        headers: { authorization: `Bearer ${big.token}` },
      });
      let bytes = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      const seconds = (performance.now() - started) / 1000;
      const growth = (memory(server.pid).hwm - before.rss) / 1024 / 1024;
      rows.push({
        engine,
        what: `export ${format} (${kb(bytes).toLocaleString('en-US')} kB)`,
        links: BIG,
        seconds,
        peakRssGrowthMb: growth,
      });
      log(`${engine}: export ${format}: ${seconds.toFixed(1)} s, ${kb(bytes)} kB, peak RSS +${growth.toFixed(0)} MB`);
    }
    await stop();
    paid(stop);
    if (pg) {
      await pg.drop();
      paid(pg.drop);
    }
    await removeDir();
    paid(removeDir);
  }
  console.log('| engine | what | links | seconds | peak RSS growth (MB) |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.engine} | ${r.what} | ${r.links.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${r.peakRssGrowthMb === null ? '–' : r.peakRssGrowthMb.toFixed(0)} |`,
    );
  }
  await cleanupAll(log);
}

await main();
