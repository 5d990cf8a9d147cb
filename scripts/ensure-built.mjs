// Runs `npm run build` when a built output is missing or older than its sources, so that
// `npm install && npm start` works on a fresh clone and after a pull, without a slow rebuild
// every time.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const outputs = [
  ['apps/server/dist/main.js', ['apps/server/src', 'packages/contract/src']],
  ['apps/web/dist/index.html', ['apps/web/src', 'apps/web/index.html', 'packages/contract/src']],
  ['apps/extension/dist/sizes.json', ['apps/extension/src', 'apps/extension/tools', 'packages/contract/src']],
];
const stale = outputs.some(([out, sources]) => {
  const file = path.join(root, out);
  if (!existsSync(file)) return true;
  const built = statSync(file).mtimeMs;
  return sources.some((s) => {
    const p = path.join(root, s);
    return existsSync(p) && (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs) > built;
  });
});
if (stale) {
  console.log('Building Linkwise (first start or sources changed)…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
