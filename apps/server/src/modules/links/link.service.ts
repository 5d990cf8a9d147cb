import { AnalysisFailureReasonSchema } from '@linkwise/contract';
import type {
  AnalysisFailureReason,
  EncryptedCredential,
  Link,
  LinkCreate,
  LinkListQuery,
  LinkListResponse,
  LinkStats,
  LinkUpdate,
} from '@linkwise/contract';
import { AppError, notFound, validationError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS, toIso } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { LinkRow } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import { allowance } from '../billing/entitlements.js';
import type { BillingService } from '../billing/billing.service.js';
import { isWithinCutoff, type Cutoff, type HydratedLink, type LinkRepository } from './link.repository.js';
import { analyzeDedupeKey } from './link-analysis.service.js';
import { duplicateKey, hostTitle } from './url-normalize.js';

export interface LinkDeps {
  links: LinkRepository;
  billing: BillingService;
  clock: Clock;
  queue: JobQueue;
  /** Whether the user has vault key material: credentials sealed under no vault could never be opened. */
  hasVault: (userId: string) => Promise<boolean>;
}

/** A stored reason from an older or newer release reads as the generic one. */
function failureReason(stored: string | null): AnalysisFailureReason {
  return AnalysisFailureReasonSchema.safeParse(stored).data ?? 'error';
}

export function toLink({ row, tags, credentials }: HydratedLink): Link {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    description: row.description,
    aiDescription: row.ai_description,
    category: row.category,
    // Offered only while the category is still the analysis's: once the user chose, it is theirs.
    ...(Number(row.category_by_analysis) === 1 &&
      row.category_other &&
      row.category_other !== row.category && { otherCategory: row.category_other }),
    tags,
    notes: row.notes,
    isRead: row.is_read === 1,
    isReadLater: row.is_read_later === 1,
    credentials,
    favicon: row.favicon,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    analysisStatus: row.analysis_status,
    analysisFailure:
      row.analysis_status === 'failed'
        ? { reason: failureReason(row.analysis_error), status: row.analysis_error_status ?? null }
        : null,
    analysisStartedAt: row.analysis_status === 'pending' ? toIso(row.analysis_started_at ?? row.created_at) : null,
    faviconData: row.favicon_data,
  };
}

/** Credentials sent for a user with no vault key material (a stale device after a reset). */
const NO_VAULT = 'Your vault was reset or is not set up. Set it up again, then add the credentials.';

/**
 * Credential ids are the client's handles for editing one entry and part of the stored key, so two
 * alike in one link would fail in the database (a 500) instead of telling the client.
 */
function assertDistinctCredentialIds(credentials: EncryptedCredential[] | undefined): void {
  if (credentials && new Set(credentials.map((c) => c.id)).size !== credentials.length) {
    throw validationError({ credentials: 'Each credential of a link needs a different id' });
  }
}

/** Saving, reading, changing and listing links, with ownership and plan rules. */
export class LinkService {
  constructor(private readonly deps: LinkDeps) {}

  /** After a downgrade only the first `limit` links by creation date are viewable (spec §4). */
  async cutoffFor(actor: Actor): Promise<Cutoff | null> {
    const limit = this.deps.billing.linkLimitOf(actor);
    return limit === null ? null : this.deps.links.cutoff(actor.userId, limit);
  }

  private async one(row: LinkRow): Promise<Link> {
    const [hydrated] = await this.deps.links.hydrate([row]);
    if (!hydrated) throw new Error('hydrate returned nothing for one row');
    return toLink(hydrated);
  }

  /** The actor's links among `ids` that a downgrade leaves viewable (bulk actions skip the rest). */
  async viewableIds(actor: Actor, ids: string[]): Promise<string[]> {
    const cutoff = await this.cutoffFor(actor);
    if (!cutoff || ids.length === 0) return ids;
    const out: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.deps.links.findVisible(actor.userId, cutoff, ids.slice(i, i + 500));
      out.push(...rows.map((r) => r.id));
    }
    return out;
  }

  /** 404 for a link that is not the actor's, 403 PLAN_REQUIRED for one a downgrade hides. */
  async assertViewable(actor: Actor, id: string): Promise<void> {
    await this.viewable(actor, id);
  }

  /** Loads a link the actor may view; other users' links are indistinguishable from missing ones. */
  private async viewable(actor: Actor, id: string): Promise<LinkRow> {
    const row = await this.deps.links.findOwned(actor.userId, id);
    if (!row) throw notFound('Link');
    if (!isWithinCutoff(await this.cutoffFor(actor), row.created_at, row.id)) {
      throw new AppError(
        'PLAN_REQUIRED',
        'This link is beyond your plan’s link limit. Upgrade to Pro to view and edit it again; nothing was deleted.',
        { feature: 'links-beyond-limit' },
      );
    }
    return row;
  }

  /** Credentials need the vault they were sealed with; after a reset (say, on another device) there is none. */
  private async assertCredentialsAllowed(actor: Actor, credentials: EncryptedCredential[] | undefined) {
    assertDistinctCredentialIds(credentials);
    if (credentials?.length && !(await this.deps.hasVault(actor.userId))) {
      throw validationError({ credentials: NO_VAULT });
    }
  }

  async create(actor: Actor, input: LinkCreate): Promise<Link> {
    await this.assertCredentialsAllowed(actor, input.credentials);
    const key = duplicateKey(input.url);
    const limit = this.deps.billing.linkLimitOf(actor);
    const now = this.deps.clock.now();
    const id = newId();
    const attempt = () =>
      this.deps.links.transaction(async (tx) => {
        await tx.lockUser(actor.userId);
        const existing = await tx.findIdByDuplicateKey(actor.userId, key);
        if (existing) {
          throw new AppError('DUPLICATE_LINK', 'You have already saved this link.', { linkId: existing.id });
        }
        if (limit !== null) {
          const total = await tx.countAll(actor.userId);
          if (!allowance(limit, total).canAddLinks) {
            throw new AppError('LINK_LIMIT_REACHED', `You've reached your limit of ${limit} links`, {
              linkLimit: limit,
              totalLinks: total,
            });
          }
        }
        await tx.insert({
          id,
          user_id: actor.userId,
          url: input.url,
          normalized_url: key,
          title: input.title || hostTitle(input.url),
          description: input.description,
          ai_description: null,
          category: input.category,
          notes: input.notes,
          is_read: 0,
          is_read_later: input.isReadLater ? 1 : 0,
          has_credentials: 0,
          favicon: null,
          // A new link's analysis starts when it is created: analysis_started_at stays empty and
          // reads as created_at, so saving writes only the columns links have had from the start.
          analysis_status: 'pending',
          created_at: now,
          updated_at: now,
        });
        if (input.tags?.length) await tx.setTags(actor.userId, id, input.tags, now);
        if (input.credentials?.length) await tx.setCredentials(actor.userId, id, input.credentials, now);
        // Same transaction: the link exists exactly when its analysis is queued.
        await this.deps.queue.enqueue(
          'analyze-link',
          { linkId: id, userId: actor.userId },
          { tx: tx.connection, dedupeKey: analyzeDedupeKey(id) },
        );
      });
    try {
      await attempt();
      this.deps.queue.queued();
    } catch (error) {
      // A concurrent save of the same URL lost the race on the unique index: report the winner.
      if (!(error instanceof AppError)) {
        const winner = await this.deps.links.findIdByDuplicateKey(actor.userId, key);
        if (winner) throw new AppError('DUPLICATE_LINK', 'You have already saved this link.', { linkId: winner.id });
      }
      throw error;
    }
    return this.get(actor, id);
  }

  /** The actor's link whose URL normalises to the same key as `url` (how the extension shows saved state). */
  async lookup(actor: Actor, url: string): Promise<Link | null> {
    const found = await this.deps.links.findIdByDuplicateKey(actor.userId, duplicateKey(url));
    return found ? this.get(actor, found.id) : null;
  }

  async get(actor: Actor, id: string): Promise<Link> {
    return this.one(await this.viewable(actor, id));
  }

  async update(actor: Actor, id: string, patch: LinkUpdate): Promise<Link> {
    await this.assertCredentialsAllowed(actor, patch.credentials);
    await this.viewable(actor, id);
    const now = this.deps.clock.now();
    await this.deps.links.transaction(async (tx) => {
      // The row update locks the link until commit; a delete that won the race leaves nothing to
      // update, and writing its tags or credentials would then break a foreign key (a 500).
      const found = await tx.update(actor.userId, id, {
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        // The user's category from now on, also when cleared (the analysis may fill it again).
        ...(patch.category !== undefined && { category: patch.category, category_by_analysis: 0 as const }),
        ...(patch.notes !== undefined && { notes: patch.notes }),
        ...(patch.isRead !== undefined && { is_read: patch.isRead ? 1 : 0 }),
        ...(patch.isReadLater !== undefined && { is_read_later: patch.isReadLater ? 1 : 0 }),
        updated_at: now,
      });
      if (!found) throw notFound('Link');
      if (patch.tags !== undefined) await tx.setTags(actor.userId, id, patch.tags, now);
      if (patch.credentials !== undefined) await tx.setCredentials(actor.userId, id, patch.credentials, now);
    });
    return this.get(actor, id);
  }

  /** Deleting is allowed even for links hidden by a downgrade: the data is the user's. */
  async delete(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.links.delete(actor.userId, id))) throw notFound('Link');
  }

  async list(actor: Actor, query: LinkListQuery): Promise<LinkListResponse> {
    const { links, billing } = this.deps;
    const limit = billing.linkLimitOf(actor);
    const actualTotal = actor.linkCount;
    const cutoff = limit !== null && actualTotal > limit ? await links.cutoff(actor.userId, limit) : null;
    const filtered =
      query.category !== undefined ||
      query.isRead !== undefined ||
      query.isReadLater !== undefined ||
      query.hasCredentials !== undefined ||
      Boolean(query.search?.trim());
    const total = filtered
      ? await links.countMatching(actor.userId, cutoff, query)
      : cutoff && limit !== null
        ? limit
        : actualTotal;
    const rows = total === 0 ? [] : await links.page(actor.userId, cutoff, query);
    const data = (await links.hydrate(rows)).map(toLink);
    return {
      data,
      total,
      actualTotal,
      page: query.page,
      limit: query.limit,
      subscription: allowance(limit, actualTotal),
    };
  }

  async categories(actor: Actor): Promise<string[]> {
    return this.deps.links.categories(actor.userId, await this.cutoffFor(actor));
  }

  async stats(actor: Actor): Promise<LinkStats> {
    const since = this.deps.clock.now() - 30 * DAY_MS;
    return this.deps.links.stats(actor.userId, await this.cutoffFor(actor), since);
  }
}
