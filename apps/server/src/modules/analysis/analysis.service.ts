import { analysisFailureText, Messages, type AnalyzeResponse } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import { DEFAULT_CALIBRATION, pageText, type Embedder } from '../ml/embedder.js';
import type { LlmPolicy, LlmProvider } from '../ml/providers/llm.js';
import { TagVectorCache } from '../ml/tag-vectors.js';
import { keyphraseTags } from './keyphrases.js';
import { askWithRetries, filedExamples } from './llm-prompt.js';
import { titleFromUrl, type PageFacts, type WorkerExtractor } from '../pages/extractor.js';
import { FetchError, type PageFetcher } from '../pages/fetcher.js';
import type { CategoryModel, LabelledNeighbour } from './category-model.js';
import { extractiveSummary } from './summary.js';
import {
  matchCategory,
  mergeTags,
  readLaterSuggestion,
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
  log: FastifyBaseLogger;
}

/** Who the analysis is for: their categories and tags (preferred), and whether their plan gets the LLM. */
export interface AnalysisFor {
  vocabulary: UserVocabulary;
  useLlm: boolean;
  /** The user's nearest categorised links to a page vector of `model` (their history), when available. */
  neighbours?: (vector: Float32Array, model: string) => Promise<LabelledNeighbour[]>;
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

function toAppError(error: FetchError): AppError {
  const failure = { reason: error.reason, status: error.status };
  return new AppError(error.code, `${Messages.analysisFailed}: ${analysisFailureText(failure)}`, failure);
}

/**
 * Link intelligence: fetch, extract, understand (offline model or LLM), embed. Stores nothing: the
 * links module applies the result (it owns the links' writes).
 */
export class AnalysisService {
  /** The users' existing tags' vectors, so a proposed tag can become the one that means the same. */
  private readonly tagVectors = new TagVectorCache();

  constructor(private readonly deps: AnalysisDeps) {}

  /** Whether any user can get the LLM path (AI_PROVIDER is set). */
  get hasLlm(): boolean {
    return this.deps.llm !== null;
  }

  /** The model of the stored search vectors. */
  get searchModel(): string {
    return this.deps.embedder.modelId;
  }

  /** Runs the pipeline for a URL on behalf of a user (their vocabulary, their plan's provider). */
  async analyze(url: string, { vocabulary, useLlm, neighbours }: AnalysisFor): Promise<PageAnalysis> {
    const fetched = await this.deps.fetcher.fetch(url);
    const html = fetched.html !== null;
    const facts =
      fetched.html !== null ? await this.deps.extractor.extract(fetched.html, fetched.url) : urlOnlyFacts(fetched.url);
    const embedText = pageText(facts.title, facts.description, facts.text);
    const [vector] = await this.deps.categories.embedder.embed([embedText]);
    if (!vector) throw new Error('the embedder returned no vector');
    const history = await this.history(vector, neighbours);
    const local = await this.understandLocally(facts, vector, vocabulary, history);
    const understanding = useLlm && html ? await this.understandWithLlm(url, facts, vocabulary, local, history) : local;
    return { facts, understanding, embedText, vector, html };
  }

  /**
   * The vector stored for search: the category model's own when both are one model (no second
   * embedding, as without a remote model), otherwise the search model's vector of the same text.
   * Null when a remote model fails: the analysis is saved without it (retrying the job would fetch
   * the page and ask the LLM again, and after the last attempt lose what they found), and the
   * re-embedding run gives the link its vector once the model answers.
   */
  async searchVector(analysis: PageAnalysis, linkId: string): Promise<Float32Array | null> {
    const { embedder, categories } = this.deps;
    // Same model, same size: a switch of the offline model between the two reads would change the size.
    if (embedder.modelId === categories.embedder.modelId && analysis.vector.length === embedder.dimensions) {
      return analysis.vector;
    }
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

  /**
   * The user's history for the category: their links' vectors are the search model's, so only when
   * that is the category model too (the offline model without a remote one). A failure to read it
   * costs the history, never the analysis.
   */
  private async history(vector: Float32Array, neighbours: AnalysisFor['neighbours']): Promise<LabelledNeighbour[]> {
    const { embedder, categories } = this.deps;
    if (!neighbours || embedder.modelId !== categories.embedder.modelId || vector.length !== embedder.dimensions) {
      return [];
    }
    try {
      return await neighbours(vector, embedder.modelId);
    } catch (error) {
      this.deps.log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "could not read the user's nearest links; categorising without them",
      );
      return [];
    }
  }

  private async understandLocally(
    facts: PageFacts,
    vector: Float32Array,
    vocabulary: UserVocabulary,
    neighbours: LabelledNeighbour[],
  ): Promise<Understanding> {
    const { category, alternative } = await this.deps.categories.classify(vector, vocabulary.categories, {
      facts,
      neighbours,
    });
    return {
      category: matchCategory(category, vocabulary.categories),
      otherCategory: alternative && matchCategory(alternative, vocabulary.categories),
      tags: await keyphraseTags(facts, vector, vocabulary.tags, this.deps.categories.embedder, this.tagVectors),
      isReadLater: readLaterSuggestion(facts),
      aiDescription: await extractiveSummary(facts, vector, this.deps.categories.embedder),
    };
  }

  /**
   * The LLM's answer, or the offline one when the provider fails: saving never fails because of it.
   * It sees how the user filed their nearest links, so their categories mean what they file there.
   */
  private async understandWithLlm(
    url: string,
    facts: PageFacts,
    vocabulary: UserVocabulary,
    local: Understanding,
    history: readonly LabelledNeighbour[],
  ): Promise<Understanding> {
    const llm = this.deps.llm;
    if (!llm) return local;
    const { floor } = this.deps.categories.embedder.calibration ?? DEFAULT_CALIBRATION;
    try {
      const answer = await askWithRetries(
        llm,
        url,
        facts,
        vocabulary,
        this.deps.llmPolicy,
        filedExamples(history, floor),
      );
      return {
        category: matchCategory(answer.category, vocabulary.categories),
        otherCategory: null,
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

  /** `POST /api/links/analyze`: proposals for the add dialog; nothing is stored. */
  async forDialog(url: string, user: AnalysisFor): Promise<AnalyzeResponse> {
    let result: PageAnalysis;
    try {
      result = await this.analyze(url, user);
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
        ...(understanding.otherCategory && { otherCategory: understanding.otherCategory }),
        tags: understanding.tags,
        isReadLater: understanding.isReadLater,
      },
    };
  }

  /** A vector of what the user typed, for a link whose page could not be analysed (search still finds it). */
  async typedVector(title: string, description: string): Promise<Float32Array | undefined> {
    const [vector] = await this.deps.embedder.embed([pageText(title, description)]);
    return vector;
  }
}
