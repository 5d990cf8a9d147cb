import { endianness } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { repairedByteOrder } from '../../modules/embeddings/vector-bytes.js';

/**
 * The job system as a platform (decision 0006): priorities (an interactive save is analysed before
 * a bulk import's backlog), a dedupe key in place of meaningful job ids, progress for long jobs, the
 * request that enqueued a job, cancellation and a finish time for the visible final state.
 *
 * Jobs queued before this migration kept their dedupe in the id (`analyze-link:<link id>`,
 * `reembed-links`): the id becomes their dedupe key, so asking again still adds nothing.
 *
 * Vectors: analysis used to store a Float32Array's own buffer (the host's byte order) while
 * re-embedding and every reader used little-endian. On a little-endian host both were the same; on
 * a big-endian one the analysed rows are repaired here (a stored vector is unit length, which only
 * the right order reads as).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(50))
    .execute();
  await db.schema.alterTable('jobs').addColumn('dedupe_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('progress', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('finished_at', 'bigint').execute();
  await sql`update jobs set dedupe_key = id where type in ('analyze-link', 'reembed-links')`.execute(db);
  // NULL keys never collide (both engines): only jobs that ask for a key are deduplicated.
  await db.schema.createIndex('jobs_dedupe').on('jobs').column('dedupe_key').unique().execute();
  await db.schema.dropIndex('jobs_ready').execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'priority', 'run_at']).execute();
  // Pruning finished jobs walks them by age.
  await db.schema.createIndex('jobs_finished').on('jobs').columns(['status', 'finished_at']).execute();
  if (endianness() === 'BE') await repairVectors(db);
}

/** Rewrites the vectors that read as unit length only with their bytes swapped, 1,000 rows a read. */
async function repairVectors(db: Kysely<unknown>): Promise<number> {
  let after = '';
  let repaired = 0;
  for (;;) {
    const { rows } = await sql<{ link_id: string; vector: Uint8Array }>`
      select link_id, vector from embeddings where link_id > ${after} order by link_id limit 1000`.execute(db);
    for (const row of rows) {
      const fixed = repairedByteOrder(row.vector);
      if (!fixed) continue;
      await sql`update embeddings set vector = ${fixed} where link_id = ${row.link_id}`.execute(db);
      repaired += 1;
    }
    if (rows.length < 1000) return repaired;
    after = rows.at(-1)!.link_id;
  }
}
