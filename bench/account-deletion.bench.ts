// What deleting an account costs, and how much of it is the clean-up beyond the foreign keys'
// cascades (queued jobs, the throttle row, the shared typo word lists, SQLite's FTS5 merge).
// Run: npm run bench:account-deletion -w @linkwise/bench (PostgreSQL too when it answers).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { UserRepository } from '../apps/server/src/modules/auth/user.repository.js';
import { createBenchDatabase } from './lib/postgres.js';
import { seed, type BenchUser } from './lib/seed.js';

const SEED = 20261125;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function run(engine: Engine): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-bench-delete-'));
  const pgDb = engine === 'postgres' ? await createBenchDatabase() : undefined;
  const database: Database = openDatabase({ databaseUrl: pgDb?.url, dataDir, poolSize: 2 });
  try {
    await migrateToLatest(database);
    const seeded = await seed(database, {
      seed: SEED,
      smallUsers: 300,
      linksPerSmallUser: 20,
      bigLinks: 3000,
      log: () => undefined,
    });
    const users = new UserRepository(database.db, database.engine);
    const cascadeOnly = (u: BenchUser) => database.db.deleteFrom('users').where('id', '=', u.id).execute();
    const full = (u: BenchUser) => users.deleteUser(u.id, `${u.label}@bench.example`);
    // Two users of each size: one deleted by the cascade alone, one by the account deletion.
    const rows = [
      ['small (20 links)', await timed(() => cascadeOnly(seeded.smallPro)), await timed(() => full(seeded.smallFree))],
    ];
    const bigTwin = seeded.big;
    rows.push(['big (3,000 links)', Number.NaN, await timed(() => full(bigTwin))]);
    return rows.map(
      ([label, cascade, deletion]) =>
        `| ${engine} | ${String(label)} | ${Number.isNaN(cascade) ? '–' : (cascade as number).toFixed(0)} | ${(deletion as number).toFixed(0)} |`,
    );
  } finally {
    await database.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const lines = ['| engine | user | cascade only (ms) | account deletion (ms) |', '| --- | --- | ---: | ---: |'];
for (const engine of ['sqlite', 'postgres'] as const) {
  try {
    lines.push(...(await run(engine)));
  } catch (error) {
    console.error(`${engine}: ${String(error)}`);
  }
}
console.log(lines.join('\n'));
