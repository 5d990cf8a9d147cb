import { Messages, type AnalyzeResponse } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../auth/actor.js';
import { effectiveSubscription, llmAnalysisFor, type BillingMode } from '../billing/entitlements.js';
import type { SubscriptionRepository } from '../billing/subscription.repository.js';
import type { LinkRepository } from '../links/link.repository.js';
import { ANALYZE_LINK_JOB, analyzeJobId } from '../links/link.service.js';
import { hostTitle } from '../links/url-normalize.js';
import type { AnalysisRepository } from './analysis.repository.js';
import type { CategoryModel } from './category-model.js';
import { pageText, type Embedder } from './embedder.js';
import { titleFromUrl, type PageFacts, type WorkerExtractor } from './extractor.js';
import { FetchError, type PageFetcher } from './fetcher.js';
import { askWithRetries, type LlmPolicy, type LlmProvider } from './providers/llm.js';
import {
  keywordTags,
  matchCategory,
  mergeTags,
  readLaterSuggestion,
  summarize,
  type Understanding,
  type UserVocabulary,
} from './understanding.js';

export interface AnalysisDeps {
  fetcher: PageFetcher;
  extractor: WorkerExtractor;
  /** The model of the stored search vectors (shared with search, which embeds queries with it). */
  embedder: Embedder;
  /** Classifies on vectors of its own model (`categories.embedder`, the offline model). */
  categories: CategoryModel;
  /** Null when AI_PROVIDER=local. */
  llm: LlmProvider | null;
  llmPolicy: LlmPolicy;
  repo: AnalysisRepository;
  links: LinkRepository;
  subscriptions: SubscriptionRepository;
  /** Wakes the in-process worker after an enqueue. */
  nudge: () => void;
  /** A link was left without a vector (its analysis failed and the model too): re-embed it later. */
  vectorMissing: () => Promise<unknown>;
  billingMode: BillingMode;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The pipeline's result for one URL. */
export interface PageAnalysis {
  facts: PageFacts;
  understanding: Understanding;
  /** What the page's vectors are made of: title. description. text (clipped by the embedder). */
  embedText: string;
  /** Vector of `embedText` in the category model's space (also the search vector when the models match). */
  vector: Float32Array;
  /** The page was HTML (false: a PDF, image or other file titled from its URL). */
  html: boolean;
}

function urlOnlyFacts(url: string): PageFacts {
  return {
    title: titleFromUrl(url),
    description: null,
    url,
    favicon: new URL('/favicon.ico', url).href,
    image: null,
    lang: null,
    publisher: null,
    author: null,
    date: null,
    text: '',
  };
}

export function toAppError(error: FetchError): AppError {
  return new AppError(error.code, Messages.analysisFailed, { reason: error.message });
}

/** Link intelligence: fetch, extract, understand (offline model or LLM), embed, store. */
export class AnalysisService {
  constructor(private readonly deps: AnalysisDeps) {}

  /** Runs the pipeline for a URL on behalf of a user (their vocabulary, their plan's provider). */
  async analyze(url: string, userId: string, useLlm: boolean): Promise<PageAnalysis> {
    const fetched = await this.deps.fetcher.fetch(url);
    const html = fetched.html !== null;
    const facts =
      fetched.html !== null ? await this.deps.extractor.extract(fetched.html, fetched.url) : urlOnlyFacts(fetched.url);
    const vocabulary = await this.deps.repo.vocabulary(userId);
    const embedText = pageText(facts.title, facts.description, facts.text);
    const [vector] = await this.deps.categories.embedder.embed([embedText]);
    if (!vector) throw new Error('the embedder returned no vector');
    const local = await this.understandLocally(facts, vector, vocabulary);
    const understanding = useLlm && html ? await this.understandWithLlm(url, facts, vocabulary, local) : local;
    return { facts, understanding, embedText, vector, html };
  }

  /**
   * The vector stored for search: the category model's own when both are one model (no second
   * embedding, as without a remote model), otherwise the search model's vector of the same text.
   * Null when a remote model fails: the analysis is saved without it (retrying the job would fetch
   * the page and ask the LLM again, and after the last attempt lose what they found), and the
   * re-embedding run gives the link its vector once the model answers.
   */
  private async searchVector(analysis: PageAnalysis, linkId: string): Promise<Float32Array | null> {
    const { embedder, categories } = this.deps;
    if (embedder.modelId === categories.embedder.modelId) return analysis.vector;
    try {
      const [vector] = await embedder.embed([analysis.embedText]);
      if (vector) return vector;
      throw new Error('the embedder returned no vector');
    } catch (error) {
      this.deps.log.warn(
        { linkId, model: embedder.modelId, error: error instanceof Error ? error.message : String(error) },
        'could not embed an analysed link; saved without a vector for now',
      );
      return null;
    }
  }

  private async understandLocally(
    facts: PageFacts,
    vector: Float32Array,
    vocabulary: UserVocabulary,
  ): Promise<Understanding> {
    const { category } = await this.deps.categories.classify(vector, vocabulary.categories);
    return {
      category: matchCategory(category, vocabulary.categories),
      tags: keywordTags(facts, vocabulary.tags),
      isReadLater: readLaterSuggestion(facts),
      aiDescription: summarize(facts),
    };
  }

  /** The LLM's answer, or the offline one when the provider fails: saving never fails because of it. */
  private async understandWithLlm(
    url: string,
    facts: PageFacts,
    vocabulary: UserVocabulary,
    local: Understanding,
  ): Promise<Understanding> {
    const llm = this.deps.llm;
    if (!llm) return local;
    try {
      const answer = await askWithRetries(llm, url, facts, vocabulary, this.deps.llmPolicy);
      return {
        category: matchCategory(answer.category, vocabulary.categories),
        tags: mergeTags(answer.tags.length ? answer.tags : local.tags, vocabulary.tags),
        isReadLater: answer.readLater,
        aiDescription: answer.summary || local.aiDescription,
      };
    } catch (error) {
      this.deps.log.warn(
        { provider: llm.name, error: error instanceof Error ? error.message : String(error) },
        'LLM analysis failed; using the offline result',
      );
      return local;
    }
  }

  /** Which users get the LLM path: one entitlement rule (billing/entitlements.ts). */
  private async llmFor(userId: string, subscription?: Actor['subscription']): Promise<boolean> {
    if (!this.deps.llm) return false;
    const row = subscription ?? (await this.deps.subscriptions.find(userId));
    return llmAnalysisFor(effectiveSubscription(row, this.deps.clock.now()), this.deps.billingMode, true);
  }

  /** `POST /api/links/analyze`: proposals for the add dialog; nothing is stored. */
  async analyzeForDialog(actor: Actor, url: string): Promise<AnalyzeResponse> {
    let result: PageAnalysis;
    try {
      result = await this.analyze(url, actor.userId, await this.llmFor(actor.userId, actor.subscription));
    } catch (error) {
      if (error instanceof FetchError) throw toAppError(error);
      throw error;
    }
    const { facts, understanding, html } = result;
    if (html && !facts.title && !facts.description && !facts.text) {
      throw new AppError('FETCH_FAILED', Messages.analysisEmpty);
    }
    return {
      success: true,
      data: {
        title: facts.title ?? titleFromUrl(url),
        description: facts.description ?? understanding.aiDescription ?? '',
        category: understanding.category,
        tags: understanding.tags,
        isReadLater: understanding.isReadLater,
      },
    };
  }

  /**
   * The background job: fills only what the user left empty, stores the page text and the vector,
   * sets the status. Idempotent: running it twice writes the same result.
   */
  async enrichLink(userId: string, linkId: string): Promise<void> {
    const link = await this.deps.links.findOwned(userId, linkId);
    if (!link) return; // deleted meanwhile: nothing to do
    const result = await this.analyze(link.url, userId, await this.llmFor(userId));
    const { facts, understanding } = result;
    const vector = await this.searchVector(result, linkId);
    const now = this.deps.clock.now();
    await this.deps.repo.transaction(async (repo, links) => {
      await links.lockUser(userId);
      const found = await repo.applyEnrichment(
        userId,
        linkId,
        {
          title: facts.title,
          placeholderTitle: hostTitle(link.url),
          description: facts.description,
          category: understanding.category,
          aiDescription: understanding.aiDescription,
          favicon: facts.favicon,
        },
        now,
      );
      if (!found) return; // deleted while the page was being analysed
      // Tags the user chose are theirs; analysis only fills an empty list.
      if (understanding.tags.length > 0 && (await links.tagCount(linkId)) === 0) {
        await links.setTags(userId, linkId, understanding.tags, now);
      }
      await repo.savePage(linkId, facts.text, facts.lang, now);
      if (vector) await repo.saveEmbedding(linkId, this.deps.embedder.modelId, vector, now);
      // Same commit: a link reads `done` only with its text (and vector, when the model answered) stored.
      await repo.setStatus(userId, linkId, 'done');
    });
    if (!vector) await this.deps.vectorMissing();
  }

  /**
   * After the last attempt: status `failed`, and a vector of what the user typed so search still
   * finds it. The status is set even when the embedding model is down too (a remote one can be):
   * the link is then left to the re-embedding job, queued here.
   */
  async giveUp(userId: string, linkId: string): Promise<void> {
    const link = await this.deps.links.findOwned(userId, linkId);
    if (!link) return;
    let embedded = false;
    try {
      const [vector] = await this.deps.embedder.embed([pageText(link.title, link.description)]);
      if (vector) {
        await this.deps.repo.saveEmbedding(linkId, this.deps.embedder.modelId, vector, this.deps.clock.now());
        embedded = true;
      }
    } catch (error) {
      this.deps.log.warn(
        { linkId, model: this.deps.embedder.modelId, error: error instanceof Error ? error.message : String(error) },
        'could not embed a link whose analysis failed',
      );
    }
    await this.deps.repo.setStatus(userId, linkId, 'failed');
    if (!embedded) await this.deps.vectorMissing();
  }

  /** Queues analysis again for one link (fills what is still empty, refreshes text, summary and vector). */
  async reanalyze(actor: Actor, linkId: string): Promise<{ queued: number }> {
    const link = await this.deps.links.findOwned(actor.userId, linkId);
    if (!link) throw notFound('Link');
    return this.queue(actor.userId, [linkId]);
  }

  async reanalyzeAll(actor: Actor): Promise<{ queued: number }> {
    return this.queue(actor.userId, await this.deps.repo.linkIds(actor.userId));
  }

  /** `queued`: the links now waiting for analysis, counting those that already were. */
  private async queue(userId: string, linkIds: string[]): Promise<{ queued: number }> {
    await this.deps.repo.queueAnalysis(userId, linkIds, ANALYZE_LINK_JOB, analyzeJobId, this.deps.clock.now());
    this.deps.nudge();
    return { queued: linkIds.length };
  }
}
