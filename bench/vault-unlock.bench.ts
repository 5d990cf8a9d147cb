// Vault unlock time in real Chromium: PBKDF2-SHA256 at the product's 600,000 iterations plus the
// AES-GCM unwrap, through the same module the web app and the extension use (packages/contract,
// built), loaded as an ES module from a loopback page (WebCrypto needs a secure context).
// Run: npm run bench:vault -w @linkwise/bench   (needs `npm run build` and /usr/bin/chromium)
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as VaultModule from '../packages/contract/src/vault.js';
import { launchBrowser } from '../e2e/harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_VAULT_RUNS ?? 10);
const served = ['/packages/contract/dist/', '/node_modules/zod/'];
const page = `<!doctype html><meta charset="utf-8"><title>vault bench</title>
<script type="importmap">{"imports":{"zod":"/node_modules/zod/index.js"}}</script>
<script type="module">
  import * as vault from '/packages/contract/dist/vault.js';
  window.vault = vault;
  window.ready = true;
</script>`;

if (!existsSync(path.join(root, 'packages/contract/dist/vault.js'))) {
  console.error('packages/contract/dist/vault.js is missing: run `npm run build` first');
  process.exit(1);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    return;
  }
  const file = path.join(root, path.normalize(url.pathname));
  if (!served.some((prefix) => url.pathname.startsWith(prefix)) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/javascript' });
  createReadStream(file).pipe(res);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const browser = await launchBrowser();
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
  const result = await tab.evaluate(async (runs) => {
    const vault = (globalThis as unknown as { vault: typeof VaultModule }).vault;
    const t0 = performance.now();
    const { material } = await vault.createVault('benchmark master password');
    const create = performance.now() - t0;
    const unlock: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await vault.unlockVault('benchmark master password', material);
      unlock.push(performance.now() - t);
    }
    return {
      create,
      unlock,
      iterations: material.kdf.iterations,
      ua: (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent,
    };
  }, RUNS);
  const sorted = [...result.unlock].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  console.log(`Chromium: ${/Chrome\/([\d.]+)/.exec(result.ua)?.[1] ?? result.ua}`);
  console.log(`PBKDF2-SHA256 iterations: ${result.iterations}`);
  console.log(`create vault (derive + wrap + unwrap): ${result.create.toFixed(0)} ms`);
  console.log(
    `unlock ×${RUNS}: p50 ${at(0.5).toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms, min ${sorted[0]?.toFixed(0)} ms`,
  );
} finally {
  await browser.close();
  server.close();
}
