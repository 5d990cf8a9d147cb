// Gzipped JavaScript a first visit downloads for a route: the entry chunk, the route's lazy chunk
// and every chunk they import statically, read from Vite's build manifest.
//   node apps/web/scripts/bundle-size.mjs [src/features/landing/landing-page.tsx] [--max-kb 200]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const args = process.argv.slice(2);
const maxIndex = args.indexOf('--max-kb');
const maxKb = maxIndex >= 0 ? Number(args[maxIndex + 1]) : undefined;
const route =
  args.find((a, i) => !a.startsWith('--') && (maxIndex < 0 || i !== maxIndex + 1)) ??
  'src/features/landing/landing-page.tsx';

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit('index.html');
visit(route);

let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(path.join(dist, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} kB  ${file}`);
}
const kb = total / 1024;
console.log(`${kb.toFixed(1).padStart(8)} kB  gzipped JavaScript for ${route}`);
if (maxKb !== undefined && kb > maxKb) {
  console.error(`over the budget of ${maxKb} kB`);
  process.exit(1);
}
