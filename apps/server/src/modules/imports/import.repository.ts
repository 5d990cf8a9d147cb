import type { ImportIssue } from '@linkwise/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ImportsTable } from '../../db/schema.js';

export type ImportRow = Selectable<ImportsTable>;

/** What one committed batch adds to an import (written in the batch's own transaction). */
export interface Checkpoint {
  processed: number;
  created: number;
  updated: number;
  duplicates: number;
  skipped: number;
  failed: number;
  issues: ImportIssue[];
  linkIds: string[];
}

/** Imports, their report lines and the links they created. The only place import SQL lives. */
export class ImportRepository {
  constructor(private readonly db: Kysely<DB>) {}

  with(db: Kysely<DB>): ImportRepository {
    return new ImportRepository(db);
  }

  async insert(
    row: Omit<ImportRow, 'processed' | 'created' | 'updated' | 'duplicates' | 'skipped' | 'failed'>,
  ): Promise<void> {
    await this.db.insertInto('imports').values(row).execute();
  }

  find(userId: string, id: string): Promise<ImportRow | undefined> {
    return this.db
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** How many of the user's imports are waiting or running. */
  async active(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('imports')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(userId: string, limit: number): Promise<ImportRow[]> {
    return this.db
      .selectFrom('imports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async setJob(id: string, jobId: string | null): Promise<void> {
    await this.db.updateTable('imports').set({ job_id: jobId }).where('id', '=', id).execute();
  }

  /** Moves a live import to `status`; false when it had already finished (canceled meanwhile). */
  async setStatus(
    id: string,
    status: ImportRow['status'],
    changes: { finished_at?: number; message?: string | null; total?: number } = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({ status, ...changes })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setTotal(id: string, total: number): Promise<void> {
    await this.db.updateTable('imports').set({ total }).where('id', '=', id).execute();
  }

  /** Adds a batch's counts and report lines; `processed` is where a resumed job starts again. */
  async checkpoint(id: string, c: Checkpoint): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({
        processed: c.processed,
        created: sql`created + ${c.created}`,
        updated: sql`updated + ${c.updated}`,
        duplicates: sql`duplicates + ${c.duplicates}`,
        skipped: sql`skipped + ${c.skipped}`,
        failed: sql`failed + ${c.failed}`,
      })
      .where('id', '=', id)
      .execute();
    for (let i = 0; i < c.issues.length; i += 200) {
      await this.db
        .insertInto('import_issues')
        .values(
          c.issues.slice(i, i + 200).map((issue) => ({
            import_id: id,
            idx: issue.index,
            kind: issue.kind,
            url: issue.url,
            reason: issue.reason,
          })),
        )
        .execute();
    }
    for (let i = 0; i < c.linkIds.length; i += 400) {
      await this.db
        .insertInto('import_links')
        .values(c.linkIds.slice(i, i + 400).map((link_id) => ({ import_id: id, link_id })))
        .execute();
    }
  }

  /** Which of these links this import created (a duplicate of one of them appeared earlier in the file). */
  async ownLinks(id: string, linkIds: string[]): Promise<Set<string>> {
    if (linkIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('import_links')
      .select('link_id')
      .where('import_id', '=', id)
      .where('link_id', 'in', [...new Set(linkIds)])
      .execute();
    return new Set(rows.map((r) => r.link_id));
  }

  async issues(id: string, limit: number, after = -1): Promise<ImportIssue[]> {
    const rows = await this.db
      .selectFrom('import_issues')
      .select(['idx', 'kind', 'url', 'reason'])
      .where('import_id', '=', id)
      .where('idx', '>', after)
      .orderBy('idx')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ index: r.idx, kind: r.kind, url: r.url, reason: r.reason }));
  }

  /** Of the links this import created (and that still exist), how many analyses have finished. */
  async analysed(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('import_links as il')
      .innerJoin('links as l', 'l.id', 'il.link_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('il.import_id', '=', id)
      .where('l.analysis_status', '!=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
