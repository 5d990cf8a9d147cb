import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { vectorBytes } from '../search/vector-index.js';

/** The model a vector must have to count as current. */
export interface VectorModel {
  model: string;
  dims: number;
}

/** A link to embed again, with what its vector is made of. */
export interface LinkText {
  id: string;
  title: string;
  description: string;
  /** The start of the stored page text (the embedder reads only the first words). */
  text: string | null;
}

/** Page text read per link: far more than the ~300 words an embedder reads, far less than 2 MB. */
const TEXT_CHARS = 16_000;

type Scope = ExpressionBuilder<DB & { e: DB['embeddings'] }, 'links' | 'e'>;

/**
 * A link needs a vector when it has none or one of another model or size; links still being analysed
 * are left to their analysis job, which stores a vector of the current model itself.
 */
function stale(eb: Scope, current: VectorModel): Expression<SqlBool> {
  return eb.and([
    eb('links.analysis_status', '<>', 'pending'),
    eb.or([eb('e.link_id', 'is', null), eb('e.model', '<>', current.model), eb('e.dims', '<>', current.dims)]),
  ]);
}

/** Reads and writes of re-embedding after a model change: which links lack a current vector. */
export class ReembedRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /** Stops at the first such link, so the common case (nothing to do) is one pass at most. */
  async anyStale(current: VectorModel): Promise<boolean> {
    const row = await this.db
      .selectFrom('links')
      .leftJoin('embeddings as e', 'e.link_id', 'links.id')
      .select('links.id')
      .where((eb) => stale(eb, current))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The next `window` links by id after `after`, each marked stale or not. A window bounds what one
   * batch reads however sparse the stale links are (a full scan per batch would make a 100k-link
   * library cost quadratic time); the caller walks the windows in id order.
   */
  async window(current: VectorModel, after: string, window: number): Promise<{ id: string; stale: boolean }[]> {
    const rows = await this.db
      .selectFrom((qb) =>
        qb
          .selectFrom('links')
          .select(['links.id', 'links.analysis_status'])
          .where('links.id', '>', after)
          .orderBy('links.id')
          .limit(window)
          .as('links'),
      )
      .leftJoin('embeddings as e', 'e.link_id', 'links.id')
      // The derived `links` has the columns `stale` reads; its type is narrower than the table's.
      .select((eb) => ['links.id', sql<number | boolean>`${stale(eb as unknown as Scope, current)}`.as('stale')])
      .orderBy('links.id')
      .execute();
    // The same rule as the other queries (SQLite answers 0/1, PostgreSQL a boolean).
    return rows.map((r) => ({ id: r.id, stale: Boolean(Number(r.stale)) }));
  }

  async texts(ids: string[]): Promise<LinkText[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('links')
      .leftJoin('page_contents as p', 'p.link_id', 'links.id')
      .select([
        'links.id',
        'links.title',
        'links.description',
        sql<string | null>`substr(p.text, 1, ${sql.lit(TEXT_CHARS)})`.as('text'),
      ])
      .where('links.id', 'in', ids)
      .orderBy('links.id')
      .execute();
  }

  /**
   * Stores the new vectors in one transaction. A link deleted meanwhile is skipped (its row is
   * locked against deletion on PostgreSQL; SQLite runs one writer at a time), and a vector that is
   * already of the current model is kept: it came from an analysis that finished meanwhile and read
   * a fresher page.
   */
  async save(current: VectorModel, vectors: Map<string, Float32Array>, now: number): Promise<number> {
    if (vectors.size === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let present = trx
        .selectFrom('links')
        .select('id')
        .where('id', 'in', [...vectors.keys()]);
      if (this.engine === 'postgres') present = present.forKeyShare();
      let saved = 0;
      for (const { id } of await present.execute()) {
        const vector = vectorBytes(vectors.get(id)!);
        const row = { link_id: id, model: current.model, dims: current.dims, vector, created_at: now };
        const result = await trx
          .insertInto('embeddings')
          .values(row)
          .onConflict((oc) =>
            oc
              .column('link_id')
              .doUpdateSet({ model: current.model, dims: current.dims, vector, created_at: now })
              .where((eb) =>
                eb.or([eb('embeddings.model', '<>', current.model), eb('embeddings.dims', '<>', current.dims)]),
              ),
          )
          .executeTakeFirst();
        saved += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return saved;
    });
  }
}
