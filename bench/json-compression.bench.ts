// What compressing JSON per response costs the server: GET /api/links (a full first page of 24
// links) under load, without Accept-Encoding (identity), with `br, gzip` (brotli quality 4) and with
// `gzip`, in alternating rounds so drift on the shared machine hits each alike. The built server
// runs in its own process, autocannon in this one. Not part of npm test.
//   npm run build && npm run bench:json-compression -w @linkwise/bench
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { registerUser, startServer } from '../e2e/harness.js';
import { load, type ThroughputResult } from './lib/throughput.js';

const CONNECTIONS = 10;
const SECONDS = Number(process.env.JSON_COMPRESSION_SECONDS ?? 10);
const ROUNDS = Number(process.env.JSON_COMPRESSION_ROUNDS ?? 3);

/** Bytes of one response body as sent, and its Content-Encoding. */
function sizeOf(url: string, headers: Record<string, string>): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
    })
      .on('error', reject)
      .end();
  });
}

async function main() {
  const server = await startServer({ RATE_LIMIT_AUTH_PER_MINUTE: '1000', LOG_LEVEL: 'warn' });
  try {
    const user = await registerUser(server.url, 'json-compression');
    for (let i = 0; i < 24; i++) {
      await user.client.createLink({
        body: {
          url: `https://compression.example/articles/${i}/a-fairly-long-slug-for-the-article`,
          title: `Benchmark link ${i}: notes on HTTP compression and caching`,
          description: `A saved article (${i}) about how servers negotiate content encodings with browsers.`,
          notes: 'Read later. '.repeat(8),
          category: i % 2 ? 'Research' : 'Development',
          tags: ['bench', `t${i}`, 'http', 'performance'],
        },
      });
    }
    const auth = { authorization: `Bearer ${user.token}` };
    const variants: [string, Record<string, string>][] = [
      ['identity', auth],
      ['br', { ...auth, 'accept-encoding': 'br, gzip' }],
      ['gzip', { ...auth, 'accept-encoding': 'gzip' }],
    ];
    const sizes = await Promise.all(variants.map(([, h]) => sizeOf(`${server.url}/api/links`, h)));
    const results = new Map<string, ThroughputResult[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, headers] of variants) {
        const r = await load(name, server.url, '/api/links', {
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmupSeconds: 3,
          headers,
        });
        if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        results.set(name, [...(results.get(name) ?? []), r]);
      }
    }
    const load1 = loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    const base = results.get('identity') ?? [];
    const mean = (rs: ThroughputResult[], f: (r: ThroughputResult) => number) =>
      rs.reduce((n, r) => n + f(r), 0) / rs.length;
    console.log(
      `\nGET /api/links, 24 links; ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds; load average ${load1}\n`,
    );
    console.log('| Accept-Encoding → sent as | body bytes | req/s (rounds) | vs identity | p50 / p99 ms |');
    console.log('|---|---:|---:|---:|---:|');
    variants.forEach(([name], i) => {
      const rs = results.get(name) ?? [];
      const rps = mean(rs, (r) => r.reqPerSec);
      console.log(
        `| ${name} → ${sizes[i]?.encoding} | ${sizes[i]?.bytes} | ${rps.toFixed(0)} (${rs.map((r) => r.reqPerSec.toFixed(0)).join(', ')}) | ` +
          `${(rps / mean(base, (r) => r.reqPerSec)).toFixed(2)} | ${mean(rs, (r) => r.p50).toFixed(1)} / ${mean(rs, (r) => r.p99).toFixed(1)} |`,
      );
    });
  } finally {
    await server.stop();
  }
}

await main();
