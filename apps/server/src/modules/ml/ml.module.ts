import type { Config } from '../../config.js';
import { RelayEmbedder, type EmbedRelay, type RelayedModel } from './embed-relay.js';
import { DEFAULT_CALIBRATION, WorkerEmbedder, type Calibration, type EmbedPurpose, type Embedder } from './embedder.js';
import { catalogModel } from './model-catalog.js';
import type { LlmPolicy, LlmProvider } from './providers/llm.js';
import { RemoteEmbedder } from './providers/remote-embedder.js';
import { USE_LITE_MODEL_ID } from './use-lite.constants.js';
import { DerivedEmbedder, derivable } from './derived-embedder.js';
import { LOCAL_MODELS } from './local-models.js';
import { OfflineEmbedder, type OfflineModelLog } from './offline-embedder.js';

/** One retry policy for every remote model call: AI_TIMEOUT_SECONDS per attempt, 3 attempts. */
function policyFrom(config: Config): LlmPolicy {
  return { timeoutMs: config.AI_TIMEOUT_SECONDS * 1000, attempts: 3, backoffBaseMs: 500 };
}

/**
 * The remote embedding model of OPENAI_EMBEDDING_MODEL or GEMINI_EMBEDDING_MODEL; null: none set.
 * Each provider's SDK loads only when it is configured.
 */
async function remoteEmbedderFrom(config: Config): Promise<Embedder | null> {
  const remote = config.remoteEmbedding;
  if (!remote) return null;
  const { model, dimensions, sendDimensions } = remote;
  const api =
    remote.provider === 'openai'
      ? new (await import('./providers/openai.embedder.js')).OpenAiEmbeddingApi({
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        })
      : new (await import('./providers/gemini.embedder.js')).GeminiEmbeddingApi({
          apiKey: config.GEMINI_API_KEY ?? '',
          baseUrl: config.GEMINI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        });
  return new RemoteEmbedder(api, policyFrom(config));
}

async function llmFrom(config: Config): Promise<LlmProvider | null> {
  if (config.AI_PROVIDER === 'openai') {
    return new (await import('./providers/openai.provider.js')).OpenAiProvider({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
    });
  }
  if (config.AI_PROVIDER === 'gemini' && config.GEMINI_API_KEY) {
    return new (await import('./providers/gemini.provider.js')).GeminiProvider({
      apiKey: config.GEMINI_API_KEY,
      baseUrl: config.GEMINI_BASE_URL,
      model: config.GEMINI_MODEL,
    });
  }
  return null;
}

/** The models a process uses. Each loads on first use, so a process that never embeds never loads one. */
export interface Models {
  /** The model of the stored link vectors and of search queries. */
  embedder: Embedder;
  /** The offline model categories are classified with (the same object when no remote model is set). */
  categoryEmbedder: Embedder;
  llm: LlmProvider | null;
  llmPolicy: LlmPolicy;
  /** The offline transformer with its USE-lite fallback; null when a remote model or USE-lite alone is chosen. */
  offline: OfflineEmbedder | null;
  /**
   * Whether the link vectors are of an offline model, so the deployment's search model moves up the
   * catalog (decision 0018); false with a remote model or one chosen by the caller.
   */
  rollout: boolean;
  /**
   * The offline models this process runs itself, its links' model first (what a worker embeds with
   * for others); empty in an `api` process.
   */
  local(): Map<string, Embedder>;
  /** An embedder of `model` for search queries: this process's own, or a worker's; undefined: none. */
  embedderFor(model: { model: string; dims: number }): Embedder | undefined;
  close(): Promise<void>;
}

export interface ModelOptions {
  observe?: InferenceObserver | undefined;
  log?: OfflineModelLog | undefined;
  /** Whether this process downloads a missing offline model (processes that run jobs do). */
  download?: boolean | undefined;
  /**
   * The `api` role: no model runtime loads here; offline vectors come from workers through this relay,
   * of the deployment's search model of the moment (`searchModel`, null before any worker decided it).
   */
  relay?: { relay: EmbedRelay; searchModel: () => { model: string; dims: number } | null } | undefined;
}

/** A relayed model as the catalog knows it (a newer release's model: its size, the default calibration). */
function relayed(model: string, dims: number): RelayedModel {
  return { id: model, dimensions: dims, calibration: catalogModel(model)?.calibration ?? DEFAULT_CALIBRATION };
}

/** Told how long each embedding call took (metrics). */
export type InferenceObserver = (model: string, purpose: EmbedPurpose, seconds: number) => void;

/** An embedder that reports each call's time; the model and its vectors are untouched. */
class TimedEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly observe: InferenceObserver,
  ) {}
  get modelId(): string {
    return this.inner.modelId;
  }
  get dimensions(): number {
    return this.inner.dimensions;
  }
  get calibration(): Calibration | undefined {
    return this.inner.calibration;
  }
  async embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    const started = performance.now();
    try {
      return await this.inner.embed(texts, purpose);
    } finally {
      this.observe(this.inner.modelId, purpose, (performance.now() - started) / 1000);
    }
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const quiet: OfflineModelLog = { info: () => undefined, warn: () => undefined };

export async function buildModels(config: Config, chosen?: Embedder, options: ModelOptions = {}): Promise<Models> {
  const { observe } = options;
  const timed = (e: Embedder) => (observe ? new TimedEmbedder(e, observe) : e);
  if (options.relay) return relayedModels(config, chosen, options.relay, timed);
  // USE-lite: the fallback of the offline transformer while that is missing, and the category model
  // beside a remote embedding model (one USE-lite worker, started only if used).
  const useLite = new WorkerEmbedder();
  const remote = chosen ? null : await remoteEmbedderFrom(config);
  const spec = LOCAL_MODELS[config.LOCAL_MODEL];
  const offline =
    chosen || remote || !spec
      ? null
      : await OfflineEmbedder.create(useLite, {
          spec,
          modelsDir: config.modelsDir,
          threads: config.MODEL_THREADS,
          hubUrl: options.download && config.MODEL_DOWNLOAD ? config.MODEL_HUB_URL : null,
          log: options.log ?? quiet,
        });
  const embedder = timed(chosen ?? remote ?? offline ?? useLite);
  // Categories follow the offline model: the transformer once installed (one embedding a page serves
  // both, and USE-lite never loads), USE-lite before and beside a remote model (decision 0011).
  const categoryEmbedder = offline || embedder.modelId === USE_LITE_MODEL_ID ? embedder : timed(useLite);
  const rollout = !chosen && !remote;
  // Older offline models made of this one's parts answer from it once it runs (decision 0020).
  const derived =
    offline && spec
      ? Object.values(LOCAL_MODELS)
          .filter((older) => derivable(spec, older))
          .map((older) => timed(new DerivedEmbedder(offline, spec, older)))
      : [];
  const local = () => {
    const out = new Map<string, Embedder>();
    if (rollout) out.set(embedder.modelId, embedder);
    out.set(categoryEmbedder.modelId, categoryEmbedder);
    if (rollout && offline?.modelId === spec?.id)
      for (const d of derived) if (!out.has(d.modelId)) out.set(d.modelId, d);
    // USE-lite answers queries against links not yet re-embedded away from it (decision 0018).
    if (!out.has(USE_LITE_MODEL_ID)) out.set(USE_LITE_MODEL_ID, timed(useLite));
    return out;
  };
  return {
    embedder,
    categoryEmbedder,
    llm: await llmFrom(config),
    llmPolicy: policyFrom(config),
    offline,
    rollout,
    local,
    embedderFor: ({ model, dims }) => {
      const found = local().get(model);
      return found?.dimensions === dims ? found : undefined;
    },
    async close() {
      await embedder.close();
      await useLite.close();
    },
  };
}

/**
 * An `api` process's models: a remote model is called directly; every offline model is a worker's,
 * reached through the relay, so no model runtime ever loads here.
 */
async function relayedModels(
  config: Config,
  chosen: Embedder | undefined,
  { relay, searchModel }: NonNullable<ModelOptions['relay']>,
  timed: (e: Embedder) => Embedder,
): Promise<Models> {
  const remote = chosen ? null : await remoteEmbedderFrom(config);
  const own = LOCAL_MODELS[config.LOCAL_MODEL] ?? catalogModel(USE_LITE_MODEL_ID)!;
  // Before any worker decided the deployment's model: the one this release's configuration names.
  const deployment = () => {
    const ref = searchModel();
    return ref ? relayed(ref.model, ref.dims) : relayed(own.id, own.dimensions);
  };
  const byModel = new Map<string, Embedder>();
  const embedderFor = ({ model, dims }: { model: string; dims: number }) => {
    const key = `${model}\u0000${dims}`;
    let found = byModel.get(key);
    if (!found) byModel.set(key, (found = timed(new RelayEmbedder(relay, () => relayed(model, dims)))));
    return found;
  };
  const embedder = timed(chosen ?? remote ?? new RelayEmbedder(relay, deployment));
  const useLite = catalogModel(USE_LITE_MODEL_ID)!;
  return {
    embedder,
    // Categories (and tag vectors) are the offline model's: USE-lite beside a remote model.
    categoryEmbedder: chosen || !remote ? embedder : embedderFor({ model: useLite.id, dims: useLite.dimensions }),
    llm: await llmFrom(config),
    llmPolicy: policyFrom(config),
    offline: null,
    rollout: !chosen && !remote,
    local: () => new Map(),
    embedderFor,
    async close() {
      await embedder.close();
      await relay.close();
    },
  };
}
