import { ReembedLinksPayloadSchema, type ReembedLinksPayload } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import { pageText, type Embedder } from '../ml/embedder.js';
import type { EmbeddingRepository, VectorModel } from './embedding.repository.js';
import type { ReembedRepository } from './reembed.repository.js';

/** The one re-embedding run: its dedupe key keeps it single across restarts and instances. */
export const REEMBED_DEDUPE_KEY = 'reembed-links';

/**
 * Which model links should have vectors of, deployment-wide (decision 0018: `SearchModels`), and
 * what a finished run tells it. Without one, the process's own model.
 */
export interface ReembedTarget {
  /** `fresh`: read now, not from a cache. */
  target(fresh?: boolean): Promise<VectorModel>;
  finished(model: VectorModel): Promise<void>;
}

const same = (a: VectorModel, b: VectorModel) => a.model === b.model && a.dims === b.dims;

/** Progress is logged at info level each time this many more links are done (and at both ends). */
const LOG_EVERY = 1000;

/**
 * Re-embeds links after the embedding model changed (or whenever links lack a vector of it), in the
 * background, a batch per job run. Search meanwhile ignores vectors of other models: text-only or
 * partly semantic answers until the run ends.
 */
export class ReembedService {
  private readonly batch: number;
  private readonly window: number;

  constructor(
    private readonly deps: {
      repo: ReembedRepository;
      embeddings: EmbeddingRepository;
      queue: JobQueue;
      embedder: Embedder;
      target?: ReembedTarget;
      clock: Clock;
      log: FastifyBaseLogger;
      /** Links embedded per job run. */
      batch?: number;
      /** Links looked at per job run (bounds a run's reads when stale links are sparse). */
      window?: number;
    },
  ) {
    this.batch = deps.batch ?? 64;
    this.window = Math.max(deps.window ?? 1000, this.batch);
  }

  private get current(): VectorModel {
    return { model: this.deps.embedder.modelId, dims: this.deps.embedder.dimensions };
  }

  private target(fresh = false): Promise<VectorModel> {
    return this.deps.target?.target(fresh) ?? Promise.resolve(this.current);
  }

  /**
   * Whether this process can run the re-embedding now: its model is the target. A worker on an
   * older model, or without the target's folder, leaves the run to those that have it.
   */
  async canRun(): Promise<boolean> {
    return same(this.current, await this.target());
  }

  /**
   * At start-up: queues the re-embedding job when some link lacks a current vector, unless it is
   * already queued or running (a restart mid-way continues the run it left). True when queued now.
   *
   * A run that finished for the current model has already walked every link, and every link that
   * ends up without a vector since queues a run itself (`queue`, from a failed analysis), so then
   * nothing is read: the stale-link scan reads every link (2.2 s warm for 1.1M links on SQLite,
   * where it blocks the event loop).
   */
  async queueIfNeeded(): Promise<boolean> {
    const { queue, repo, log } = this.deps;
    const current = this.current;
    const target = await this.target(true);
    if (!same(current, target)) {
      log.info(
        { model: current.model, target: target.model },
        "this process does not have the deployment's search model: re-embedding is left to workers that do",
      );
      return false;
    }
    const live = await queue.findByDedupeKey(REEMBED_DEDUPE_KEY);
    if (live && (live.status === 'queued' || live.status === 'running')) {
      log.info({ model: current.model }, 're-embedding of links continues');
      return false;
    }
    // Every link has a vector of the target: it is the active model (a run that found nothing to do).
    if ((live?.status === 'done' && this.isCurrent(live.payload)) || !(await repo.anyStale(current))) {
      await this.deps.target?.finished(current);
      return false;
    }
    return this.queue();
  }

  /**
   * Queues a run into the target model from the first link unless one is queued or running (any
   * process may: a worker that lacks the target leaves the run to one that has it). True when queued now.
   */
  async queue(): Promise<boolean> {
    const { queue, log } = this.deps;
    const current = await this.target(true);
    const payload: ReembedLinksPayload = { ...current, after: '', done: 0, total: await this.deps.repo.countLinks() };
    const queued = (await queue.enqueue('reembed-links', payload, { dedupeKey: REEMBED_DEDUPE_KEY })) !== null;
    if (queued) {
      log.info(
        { model: current.model },
        'links lack vectors of the embedding model: re-embedding them in the background',
      );
    }
    return queued;
  }

  /**
   * A vector of `model` was just stored (by a worker without the target model, say): when it is
   * not the target's, a run is queued unless one is queued or running, and a worker with the
   * target re-embeds the link.
   */
  async queueIfBehind(model: VectorModel): Promise<boolean> {
    return same(model, await this.target()) ? false : this.queue();
  }

  private isCurrent(payload: unknown): boolean {
    const parsed = ReembedLinksPayloadSchema.safeParse(payload);
    return parsed.success && same(parsed.data, this.current);
  }

  /** One step: embeds up to `batch` stale links after the cursor. `next` is null when the run is over. */
  async step(
    payload: ReembedLinksPayload,
  ): Promise<{ next: ReembedLinksPayload | null; done: number; total: number | null }> {
    const { repo, embeddings, embedder, clock, log } = this.deps;
    const current = this.current;
    if (!same(current, await this.target(true))) {
      // The target moved to a model this process lacks since it claimed the run: handed back as it
      // is (`canRun` now keeps this process from claiming it again).
      return { next: payload, done: payload.done, total: payload.total };
    }
    if (payload.model !== current.model || payload.dims !== current.dims) {
      // Queued for an older model (by a process of an older release): start over for the target.
      log.info({ from: payload.model, model: current.model }, 're-embedding restarts for the new embedding model');
      const total = await repo.countLinks();
      return { next: { ...current, after: '', done: 0, total }, done: 0, total };
    }
    const rows = await repo.window(current, payload.after, this.window);
    const chosen: string[] = [];
    let cursor = rows.at(-1)?.id ?? payload.after;
    for (const row of rows) {
      if (!row.stale) continue;
      chosen.push(row.id);
      if (chosen.length === this.batch) {
        cursor = row.id;
        break;
      }
    }
    const finished = rows.length < this.window && chosen.length < this.batch;
    const links = await repo.texts(chosen);
    const vectors = await embedder.embed(links.map((l) => pageText(l.title, l.description, l.text)));
    await embeddings.saveUnlessCurrent(current, new Map(links.map((l, i) => [l.id, vectors[i]!])), clock.now());
    const done = payload.done + links.length;
    // Every link has a vector of the target now: search reads its vectors alone.
    if (finished) await this.deps.target?.finished(current);
    const milestone = Math.floor(done / LOG_EVERY) > Math.floor(payload.done / LOG_EVERY);
    // Links saved during the run are analysed with the new model; the count only grows to cover them.
    const total = payload.total === null ? null : Math.max(payload.total, done);
    if (finished || (links.length > 0 && (payload.done === 0 || milestone))) {
      const of = total === null ? `${done}` : `${done} of ${total}`;
      log.info(
        { model: current.model, done, total },
        finished ? `re-embedding of links finished: ${of} links re-indexed` : `${of} links re-indexed`,
      );
    }
    return { next: finished ? null : { ...current, after: cursor, done, total }, done, total };
  }
}
