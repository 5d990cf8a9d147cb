import path from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { backupSqlite, restoreSqlite } from './instance-backup.js';

const usage = `Usage:
  npm run backup [-- <file>]    a consistent copy of the SQLite database, also while the server runs
                                (default: DATA_DIR/instance-backups/linkwise-<time>.db)
  npm run restore -- <file>     puts a backup in place of the database; stop the server first
                                (the current database is kept as linkwise.db.before-restore-<time>)`;

const postgresAdvice = `DATABASE_URL is set: this instance runs on PostgreSQL. Back it up with PostgreSQL's own tools:
  pg_dump --format=custom --file=linkwise.dump "$DATABASE_URL"
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" linkwise.dump
(README: "Backups").`;

/** `npm run backup` / `npm run restore`: instance backups for self-hosters. */
async function run(): Promise<void> {
  const [command, file] = process.argv.slice(2);
  loadDotEnv();
  const config = loadConfig();
  if (command !== 'backup' && command !== 'restore') {
    console.log(usage);
    process.exitCode = 1;
    return;
  }
  if (config.DATABASE_URL) {
    console.error(postgresAdvice);
    process.exitCode = 1;
    return;
  }
  if (command === 'backup') {
    let shown = -1;
    const written = await backupSqlite(config.dataDir, file ? path.resolve(file) : undefined, (done, total) => {
      const percent = total ? Math.floor((done / total) * 100) : 100;
      if (percent >= shown + 10) {
        shown = percent;
        process.stderr.write(`  ${percent}%\n`);
      }
    });
    console.log(`Backed up ${path.join(config.dataDir, 'linkwise.db')} to ${written}`);
    return;
  }
  if (!file) {
    console.error(usage);
    process.exitCode = 1;
    return;
  }
  const { previous } = await restoreSqlite(config.dataDir, path.resolve(file));
  console.log(
    `Restored ${path.resolve(file)} into ${path.join(config.dataDir, 'linkwise.db')}.` +
      (previous ? ` The database it replaced is kept as ${previous}.` : '') +
      ' Start the server: it migrates the restored database if it is older.',
  );
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
