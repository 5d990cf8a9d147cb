import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { VectorModel } from './embedding.repository.js';

/** The deployment's search model (decision 0018). */
export interface SearchModelState {
  /** What links are re-embedded into; it only moves up the catalog. Null before any worker decided. */
  target: (VectorModel & { rank: number }) | null;
  /** Whose vectors every link had when the last run finished (search also reads them until the next one does). */
  active: VectorModel | null;
}

const ref = (model: string | null, dims: number | null): VectorModel | null =>
  model !== null && dims !== null ? { model, dims } : null;

/**
 * The one row `search_models`, shared by every process of a deployment: workers move the target up
 * (never down), the worker that finishes a re-embedding run makes it active, and search reads both.
 * Reads are cached for `ttlMs` (a search does not pay a query for it each time).
 */
export class SearchModels {
  private cached: SearchModelState | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<SearchModelState> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => number,
    private readonly ttlMs = 2000,
  ) {}

  /** The last state read (undefined before the first read). */
  get last(): SearchModelState | undefined {
    return this.cached;
  }

  /** The state, at most `ttlMs` old (`fresh`: read now). */
  async read(fresh = false): Promise<SearchModelState> {
    if (!fresh && this.cached && this.now() - this.readAt < this.ttlMs) return this.cached;
    this.reading ??= this.db
      .selectFrom('search_models')
      .selectAll()
      .where('id', '=', 'search')
      .executeTakeFirst()
      .then((row) => {
        const target = row && ref(row.target, row.target_dims);
        const state: SearchModelState = {
          target: target ? { ...target, rank: row.target_rank } : null,
          active: row ? ref(row.active, row.active_dims) : null,
        };
        this.cached = state;
        this.readAt = this.now();
        return state;
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** Reads the state again every `ms` in the background (an `api` process's embedders read `last`). */
  watch(ms: number): () => void {
    const timer = setInterval(() => void this.read(true).catch(() => undefined), ms);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * A worker has `mine` ready: it becomes the target when it ranks above the current one (or there
   * is none), and active too when nothing is. Never moves the target down: a worker still on an older
   * model, or without the newer one's folder, leaves it. Compare-and-set, so concurrent workers agree.
   */
  async advance(mine: VectorModel & { rank: number }): Promise<SearchModelState> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const state = await this.read(true);
      const { target } = state;
      if (target && target.rank >= mine.rank) return state;
      const now = this.now();
      const moved = await this.db
        .insertInto('search_models')
        .values({
          id: 'search',
          target: mine.model,
          target_dims: mine.dims,
          target_rank: mine.rank,
          active: mine.model,
          active_dims: mine.dims,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              target: mine.model,
              target_dims: mine.dims,
              target_rank: mine.rank,
              active: eb.fn.coalesce('search_models.active', eb.val(mine.model)),
              active_dims: eb.fn.coalesce('search_models.active_dims', eb.val(mine.dims)),
              updated_at: now,
            }))
            .where((eb) =>
              target
                ? eb.and([
                    eb('search_models.target', '=', target.model),
                    eb('search_models.target_dims', '=', target.dims),
                  ])
                : eb('search_models.target', 'is', null),
            ),
        )
        .executeTakeFirst();
      if (Number(moved.numInsertedOrUpdatedRows ?? 0) > 0) return this.read(true);
    }
    return this.read(true);
  }

  /** A run re-embedded every link into `model`: it is active now, unless the target moved on meanwhile. */
  async finished(model: VectorModel): Promise<void> {
    await this.db
      .updateTable('search_models')
      .set((eb) => ({ active: eb.ref('target'), active_dims: eb.ref('target_dims'), updated_at: this.now() }))
      .where('id', '=', 'search')
      .where('target', '=', model.model)
      .where('target_dims', '=', model.dims)
      .execute();
    await this.read(true);
  }
}
