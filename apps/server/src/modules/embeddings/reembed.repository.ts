import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { VectorModel } from './embedding.repository.js';

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

/** Reads of re-embedding after a model change: which links lack a current vector, and their texts. */
export class ReembedRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every user's links, from the counts triggers keep (one row a user, not a scan of links). */
  async countLinks(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('link_count'), sql<number>`0`).as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

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
}
