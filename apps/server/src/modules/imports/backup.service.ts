import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Backup, BackupListResponse } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { DAY_MS, toIso, type Clock } from '../../lib/clock.js';
import type { Actor } from '../../platform/actor.js';
import { effectiveSubscription, isPro, type BillingMode } from '../billing/entitlements.js';
import type { ExportService } from './export.service.js';

export interface BackupDeps {
  db: Kysely<DB>;
  exports: ExportService;
  dataDir: string;
  billingMode: BillingMode;
  everyDays: number;
  keep: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** A backup's id is its UTC time, which also sorts them: `20261125T013000Z`. */
const BACKUP_ID = /^\d{8}T\d{6}\d{3}Z$/;

/**
 * Pro automatic backups: a Linkwise JSON export written to `DATA_DIR/backups/<user id>/` every
 * `everyDays`, the newest `keep` kept. Files, not rows: a backup must survive the database it
 * backs up; the account's deletion removes the folder (`deleteFor`).
 */
export class BackupService {
  constructor(private readonly deps: BackupDeps) {}

  private folder(userId: string): string {
    // User ids are UUIDs; anything else never reaches the file system.
    if (!/^[0-9a-f-]{1,64}$/i.test(userId)) throw new Error('unexpected user id');
    return path.join(this.deps.dataDir, 'backups', userId);
  }

  enabledFor(actor: Pick<Actor, 'subscription'>): boolean {
    return this.deps.billingMode === 'off' || isPro(effectiveSubscription(actor.subscription, this.deps.clock.now()));
  }

  private async files(userId: string): Promise<Backup[]> {
    const folder = this.folder(userId);
    const names = await readdir(folder).catch(() => [] as string[]);
    const out: Backup[] = [];
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      if (!name.endsWith('.json') || !BACKUP_ID.test(id)) continue;
      const info = await stat(path.join(folder, name)).catch(() => undefined);
      if (!info) continue;
      const t = id.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/, '$1-$2-$3T$4:$5:$6.$7Z');
      out.push({ id, createdAt: toIso(Date.parse(t)), bytes: info.size, links: null });
    }
    return out.sort((a, b) => b.id.localeCompare(a.id));
  }

  async list(actor: Actor): Promise<BackupListResponse> {
    return {
      data: await this.files(actor.userId),
      enabled: this.enabledFor(actor),
      everyDays: this.deps.everyDays,
      keep: this.deps.keep,
    };
  }

  async open(actor: Actor, id: string): Promise<Readable> {
    if (!BACKUP_ID.test(id)) throw notFound('Backup');
    const file = path.join(this.folder(actor.userId), `${id}.json`);
    if (!(await stat(file).catch(() => undefined))) throw notFound('Backup');
    return createReadStream(file);
  }

  /** Writes one backup now (to a temporary name first: a half-written file is never listed), then prunes. */
  async backUp(userId: string): Promise<string> {
    const folder = this.folder(userId);
    await mkdir(folder, { recursive: true });
    const id = toIso(this.deps.clock.now()).replace(/[-:]/g, '').replace('.', '');
    const target = path.join(folder, `${id}.json`);
    const partial = `${target}.partial`;
    await pipeline(Readable.from(this.deps.exports.json(userId)), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
    const all = await this.files(userId);
    for (const old of all.slice(this.deps.keep)) await rm(path.join(folder, `${old.id}.json`), { force: true });
    return id;
  }

  /** Backs up every user who is due (Pro, last backup older than the interval); how many were written. */
  async runDue(signal?: AbortSignal): Promise<number> {
    const now = this.deps.clock.now();
    const userIds =
      this.deps.billingMode === 'off'
        ? (await this.deps.db.selectFrom('users').select('id').execute()).map((r) => r.id)
        : (await this.deps.db.selectFrom('subscriptions').selectAll().where('status', '!=', 'free').execute())
            .filter((row) => isPro(effectiveSubscription(row, now)))
            .map((row) => row.user_id);
    let written = 0;
    for (const uid of userIds) {
      if (signal?.aborted) break;
      const [latest] = await this.files(uid);
      if (latest && Date.parse(latest.createdAt) > now - this.deps.everyDays * DAY_MS) continue;
      try {
        await this.backUp(uid);
        written += 1;
      } catch (error) {
        this.deps.log.error({ err: error, userId: uid }, 'automatic backup failed');
      }
    }
    return written;
  }

  /** Removes every backup of a user (account deletion calls this). */
  async deleteFor(userId: string): Promise<void> {
    await rm(this.folder(userId), { recursive: true, force: true });
  }
}
