import { ReembedLinksPayloadSchema, type ReembedLinksPayload } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import { pageText, type Embedder } from '../ml/embedder.js';
import type { EmbeddingRepository, VectorModel } from './embedding.repository.js';
import type { ReembedRepository } from './reembed.repository.js';

/** The one re-embedding run: its dedupe key keeps it single across restarts and instances. */
export const REEMBED_DEDUPE_KEY = 'reembed-links';

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
    const live = await queue.findByDedupeKey(REEMBED_DEDUPE_KEY);
    if (live && (live.status === 'queued' || live.status === 'running')) {
      log.info({ model: current.model }, 're-embedding of links continues');
      return false;
    }
    if (live?.status === 'done' && this.isCurrent(live.payload)) return false;
    if (!(await repo.anyStale(current))) return false;
    return this.queue();
  }

  /** Queues a run from the first link unless one is queued or running. True when queued now. */
  async queue(): Promise<boolean> {
    const { queue, log } = this.deps;
    const current = this.current;
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

  private isCurrent(payload: unknown): boolean {
    const parsed = ReembedLinksPayloadSchema.safeParse(payload);
    return parsed.success && parsed.data.model === this.current.model && parsed.data.dims === this.current.dims;
  }

  /** One step: embeds up to `batch` stale links after the cursor. `next` is null when the run is over. */
  async step(
    payload: ReembedLinksPayload,
  ): Promise<{ next: ReembedLinksPayload | null; done: number; total: number | null }> {
    const { repo, embeddings, embedder, clock, log } = this.deps;
    const current = this.current;
    if (payload.model !== current.model || payload.dims !== current.dims) {
      // Queued for a model this instance no longer uses: start over for the current one.
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
