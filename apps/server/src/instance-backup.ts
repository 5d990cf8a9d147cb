import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';

const sqlite = () => createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;

export const databaseFile = (dataDir: string) => path.join(dataDir, 'linkwise.db');

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * A consistent copy of the SQLite database while the server keeps running: SQLite's online backup
 * (better-sqlite3's `.backup()`) copies pages in steps and restarts a step a writer changed, so
 * the copy is one committed state, WAL included. Returns the file written.
 */
export async function backupSqlite(
  dataDir: string,
  target = path.join(dataDir, 'instance-backups', `linkwise-${stamp()}.db`),
  onProgress?: (done: number, total: number) => void,
): Promise<string> {
  const source = databaseFile(dataDir);
  if (!existsSync(source)) throw new Error(`No database at ${source}: check DATA_DIR.`);
  mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const db = new (sqlite())(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress?.(totalPages - remainingPages, totalPages);
        return 256;
      },
    });
  } finally {
    db.close();
  }
  // The database's secrets (hashes, encrypted two-factor keys) are the service user's alone.
  chmodSync(partial, 0o600);
  renameSync(partial, target);
  return target;
}

/**
 * Refuses a database another process has open. A running server keeps the file and its write-ahead
 * log open; replacing them under it would let it go on writing to the replaced file, and every write
 * it acknowledged after the restore would be lost at its next start. Leaving WAL mode needs the only
 * connection, so it fails at once (SQLITE_BUSY) while a server is running; a stopped server sets WAL
 * again when it next opens the file.
 */
function assertNotInUse(live: string): void {
  const db = new (sqlite())(live, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_LOCKED') {
      throw new Error(`${live} is in use: stop the server (every process using this DATA_DIR) first, then restore.`);
    }
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Puts a backup in place of the database (the server must be stopped). The backup is checked to be
 * a Linkwise database first, and the current database is kept beside it as
 * `linkwise.db.before-restore-<time>`; the next start migrates the restored copy if it is older.
 */
export async function restoreSqlite(dataDir: string, backup: string): Promise<{ previous: string | null }> {
  if (!existsSync(backup)) throw new Error(`No backup file at ${backup}.`);
  const Sqlite = sqlite();
  const check = new Sqlite(backup, { readonly: true, fileMustExist: true });
  try {
    const ok = check.prepare("select 1 from sqlite_master where type = 'table' and name = 'schema_migrations'").get();
    if (!ok) throw new Error(`${backup} is not a Linkwise database.`);
    const integrity = check.pragma('quick_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${backup} is damaged (${String(integrity)}).`);
  } finally {
    check.close();
  }
  const live = databaseFile(dataDir);
  if (existsSync(live)) assertNotInUse(live);
  let previous: string | null = null;
  if (existsSync(live)) {
    previous = `${live}.before-restore-${stamp()}`;
    await backupSqlite(dataDir, previous);
  }
  mkdirSync(dataDir, { recursive: true });
  const staged = `${live}.restoring`;
  const source = new Sqlite(backup, { readonly: true, fileMustExist: true });
  try {
    await source.backup(staged);
  } finally {
    source.close();
  }
  // The old write-ahead log belongs to the old file: it must not be replayed over the restored one.
  for (const suffix of ['-wal', '-shm']) rmSync(`${live}${suffix}`, { force: true });
  renameSync(staged, live);
  return { previous };
}
