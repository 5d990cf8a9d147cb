import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { vectorBytes } from './vector-bytes.js';

/** The model a vector must have to count as current. */
export interface VectorModel {
  model: string;
  dims: number;
}

/** The one writer of the `embeddings` table: a link's vector with its model, little-endian bytes. */
export class EmbeddingRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /** The same repository inside a caller's transaction (a link's analysis commits as one). */
  with(db: Kysely<DB>): EmbeddingRepository {
    return new EmbeddingRepository(db, this.engine);
  }

  async save(linkId: string, model: string, vector: Float32Array, now: number): Promise<void> {
    const bytes = vectorBytes(vector);
    await this.db
      .insertInto('embeddings')
      .values({ link_id: linkId, model, dims: vector.length, vector: bytes, created_at: now })
      .onConflict((oc) =>
        oc.column('link_id').doUpdateSet({ model, dims: vector.length, vector: bytes, created_at: now }),
      )
      .execute();
  }

  /**
   * Stores re-embedded vectors in one transaction. A link deleted meanwhile is skipped (its row is
   * locked against deletion on PostgreSQL; SQLite runs one writer at a time), and a vector that is
   * already of the current model is kept: it came from an analysis that finished meanwhile and read
   * a fresher page.
   */
  async saveUnlessCurrent(current: VectorModel, vectors: Map<string, Float32Array>, now: number): Promise<number> {
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
