// `npm test`: every suite. Unit and HTTP suites (vitest, SQLite and PostgreSQL), then the browser
// suites in real Chromium against the built app. Ends with one summary line over all suites.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = path.join(root, 'node_modules', '.cache', 'linkwise-test');
mkdirSync(tmp, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) exitCode = 1;
  return result.status ?? 1;
}

// 1. Unit + HTTP suites on both engines.
const report = path.join(tmp, 'vitest.json');
rmSync(report, { force: true });
run('unit and HTTP suites (SQLite and PostgreSQL)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
} else {
  totals.failed += 1;
}

// 2. Browser suites against the built app.
if (existsSync(path.join(root, 'e2e/run.ts'))) {
  run('build (if sources changed)', 'node', ['scripts/ensure-built.mjs']);
  const out = path.join(tmp, 'e2e.txt');
  const result = spawnSync('node', ['--conditions=@linkwise/source', '--import', 'tsx', 'e2e/run.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  console.log('\n▶ browser suites (Chromium; the extension also in Firefox ESR and headed under Xvfb)');
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  if (result.status !== 0) exitCode = 1;
  const count = (name) => Number((result.stdout ?? '').match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + (result.status !== 0 && count('fail') === 0 ? 1 : 0);
  totals.skipped += count('skipped');
  rmSync(out, { force: true });
}

console.log(`\nall suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode || (totals.failed > 0 ? 1 : 0));
