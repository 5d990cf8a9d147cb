import type { DuplicateMode, EncryptedCredential } from '@linkwise/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import { Priority } from '../../platform/jobs/job.js';
import { analyzeDedupeKey } from './link-analysis.service.js';
import { LinkImportRepository, type BulkLink } from './link-import.repository.js';
import { isWithinCutoff, type LinkRepository } from './link.repository.js';
import { hostTitle } from './url-normalize.js';

/** A link read from a file, mapped to Linkwise's fields and checked (URL, lengths, tags). */
export interface ImportedLink {
  /** Kept from a Linkwise export when no other link has it (credentials are bound to it). */
  id: string | null;
  url: string;
  /** The normalised URL duplicates are detected by. */
  key: string;
  title: string;
  description: string;
  aiDescription: string | null;
  category: string | null;
  tags: string[];
  notes: string;
  isRead: boolean;
  isReadLater: boolean;
  favicon: string | null;
  analysisStatus: 'pending' | 'done' | 'failed';
  createdAt: number;
  updatedAt: number;
  credentials: EncryptedCredential[];
}

export type ImportOutcome =
  | {
      status: 'created';
      linkId: string;
      credentialsDropped: number;
      /** Why they were dropped: sealed with another vault's key, or with an id another link already has. */
      droppedFor: 'vault' | 'id' | null;
    }
  | { status: 'updated'; linkId: string }
  /** `earlierInFile`: the link this import made from an earlier occurrence of the address. */
  | { status: 'duplicate'; linkId: string; earlierInFile: boolean }
  | { status: 'over-limit' };

export interface ImportBatch {
  userId: string;
  /** The plan's link limit, or null for unlimited. */
  limit: number | null;
  duplicates: DuplicateMode;
  /** Whether credentials in the file may be stored (they were sealed with the account's vault key). */
  keepCredentials: boolean;
  links: ImportedLink[];
  /**
   * Which of these links the import itself created in an earlier batch: a later repeat of an address
   * in the file is a duplicate of it, reported so and never filled into it (as within one batch).
   */
  ownEarlier: (tx: Kysely<DB>, linkIds: string[]) => Promise<Set<string>>;
  /** Runs in the same transaction after the links are written: the caller's checkpoint commits with them. */
  alsoInTransaction: (tx: Kysely<DB>, outcomes: ImportOutcome[]) => Promise<void>;
}

/**
 * Bulk link creation for imports, under the rules of a single save: one transaction per batch
 * holding the user's lock, the plan's limit counted inside it, duplicates by normalised URL (in the
 * library or earlier in the file), and each new link's analysis queued in the same transaction,
 * behind interactive saves. Analysis fills only what is empty, so imported titles and tags stay.
 */
export class LinkImportService {
  constructor(private readonly deps: { links: LinkRepository; queue: JobQueue; now: () => number }) {}

  async write(batch: ImportBatch): Promise<ImportOutcome[]> {
    const now = this.deps.now();
    const outcomes = await this.deps.links.transaction(async (tx) => {
      await tx.lockUser(batch.userId);
      const repo = new LinkImportRepository(tx.connection, tx.engine);
      let room = batch.limit === null ? Infinity : Math.max(0, batch.limit - (await tx.countAll(batch.userId)));
      const existing = await repo.existing(
        batch.userId,
        batch.links.map((l) => l.key),
      );
      const own =
        existing.size > 0
          ? await batch.ownEarlier(
              tx.connection,
              [...existing.values()].map((s) => s.id),
            )
          : new Set<string>();
      // Links a downgrade hides stay as they were, as with every other change (spec §4).
      const cutoff = batch.limit === null ? null : await tx.cutoff(batch.userId, batch.limit);
      const wantedIds = batch.links.map((l) => l.id).filter((id): id is string => Boolean(id));
      const taken = wantedIds.length > 0 ? await repo.takenIds(wantedIds) : new Set<string>();
      const created = new Map<string, string>();
      const rows: BulkLink[] = [];
      const outcomes: ImportOutcome[] = [];
      for (const link of batch.links) {
        const saved = existing.get(link.key);
        const earlier = created.get(link.key);
        if (saved) {
          const inFile = own.has(saved.id);
          outcomes.push(
            batch.duplicates === 'fill-empty' &&
              !inFile &&
              isWithinCutoff(cutoff, saved.created_at, saved.id) &&
              (await this.fillEmpty(repo, batch.userId, saved, link, now))
              ? { status: 'updated', linkId: saved.id }
              : { status: 'duplicate', linkId: saved.id, earlierInFile: inFile },
          );
          continue;
        }
        if (earlier) {
          outcomes.push({ status: 'duplicate', linkId: earlier, earlierInFile: true });
          continue;
        }
        if (room <= 0) {
          outcomes.push({ status: 'over-limit' });
          continue;
        }
        room -= 1;
        const keepId = link.id !== null && !taken.has(link.id);
        const id = keepId ? link.id! : newId();
        // Credentials are sealed with their link's id: under a new id they could never be opened.
        const credentials = keepId && batch.keepCredentials ? link.credentials : [];
        created.set(link.key, id);
        rows.push({
          row: {
            id,
            user_id: batch.userId,
            url: link.url,
            normalized_url: link.key,
            title: link.title || hostTitle(link.url),
            description: link.description,
            ai_description: link.aiDescription,
            category: link.category,
            notes: link.notes,
            is_read: link.isRead ? 1 : 0,
            is_read_later: link.isReadLater ? 1 : 0,
            has_credentials: credentials.length > 0 ? 1 : 0,
            favicon: link.favicon,
            analysis_status: link.analysisStatus,
            created_at: link.createdAt,
            updated_at: link.updatedAt,
          },
          tags: link.tags,
          credentials,
        });
        outcomes.push({
          status: 'created',
          linkId: id,
          credentialsDropped: link.credentials.length - credentials.length,
          droppedFor: link.credentials.length === credentials.length ? null : batch.keepCredentials ? 'id' : 'vault',
        });
      }
      await repo.insert(batch.userId, rows, now);
      // A restored link that analysis already finished keeps its results; the rest are analysed, in bulk.
      const toAnalyse = rows.filter((r) => r.row.analysis_status !== 'done');
      await this.deps.queue.enqueueMany(
        'analyze-link',
        toAnalyse.map((r) => ({
          payload: { linkId: r.row.id, userId: batch.userId },
          dedupeKey: analyzeDedupeKey(r.row.id),
        })),
        { tx: tx.connection, priority: Priority.bulk },
      );
      await batch.alsoInTransaction(tx.connection, outcomes);
      return outcomes;
    });
    this.deps.queue.queued();
    return outcomes;
  }

  /** "Update empty fields": fills what the saved link lacks from the file; never overwrites. True when something changed. */
  private async fillEmpty(
    repo: LinkImportRepository,
    userId: string,
    saved: { id: string; title: string; url: string; description: string; notes: string; category: string | null },
    link: ImportedLink,
    now: number,
  ): Promise<boolean> {
    const changes: { title?: string; description?: string; notes?: string; category?: string } = {};
    if (link.title && (!saved.title || saved.title === hostTitle(saved.url))) changes.title = link.title;
    if (link.description && !saved.description) changes.description = link.description;
    if (link.notes && !saved.notes) changes.notes = link.notes;
    if (link.category && !saved.category) changes.category = link.category;
    const addTags = link.tags.length > 0 && !(await repo.hasTags(saved.id));
    if (addTags) await repo.attachTags(userId, [{ linkId: saved.id, tags: link.tags }], now);
    if (Object.keys(changes).length > 0) await repo.fill(userId, saved.id, { ...changes, updated_at: now });
    return addTags || Object.keys(changes).length > 0;
  }
}
