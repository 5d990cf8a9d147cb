import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSqlite, restoreSqlite } from '../src/instance-backup.js';
import { engines, raw, startServer, upgrade, type TestServer } from './harness.js';

describe.each(engines())('automatic backups on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { BILLING: 'simulated', BACKUP_KEEP: '2', BACKUP_EVERY_DAYS: '7' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('backs up Pro users weekly, keeps the last N, lists and serves them only to their owner', async () => {
    const pro = await server.signUp('pro');
    await upgrade(server, pro.api);
    await pro.api.createLink({ body: { url: 'https://backup.example.com/a', title: 'Backed up' } });
    const free = await server.signUp('free');
    expect(await free.api.listBackups()).toMatchObject({ data: [], enabled: false, everyDays: 7, keep: 2 });

    const { BackupService } = await import('../src/modules/imports/backup.service.js');
    const { ExportService } = await import('../src/modules/imports/export.service.js');
    const { LinkRepository } = await import('../src/modules/links/link.repository.js');
    const { VaultRepository } = await import('../src/modules/vault/vault.repository.js');
    const db = server.database.db;
    const exports = new ExportService({
      db,
      links: new LinkRepository(db, server.database.engine),
      vaults: new VaultRepository(db),
      clock: server.clock,
    });
    const backups = new BackupService({
      db,
      exports,
      dataDir: server.config.dataDir,
      billingMode: 'simulated',
      everyDays: 7,
      keep: 2,
      clock: server.clock,
      log: server.app.log,
    });
    expect(await backups.runDue()).toBe(1);
    // Not due again within the week; due after it.
    server.clock.advance(24 * 3600_000);
    expect(await backups.runDue()).toBe(0);
    for (let week = 0; week < 3; week++) {
      server.clock.advance(7 * 24 * 3600_000);
      expect(await backups.runDue()).toBe(1);
    }
    const listed = await pro.api.listBackups();
    expect(listed.enabled).toBe(true);
    expect(listed.data).toHaveLength(2);
    expect(Date.parse(listed.data[0]!.createdAt)).toBeGreaterThan(Date.parse(listed.data[1]!.createdAt));
    const file = await raw(server, 'GET', `/api/backups/${listed.data[0]!.id}`, { token: pro.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    // Only the service user reads a backup on disk.
    const onDisk = path.join(server.config.dataDir, 'backups', pro.userId, `${listed.data[0]!.id}.json`);
    expect(statSync(onDisk).mode & 0o777).toBe(0o600);
    const body = file.json() as { format: string; links: { title: string }[] };
    expect(body.format).toBe('linkwise');
    expect(body.links.map((l) => l.title)).toEqual(['Backed up']);
    expect((await raw(server, 'GET', `/api/backups/${listed.data[0]!.id}`, { token: free.token })).status).toBe(404);
    expect((await raw(server, 'GET', '/api/backups/..%2F..%2Flinkwise.db', { token: pro.token })).status).toBe(404);

    await backups.deleteFor(pro.userId);
    expect(existsSync(path.join(server.config.dataDir, 'backups', pro.userId))).toBe(false);
    expect((await pro.api.listBackups()).data).toEqual([]);
  });
});

describe('instance backup and restore (SQLite)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('copies the database consistently while the server runs, and restores it', async () => {
    const server = await startServer('sqlite');
    dirs.push(mkdtempSync(path.join(tmpdir(), 'linkwise-instance-backup-')));
    const { api } = await server.signUp('instance');
    await api.createLink({ body: { url: 'https://before.example.com/' } });
    const target = path.join(dirs[0]!, 'copy.db');
    // Writes keep going during the backup.
    const writing = (async () => {
      for (let i = 0; i < 20; i++) await api.createLink({ body: { url: `https://during.example.com/${i}` } });
    })();
    const written = await backupSqlite(server.config.dataDir, target);
    await writing;
    expect(written).toBe(target);
    // The database and its copies hold password and token hashes: the service user's alone.
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(server.config.dataDir, 'linkwise.db')).mode & 0o777).toBe(0o600);
    await api.createLink({ body: { url: 'https://after.example.com/' } });
    const dataDir = server.config.dataDir;
    const linksIn = async (dir: string) => {
      const { default: Sqlite } = await import('better-sqlite3');
      const db = new Sqlite(path.join(dir, 'linkwise.db'), { readonly: true });
      const row = db.prepare('select count(*) as n from links').get() as { n: number };
      db.close();
      return row.n;
    };
    await server.app.close();
    await server.database.close();

    const { rmSync: remove, renameSync } = await import('node:fs');
    renameSync(target, path.join(dirs[0]!, 'linkwise.db'));
    const copied = await linksIn(dirs[0]!);
    expect(copied).toBeGreaterThanOrEqual(1);
    expect(copied).toBeLessThanOrEqual(21);
    expect(await linksIn(dataDir)).toBe(22);

    const { previous } = await restoreSqlite(dataDir, path.join(dirs[0]!, 'linkwise.db'));
    expect(await linksIn(dataDir)).toBe(copied);
    expect(previous && readdirSync(dataDir).some((f) => f.startsWith('linkwise.db.before-restore-'))).toBe(true);
    await expect(restoreSqlite(dataDir, path.join(dirs[0]!, 'missing.db'))).rejects.toThrow('No backup file');
    remove(dataDir, { recursive: true, force: true });
  });

  it('refuses to restore while a server has the database open, and changes nothing', async () => {
    const server = await startServer('sqlite');
    const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-instance-restore-'));
    dirs.push(dir);
    const { api } = await server.signUp('restore-live');
    await api.createLink({ body: { url: 'https://in-backup.example.com/' } });
    const backup = await backupSqlite(server.config.dataDir, path.join(dir, 'copy.db'));
    await api.createLink({ body: { url: 'https://after-backup.example.com/' } });

    await expect(restoreSqlite(server.config.dataDir, backup)).rejects.toThrow(/is in use: stop the server/);
    expect(readdirSync(server.config.dataDir).some((f) => f.startsWith('linkwise.db.before-restore-'))).toBe(false);
    // The running server still sees, and keeps, what it wrote.
    await api.createLink({ body: { url: 'https://after-refusal.example.com/' } });
    const { data } = await api.listLinks({ query: {} });
    expect(data.map((l) => l.url).sort()).toEqual([
      'https://after-backup.example.com/',
      'https://after-refusal.example.com/',
      'https://in-backup.example.com/',
    ]);
    await server.app.close();
    await server.database.close();
  });
});
