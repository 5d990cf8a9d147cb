import type { AnalysisFailure, AnalyzeResponse } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../../platform/actor.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import { Priority } from '../../platform/jobs/job.js';
import type { AnalysisFor, AnalysisService } from '../analysis/analysis.service.js';
import type { LabelledNeighbour } from '../analysis/category-model.js';
import { effectiveSubscription, llmAnalysisFor, type BillingMode } from '../billing/entitlements.js';
import type { SubscriptionRepository } from '../billing/subscription.repository.js';
import { FetchError } from '../pages/fetcher.js';
import type { EmbeddingRepository } from '../embeddings/embedding.repository.js';
import type { LinkAnalysisRepository } from './link-analysis.repository.js';
import type { LinkRepository } from './link.repository.js';
import { hostTitle } from './url-normalize.js';

/** What the card says about a failed analysis; errors that are not the page's own read as `error`. */
export function failureOf(error: unknown): AnalysisFailure {
  return error instanceof FetchError
    ? { reason: error.reason, status: error.status }
    : { reason: 'error', status: null };
}

/** Neighbours the category model reads: enough to outvote one odd link, few enough to stay about this page. */
export const HISTORY_NEIGHBOURS = 10;

/** A link's analysis job has one dedupe key: asking again while one waits adds nothing. */
export const analyzeDedupeKey = (linkId: string): string => `analyze-link:${linkId}`;

export interface LinkAnalysisDeps {
  links: LinkRepository;
  analyses: LinkAnalysisRepository;
  embeddings: EmbeddingRepository;
  analysis: AnalysisService;
  subscriptions: SubscriptionRepository;
  queue: JobQueue;
  /** The site's icon as a `data:` URL (the page fetcher's `fetchIcon`), null when it has none. */
  fetchIcon: (url: string) => Promise<string | null>;
  /**
   * The user's links nearest to a vector of `model` (the search module's per-user matrix), for the
   * category model's history; absent, categories go without it.
   */
  nearestLinks?: (
    userId: string,
    model: string,
    vector: Float32Array,
    k: number,
    except?: string,
  ) => Promise<{ id: string; cosine: number }[]>;
  /** A link was left without a vector (its analysis failed and the model too): re-embed it later. */
  vectorMissing: () => Promise<unknown>;
  /**
   * A vector of `model` was stored: when that is not the deployment's search model (this worker
   * lacks it), the re-embedding run into it is queued (decision 0018).
   */
  vectorSaved?: (model: { model: string; dims: number }) => Promise<unknown>;
  billingMode: BillingMode;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * A saved link's analysis, as the links module applies it: the analysis module understands a page,
 * this service decides whose link it is, what may be overwritten, and commits the result.
 */
export class LinkAnalysisService {
  constructor(private readonly deps: LinkAnalysisDeps) {}

  /** Which users get the LLM path: one entitlement rule (billing/entitlements.ts). */
  private async llmFor(userId: string, subscription?: Actor['subscription']): Promise<boolean> {
    if (!this.deps.analysis.hasLlm) return false;
    const row = subscription ?? (await this.deps.subscriptions.find(userId));
    return llmAnalysisFor(effectiveSubscription(row, this.deps.clock.now()), this.deps.billingMode, true);
  }

  /** Who an analysis is for: their vocabulary, their plan's provider, their categorised links as history. */
  private async analysisFor(
    userId: string,
    subscription?: Actor['subscription'],
    linkId?: string,
  ): Promise<AnalysisFor> {
    return {
      vocabulary: await this.deps.analyses.vocabulary(userId),
      useLlm: await this.llmFor(userId, subscription),
      neighbours: (vector, model) => this.history(userId, vector, model, linkId),
    };
  }

  /** The user's nearest links that have a category (the link being analysed left out: it is not its own history). */
  private async history(
    userId: string,
    vector: Float32Array,
    model: string,
    except?: string,
  ): Promise<LabelledNeighbour[]> {
    const { nearestLinks, analyses } = this.deps;
    if (!nearestLinks) return [];
    const near = await nearestLinks(userId, model, vector, HISTORY_NEIGHBOURS, except);
    const categories = await analyses.categoriesOf(
      userId,
      near.map((n) => n.id),
    );
    return near.flatMap((n) => {
      const labelled = categories.get(n.id);
      return labelled ? [{ ...labelled, cosine: n.cosine }] : [];
    });
  }

  /** `POST /api/links/analyze`: proposals for the add dialog; nothing is stored. */
  async analyzeForDialog(actor: Actor, url: string): Promise<AnalyzeResponse> {
    return this.deps.analysis.forDialog(url, await this.analysisFor(actor.userId, actor.subscription));
  }

  /**
   * The background job: fills only what the user left empty, stores the page text and the vector,
   * sets the status. Idempotent: running it twice writes the same result.
   */
  async enrich(userId: string, linkId: string): Promise<void> {
    const { links, analyses, embeddings, analysis } = this.deps;
    const link = await links.findOwned(userId, linkId);
    if (!link) return; // deleted meanwhile: nothing to do
    const result = await analysis.analyze(link.url, await this.analysisFor(userId, undefined, linkId));
    const { facts, understanding } = result;
    const vector = await analysis.searchVector(result, linkId);
    const faviconData = facts.favicon ? await this.icon(facts.favicon) : null;
    const now = this.deps.clock.now();
    await links.transaction(async (tx) => {
      await tx.lockUser(userId);
      const repo = analyses.with(tx.connection);
      const found = await repo.applyEnrichment(
        userId,
        linkId,
        {
          title: facts.title,
          placeholderTitle: hostTitle(link.url),
          description: facts.description,
          category: understanding.category,
          otherCategory: understanding.otherCategory,
          aiDescription: understanding.aiDescription,
          favicon: facts.favicon,
          faviconData,
        },
        now,
      );
      if (!found) return; // deleted while the page was being analysed
      // Tags the user chose are theirs; analysis only fills an empty list.
      if (understanding.tags.length > 0 && (await tx.tagCount(linkId)) === 0) {
        await tx.setTags(userId, linkId, understanding.tags, now);
      }
      await repo.savePage(linkId, facts.text, facts.lang, now);
      if (vector) await embeddings.with(tx.connection).save(linkId, analysis.searchModel, vector, now);
      // Same commit: a link reads `done` only with its text (and vector, when the model answered) stored.
      await repo.setStatus(userId, linkId, 'done');
    });
    if (!vector) await this.deps.vectorMissing();
    else await this.deps.vectorSaved?.({ model: analysis.searchModel, dims: vector.length });
  }

  /** A missing or broken icon is not a failed analysis: the card shows the domain's letter instead. */
  private async icon(url: string): Promise<string | null> {
    try {
      return await this.deps.fetchIcon(url);
    } catch {
      return null;
    }
  }

  /**
   * After the last attempt: status `failed`, and a vector of what the user typed so search still
   * finds it. The status is set even when the embedding model is down too (a remote one can be):
   * the link is then left to the re-embedding job, queued here.
   */
  async giveUp(userId: string, linkId: string, error?: unknown): Promise<void> {
    const { links, analyses, embeddings, analysis, clock, log } = this.deps;
    const link = await links.findOwned(userId, linkId);
    if (!link) return;
    let embedded = false;
    try {
      const vector = await analysis.typedVector(link.title, link.description);
      if (vector) {
        await embeddings.save(linkId, analysis.searchModel, vector, clock.now());
        embedded = true;
        await this.deps.vectorSaved?.({ model: analysis.searchModel, dims: vector.length });
      }
    } catch (error) {
      log.warn(
        { linkId, model: analysis.searchModel, error: error instanceof Error ? error.message : String(error) },
        'could not embed a link whose analysis failed',
      );
    }
    await analyses.setStatus(userId, linkId, 'failed', failureOf(error));
    if (!embedded) await this.deps.vectorMissing();
  }

  /** Queues analysis again for one link (fills what is still empty, refreshes text, summary and vector). */
  async reanalyze(actor: Actor, linkId: string): Promise<{ queued: number }> {
    const link = await this.deps.links.findOwned(actor.userId, linkId);
    if (!link) throw notFound('Link');
    return this.queue(actor.userId, [linkId], Priority.interactive);
  }

  /** Several links chosen by the user (already checked to be theirs): interactive, like one. */
  async reanalyzeMany(actor: Actor, linkIds: string[]): Promise<{ queued: number }> {
    return this.queue(actor.userId, linkIds, Priority.interactive);
  }

  /** Every link of the user: a backlog, behind anyone's fresh saves. */
  async reanalyzeAll(actor: Actor): Promise<{ queued: number }> {
    return this.queue(actor.userId, await this.deps.analyses.linkIds(actor.userId), Priority.bulk);
  }

  /**
   * Marks the links pending and queues their jobs in one transaction (a crash cannot leave links
   * pending with no job to run them). `queued`: the links now waiting, counting those that already were.
   */
  private async queue(userId: string, linkIds: string[], priority: number): Promise<{ queued: number }> {
    if (linkIds.length === 0) return { queued: 0 };
    const { links, analyses, queue } = this.deps;
    await links.transaction(async (tx) => {
      await analyses.with(tx.connection).markPending(userId, linkIds, this.deps.clock.now());
      await queue.enqueueMany(
        'analyze-link',
        linkIds.map((linkId) => ({ payload: { linkId, userId }, dedupeKey: analyzeDedupeKey(linkId) })),
        { tx: tx.connection, priority },
      );
    });
    queue.queued();
    return { queued: linkIds.length };
  }
}
