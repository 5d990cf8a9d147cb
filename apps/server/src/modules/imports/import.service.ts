import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ImportFormatNames,
  type Import,
  type ImportFormat,
  type ImportIssue,
  type ImportOptions,
  type ImportPreview,
  type VaultKeyMaterial,
} from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { storableText } from '../../http/text-hygiene.js';
import { toIso, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Actor } from '../../platform/actor.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { JobContext } from '../../platform/jobs/job.js';
import type { BillingService } from '../billing/billing.service.js';
import type { SubscriptionRepository } from '../billing/subscription.repository.js';
import type { LinkImportService } from '../links/link-import.service.js';
import type { LinkRepository } from '../links/link.repository.js';
import type { VaultRepository } from '../vault/vault.repository.js';
import { LinkImportRepository } from '../links/link-import.repository.js';
import { detectFormat, readImportFile } from './formats/read.js';
import { ImportFileError, type ImportRecord } from './formats/record.js';
import type { ImportRepository, ImportRow } from './import.repository.js';
import { mapRecord } from './mapping.js';

/** Items committed in one transaction: one checkpoint each. */
export const IMPORT_BATCH = 500;
const PREVIEW_ROWS = 20;
const ISSUES_IN_VIEW = 100;

export const importDedupeKey = (id: string) => `import-links:${id}`;

export interface ImportDeps {
  imports: ImportRepository;
  links: LinkRepository;
  linkImport: LinkImportService;
  vaults: VaultRepository;
  subscriptions: SubscriptionRepository;
  billing: BillingService;
  queue: JobQueue;
  clock: Clock;
  dataDir: string;
  log: FastifyBaseLogger;
}

export const unsupportedFormat = () =>
  new AppError(
    'UNSUPPORTED_FORMAT',
    'This file is not a bookmark export Linkwise can read. Choose a browser bookmarks HTML file, an export from Pocket, Raindrop, Instapaper, Omnivore, Linkwarden, Karakeep or Linkwise, a CSV file with a url column, or a text file of addresses, one per line.',
  );

/** Imports one account may have waiting or running at once. */
const ACTIVE_IMPORTS_MAX = 3;

/**
 * What became of a Linkwise export's vault key material: none in the file, the account's own key
 * (credentials kept), another key, or not set up because an API token sent the file.
 */
type VaultAdoption = 'none' | 'kept' | 'other-key' | 'token';

/** An upload larger than the route's cap: the file stream stops there. */
export class UploadTooLarge extends Error {}

/** Imports: the stored upload, the background job that reads it in checkpointed batches, the report. */
export class ImportService {
  constructor(private readonly deps: ImportDeps) {}

  private folder(): string {
    return path.join(this.deps.dataDir, 'imports');
  }

  private fileOf(id: string): string {
    return path.join(this.folder(), `${id}.upload`);
  }

  /** Streams an upload to disk (never whole in memory); `truncated` tells whether the cap cut it. */
  private async store(id: string, file: Readable, truncated: () => boolean): Promise<string> {
    await mkdir(this.folder(), { recursive: true });
    const target = this.fileOf(id);
    try {
      await pipeline(file, createWriteStream(target, { mode: 0o600 }));
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    if (truncated()) {
      await rm(target, { force: true });
      throw new UploadTooLarge();
    }
    return target;
  }

  async start(
    actor: Actor,
    upload: { file: Readable; fileName: string; truncated: () => boolean },
    options: ImportOptions,
  ): Promise<{ id: string; status: 'queued'; format: ImportFormat }> {
    const id = newId();
    const file = await this.store(id, upload.file, upload.truncated);
    // Each waiting upload holds its file in DATA_DIR until a worker reads it.
    if ((await this.deps.imports.active(actor.userId)) >= ACTIVE_IMPORTS_MAX) {
      await rm(file, { force: true });
      throw new AppError(
        'INVALID_STATE',
        `${ACTIVE_IMPORTS_MAX} of your imports are still waiting or running. Let one finish, or cancel it, then import this file.`,
      );
    }
    let format: ImportFormat | null;
    try {
      format = options.format === 'auto' ? await detectFormat(file) : options.format;
    } catch (error) {
      await rm(file, { force: true });
      if (error instanceof ImportFileError) throw new AppError('UNSUPPORTED_FORMAT', error.message);
      throw error;
    }
    if (!format) {
      await rm(file, { force: true });
      throw unsupportedFormat();
    }
    const { size } = await stat(file);
    const now = this.deps.clock.now();
    await this.deps.links.transaction(async (tx) => {
      const imports = this.deps.imports.with(tx.connection);
      await imports.insert({
        id,
        user_id: actor.userId,
        status: 'queued',
        format,
        file_name: storableText(Array.from(upload.fileName).slice(0, 255).join('')) || 'upload',
        file_bytes: size,
        // An API token may not set up the vault (PUT /api/vault refuses it): nor may its import.
        options: JSON.stringify({
          categoryFrom: options.categoryFrom,
          duplicates: options.duplicates,
          mayCreateVault: actor.tokenKind !== 'api',
        }),
        job_id: null,
        total: null,
        message: null,
        created_at: now,
        finished_at: null,
      });
      const jobId = await this.deps.queue.enqueue(
        'import-links',
        { importId: id, userId: actor.userId },
        { tx: tx.connection, dedupeKey: importDedupeKey(id) },
      );
      await imports.setJob(id, jobId);
    });
    this.deps.queue.queued();
    return { id, status: 'queued', format };
  }

  /** The detected format and the first items as they would be saved, duplicates marked; nothing is stored. */
  async preview(
    actor: Actor,
    upload: { file: Readable; fileName: string; truncated: () => boolean },
    options: ImportOptions,
  ): Promise<ImportPreview> {
    const id = `preview-${newId()}`;
    // A preview may be sent only the start of a big file: what the cap cut off is not needed.
    const file = await this.store(id, upload.file, () => false);
    try {
      const format = options.format === 'auto' ? await detectFormat(file) : options.format;
      if (!format) throw unsupportedFormat();
      const rows: ImportPreview['rows'] = [];
      let hasFolders = false;
      const now = this.deps.clock.now();
      // Each row's duplicate key (null for a row the import skips), looked up together after the loop.
      const keys: (string | null)[] = [];
      try {
        for await (const item of readImportFile(file, format, { highlights: false })) {
          if (!('record' in item)) continue;
          if (item.record.folders.length > 0) hasFolders = true;
          const mapped = mapRecord(item.record, options.categoryFrom, now);
          keys.push('link' in mapped ? mapped.link.key : null);
          rows.push(
            'link' in mapped
              ? {
                  url: mapped.link.url,
                  title: mapped.link.title,
                  category: mapped.link.category,
                  tags: mapped.link.tags,
                  description: mapped.link.description,
                  notes: mapped.link.notes,
                  isRead: mapped.link.isRead,
                  isReadLater: mapped.link.isReadLater,
                  createdAt: item.record.createdAt === null ? null : toIso(mapped.link.createdAt),
                  problem: null,
                  duplicate: null,
                }
              : {
                  url: mapped.url.slice(0, 300),
                  title: item.record.title.slice(0, 200),
                  category: null,
                  tags: [],
                  description: '',
                  notes: '',
                  isRead: false,
                  isReadLater: false,
                  createdAt: null,
                  problem: mapped.problem,
                  duplicate: null,
                },
          );
          if (rows.length >= PREVIEW_ROWS) break;
        }
      } catch (error) {
        // A file cut short for the preview ends mid-item: what was read is the preview.
        if (!(error instanceof ImportFileError) || rows.length === 0) throw error;
      }
      await this.markDuplicates(actor.userId, rows, keys);
      return { format, formatName: ImportFormatNames[format], rows, hasFolders };
    } catch (error) {
      if (error instanceof ImportFileError) throw new AppError('UNSUPPORTED_FORMAT', error.message);
      throw error;
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Marks rows whose address is already in the library, or earlier in the file (one lookup for all). */
  private async markDuplicates(userId: string, rows: ImportPreview['rows'], keys: (string | null)[]): Promise<void> {
    const { links } = this.deps;
    const wanted = keys.filter((k): k is string => k !== null);
    const saved = await new LinkImportRepository(links.connection, links.engine).existing(userId, wanted);
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      const key = keys[i];
      if (!key) return;
      row.duplicate = seen.has(key) ? 'file' : saved.has(key) ? 'library' : null;
      seen.add(key);
    });
  }

  private async view(row: ImportRow, withIssues: boolean): Promise<Import> {
    const { categoryFrom, duplicates } = JSON.parse(row.options) as Import['options'];
    const options = { categoryFrom, duplicates };
    return {
      id: row.id,
      status: row.status,
      format: row.format as ImportFormat,
      fileName: row.file_name,
      options,
      total: row.total,
      processed: row.processed,
      created: row.created,
      updated: row.updated,
      duplicates: row.duplicates,
      skipped: row.skipped,
      failed: row.failed,
      analysed: row.created > 0 ? await this.deps.imports.analysed(row.id) : 0,
      message: row.message,
      errors: withIssues ? await this.deps.imports.issues(row.id, ISSUES_IN_VIEW) : [],
      createdAt: toIso(row.created_at),
      finishedAt: row.finished_at === null ? null : toIso(row.finished_at),
    };
  }

  async get(actor: Actor, id: string): Promise<Import> {
    const row = await this.deps.imports.find(actor.userId, id);
    if (!row) throw notFound('Import');
    return this.view(row, true);
  }

  async list(actor: Actor): Promise<{ data: Import[] }> {
    const rows = await this.deps.imports.list(actor.userId, 20);
    return { data: await Promise.all(rows.map((r) => this.view(r, false))) };
  }

  /** Every skipped or failed item, for the report download (read in pages, never all at once). */
  async *report(actor: Actor, id: string): AsyncGenerator<ImportIssue> {
    const row = await this.deps.imports.find(actor.userId, id);
    if (!row) throw notFound('Import');
    let after = -1;
    for (;;) {
      const page = await this.deps.imports.issues(id, 1000, after);
      yield* page;
      if (page.length < 1000) return;
      after = page.at(-1)!.index;
    }
  }

  async cancel(actor: Actor, id: string): Promise<void> {
    const row = await this.deps.imports.find(actor.userId, id);
    if (!row) throw notFound('Import');
    const now = this.deps.clock.now();
    if (await this.deps.imports.setStatus(id, 'canceled', { finished_at: now, message: 'Canceled' })) {
      if (row.job_id) await this.deps.queue.cancel(row.job_id);
      // A running job deletes the file when it stops; a queued one never starts.
      if (row.status === 'queued') await rm(this.fileOf(id), { force: true });
    }
  }

  /** The job: reads the stored file from its checkpoint to the end, a batch per transaction. */
  async run(importId: string, userId: string, ctx: JobContext): Promise<void> {
    const { imports, clock } = this.deps;
    const row = await imports.find(userId, importId);
    const file = this.fileOf(importId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) {
      // Canceled before it ran, or its user was deleted: the upload goes too.
      await rm(file, { force: true });
      return;
    }
    await imports.setStatus(importId, 'running');
    const options = JSON.parse(row.options) as Import['options'] & { mayCreateVault?: boolean };
    const format = row.format as ImportFormat;
    const subscription = await this.deps.subscriptions.find(userId);
    const limit = this.deps.billing.linkLimitOf({ subscription });
    try {
      let total = row.total;
      if (total === null) {
        total = 0;
        for await (const item of readImportFile(file, format, { highlights: false })) if ('record' in item) total += 1;
        await imports.setTotal(importId, total);
      }
      await ctx.progress({ done: row.processed, total });
      let vault: VaultAdoption = 'none';
      let index = 0;
      let batch: { index: number; record: ImportRecord }[] = [];
      for await (const item of readImportFile(file, format)) {
        if ('vault' in item) {
          // Imports queued before the flag existed came from the web app or the extension.
          vault = await this.adoptVault(userId, item.vault, options.mayCreateVault ?? true);
          continue;
        }
        if (index >= row.processed) batch.push({ index, record: item.record });
        index += 1;
        if (batch.length >= IMPORT_BATCH) {
          await this.commit(importId, userId, limit, options, vault, batch);
          batch = [];
          await ctx.progress({ done: index, total });
          if (await this.stopped(userId, importId, ctx)) return;
        }
      }
      await this.commit(importId, userId, limit, options, vault, batch);
      await imports.setStatus(importId, 'done', { finished_at: clock.now(), total: index });
      await ctx.progress({ done: index, total: index });
      await rm(file, { force: true });
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      // The file itself is at fault: retrying cannot help, and what was imported stays.
      await imports.setStatus(importId, 'failed', { finished_at: clock.now(), message: error.message });
      await rm(file, { force: true });
    }
  }

  /** After the last attempt failed: the import ends, with what it imported kept. */
  async giveUp(importId: string, userId: string, error: unknown): Promise<void> {
    this.deps.log.error({ importId, err: error }, 'import stopped after its last attempt');
    await this.deps.imports.setStatus(importId, 'failed', {
      finished_at: this.deps.clock.now(),
      message: 'The import stopped unexpectedly. The links imported so far are kept; try the rest again.',
    });
    await rm(this.fileOf(importId), { force: true });
    void userId;
  }

  private async stopped(userId: string, importId: string, ctx: JobContext): Promise<boolean> {
    const now = await this.deps.imports.find(userId, importId);
    if (now?.status === 'canceled' || ctx.signal.aborted) {
      if (now?.status === 'canceled') await rm(this.fileOf(importId), { force: true });
      // A shutdown (not a cancel) resumes from the checkpoint on the next start.
      if (now?.status !== 'canceled') throw new Error('stopped: the worker is shutting down');
      return true;
    }
    return false;
  }

  /**
   * A Linkwise export's credentials are sealed with its vault key: kept when the account holds the
   * same key, or has no vault yet and `mayCreate` (the exported key material is restored with them;
   * never from a file an API token sent).
   */
  private async adoptVault(
    userId: string,
    material: VaultKeyMaterial | null,
    mayCreate: boolean,
  ): Promise<VaultAdoption> {
    if (!material) return 'none';
    const current = await this.deps.vaults.find(userId);
    if (current) return current.material.wrappedKey === material.wrappedKey ? 'kept' : 'other-key';
    if (!mayCreate) return 'token';
    return (await this.deps.vaults.save(userId, material, null, this.deps.clock.now())) ? 'kept' : 'other-key';
  }

  private async commit(
    importId: string,
    userId: string,
    limit: number | null,
    options: Import['options'],
    vault: VaultAdoption,
    batch: { index: number; record: ImportRecord }[],
  ): Promise<void> {
    if (batch.length === 0) return;
    const now = this.deps.clock.now();
    const issues: ImportIssue[] = [];
    const links: {
      index: number;
      url: string;
      link: Parameters<LinkImportService['write']>[0]['links'][number];
      partial?: string | undefined;
    }[] = [];
    let skipped = 0;
    let failed = 0;
    for (const { index, record } of batch) {
      const mapped = mapRecord(record, options.categoryFrom, now);
      if ('link' in mapped) links.push({ index, url: mapped.link.url, link: mapped.link, partial: mapped.partial });
      else {
        issues.push({ index, kind: mapped.kind, url: mapped.url.slice(0, 2100), reason: mapped.problem });
        if (mapped.kind === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    await this.deps.linkImport.write({
      userId,
      limit,
      duplicates: options.duplicates,
      keepCredentials: vault === 'kept',
      links: links.map((l) => l.link),
      ownEarlier: (tx, linkIds) => this.deps.imports.with(tx).ownLinks(importId, linkIds),
      alsoInTransaction: async (tx, outcomes) => {
        const imports = this.deps.imports.with(tx);
        const createdNow = new Set(outcomes.flatMap((o) => (o.status === 'created' ? [o.linkId] : [])));
        let created = 0;
        let updated = 0;
        let duplicates = 0;
        outcomes.forEach((outcome, i) => {
          const { index, url, partial } = links[i]!;
          switch (outcome.status) {
            case 'created':
              created += 1;
              if (partial) issues.push({ index, kind: 'partial', url, reason: partial });
              if (outcome.credentialsDropped > 0) {
                issues.push({
                  index,
                  kind: 'partial',
                  url,
                  reason:
                    outcome.droppedFor === 'id'
                      ? `Imported without its ${outcome.credentialsDropped} saved credential(s): they are sealed to the link's id, which another link already has (delete that link, then import again)`
                      : vault === 'token'
                        ? `Imported without its ${outcome.credentialsDropped} saved credential(s): an API token cannot set up the vault (import the file from the web app to keep them)`
                        : `Imported without its ${outcome.credentialsDropped} saved credential(s): they were sealed with another vault's key`,
                });
              }
              break;
            case 'updated':
              updated += 1;
              break;
            case 'duplicate': {
              duplicates += 1;
              issues.push({
                index,
                kind: 'duplicate',
                url,
                reason: outcome.earlierInFile ? 'Appears earlier in this file' : 'Already in your library',
              });
              break;
            }
            case 'over-limit':
              skipped += 1;
              issues.push({
                index,
                kind: 'skipped',
                url,
                reason: `Over the Free plan's limit of ${limit ?? 0} links: upgrade to Pro to import the rest`,
              });
              break;
          }
        });
        issues.sort((a, b) => a.index - b.index);
        await imports.checkpoint(importId, {
          processed: batch.at(-1)!.index + 1,
          created,
          updated,
          duplicates,
          skipped,
          failed,
          issues,
          linkIds: [...createdNow],
        });
      },
    });
  }
}
