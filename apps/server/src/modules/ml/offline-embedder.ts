import { LRUCache } from 'lru-cache';
import { WorkerClient, workerFile } from '../../lib/worker-client.js';
import { clipWords, normalize, type Calibration, type Embedder, type EmbedPurpose } from './embedder.js';
import { companionReading, type LocalModelSpec } from './local-models.js';
import { checkModelFolder, downloadModel, type DownloadProgress } from './model-files.js';
import type { TransformerModelOptions } from './transformer.model.js';

const BATCH = 8;
/** How an admin installs a missing model folder by hand (both warnings say it). */
const INSTALL_HINT = 'run scripts/provision-model.py, or copy the folder into MODELS_DIR';

/** A transformer sentence-embedding model from MODELS_DIR, in its own worker thread, started on first use. */
export class TransformerEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  readonly calibration: Calibration;
  private readonly options: TransformerModelOptions;
  private readonly worker = new WorkerClient<
    { options: TransformerModelOptions; texts: string[]; purpose: EmbedPurpose },
    Float32Array[]
  >(workerFile('transformer', import.meta.url));

  /** One batch in the model's thread at a time, queries first: a search never waits behind an import. */
  private readonly lane = new QueryFirst();

  constructor(spec: LocalModelSpec, modelsDir: string, threads = 1) {
    this.modelId = spec.id;
    this.dimensions = spec.dimensions;
    this.calibration = spec.calibration;
    this.options = {
      modelsDir,
      repo: spec.repo,
      pooling: spec.pooling,
      maxTokens: spec.maxTokens,
      ...(spec.queryPrefix && { queryPrefix: spec.queryPrefix }),
      threads,
      companions: (spec.companions ?? []).map((c) => ({
        kind: c.kind,
        repo: c.repo,
        weight: c.weight,
        dimensions: c.dimensions,
        ...companionReading(spec, c),
      })),
    };
  }

  /**
   * Recent query vectors, and queries in flight: a search that asks this model and an older one
   * taken from its parts (DerivedEmbedder, during a re-embedding run) runs the model once.
   */
  private readonly queries = new LRUCache<string, Promise<Float32Array>>({ max: 256 });

  async embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    if (purpose === 'document') return this.run(texts, purpose);
    const mine = new Map<string, Promise<Float32Array>>();
    for (const t of texts) {
      const known = this.queries.get(t);
      if (known) mine.set(t, known);
    }
    const missing = [...new Set(texts.filter((t) => !mine.has(t)))];
    if (missing.length > 0) {
      const running = this.run(missing, 'query');
      missing.forEach((t, i) => {
        const one = running.then((vectors) => vectors[i]!);
        mine.set(t, one);
        this.queries.set(t, one);
      });
      // A failed call is not remembered: the next search asks the model again.
      running.catch(() => missing.forEach((t) => this.queries.delete(t)));
    }
    // Copies: the caller may change its vectors.
    return Promise.all(texts.map(async (t) => (await mine.get(t)!).slice()));
  }

  private async run(texts: string[], purpose: EmbedPurpose): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    const todo = texts.map((t, i) => [clipWords(t), i] as const).filter(([t]) => t.length > 0);
    for (let start = 0; start < todo.length; start += BATCH) {
      const batch = todo.slice(start, start + BATCH);
      const vectors = await this.lane.run(purpose === 'query', () =>
        this.worker.call({ options: this.options, texts: batch.map(([t]) => t), purpose }),
      );
      batch.forEach(([, index], k) => (out[index] = normalize(vectors[k]!)));
    }
    return out;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

/**
 * Runs one piece of work at a time; waiting queries go before waiting documents, each kind in order.
 * Without it every caller's next batch is posted to the worker at once, and a query lines up
 * behind the batches of every analysis and re-embedding in progress.
 */
export class QueryFirst {
  private busy = false;
  private readonly queries: (() => void)[] = [];
  private readonly documents: (() => void)[] = [];

  async run<T>(query: boolean, work: () => Promise<T>): Promise<T> {
    if (this.busy) await new Promise<void>((resolve) => (query ? this.queries : this.documents).push(resolve));
    this.busy = true;
    try {
      return await work();
    } finally {
      // The turn passes straight to the next one waiting (busy stays set), or the lane is free.
      const next = this.queries.shift() ?? this.documents.shift();
      if (next) next();
      else this.busy = false;
    }
  }
}

export interface OfflineModelLog {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
}

/**
 * The offline embedding model: the transformer once its folder in MODELS_DIR checks out against its
 * pins, USE-lite until then. A missing folder is downloaded in the background (when allowed); the
 * switch happens in place and `onSwitch` queues the re-embedding of every link. Search meanwhile
 * reads the vectors of the model in use (text search covers links not yet re-embedded).
 */
export class OfflineEmbedder implements Embedder {
  private current: Embedder;
  private readonly ready: Promise<void>;
  private readonly abort = new AbortController();
  private closed = false;
  private switched: () => void = () => undefined;

  constructor(
    private readonly fallback: Embedder,
    private readonly deps: {
      spec: LocalModelSpec;
      modelsDir: string;
      threads: number;
      hubUrl: string | null;
      log: OfflineModelLog;
      /** While the folder is missing and this process does not download it, how often it looks again. */
      recheckMs?: number;
    },
  ) {
    this.current = fallback;
    this.ready = this.prepare();
  }

  get modelId(): string {
    return this.current.modelId;
  }

  get dimensions(): number {
    return this.current.dimensions;
  }

  get calibration(): Calibration | undefined {
    return this.current.calibration;
  }

  /** Told once the transformer replaces the fallback (the composition root queues re-embedding). */
  onSwitch(listener: () => void): void {
    this.switched = listener;
  }

  /** Resolves after the folder's first check, so a process that has the model never starts on USE-lite. */
  static async create(
    fallback: Embedder,
    deps: ConstructorParameters<typeof OfflineEmbedder>[1],
  ): Promise<OfflineEmbedder> {
    const embedder = new OfflineEmbedder(fallback, deps);
    await embedder.firstCheck;
    return embedder;
  }

  private firstCheck!: Promise<void>;

  private async prepare(): Promise<void> {
    const { spec, modelsDir, hubUrl, log } = this.deps;
    let problem: string | null = null;
    this.firstCheck = checkModelFolder(modelsDir, spec).then(
      (p) => {
        problem = p;
        if (!p) this.use();
      },
      (error: unknown) => void (problem = String(error)),
    );
    await this.firstCheck;
    if (!problem) return;
    if (!hubUrl) {
      log.warn(
        { model: spec.repo, problem },
        `the offline model is not installed here: USE-lite answers until it is (another process may download it; ${INSTALL_HINT})`,
      );
      await this.watchFolder();
      return;
    }
    log.info(
      { model: spec.repo, problem, hub: hubUrl },
      'downloading the offline model; USE-lite answers until it is ready',
    );
    let logged = -1;
    try {
      await downloadModel(
        hubUrl,
        modelsDir,
        spec,
        (p: DownloadProgress) => {
          // Progress at each tenth (or each 10 MB when the size is unknown).
          const step = p.total ? Math.floor((10 * p.received) / p.total) : Math.floor(p.received / 10_000_000);
          if (step === logged) return;
          logged = step;
          log.info(
            { model: spec.repo, file: p.file, receivedBytes: p.received, totalBytes: p.total },
            p.total ? `offline model download ${Math.round((100 * p.received) / p.total)}%` : 'offline model download',
          );
        },
        this.abort.signal,
      );
      const after = await checkModelFolder(modelsDir, spec);
      if (after) throw new Error(after);
      if (this.closed) return;
      this.use();
      log.info({ model: spec.repo }, 'offline model downloaded and verified: re-embedding links with it');
      this.switched();
    } catch (error) {
      if (this.closed) return;
      log.warn(
        { model: spec.repo, hub: hubUrl, err: error instanceof Error ? error.message : String(error) },
        `offline model download failed: USE-lite answers until the folder is there (${INSTALL_HINT}, or set MODEL_HUB_URL to a mirror that serves it); looking for it again every minute`,
      );
      await this.watchFolder();
    }
  }

  /** Looks at the folder again now and then (an api process, while a worker downloads it). */
  private async watchFolder(): Promise<void> {
    const every = this.deps.recheckMs ?? 60_000;
    const { spec, modelsDir, log } = this.deps;
    while (!this.closed) {
      const waited = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), every);
        timer.unref();
        this.abort.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      if (!waited || this.closed) return;
      if ((await checkModelFolder(modelsDir, spec).catch((e: unknown) => String(e))) === null) {
        this.use();
        log.info({ model: spec.repo }, 'the offline model is installed now: using it');
        this.switched();
        return;
      }
    }
  }

  private use(): void {
    this.current = new TransformerEmbedder(this.deps.spec, this.deps.modelsDir, this.deps.threads);
  }

  embed(texts: string[], purpose?: EmbedPurpose): Promise<Float32Array[]> {
    return this.current.embed(texts, purpose);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    await this.ready.catch(() => undefined);
    if (this.current !== this.fallback) await this.current.close();
  }
}
