import { sql, type Kysely } from 'kysely';

/**
 * The offline model across processes (decision 0018): `model_workers` lists the workers that embed
 * for others (the models each has ready, a heartbeat), so an `api` process never loads a model;
 * `search_models` holds the deployment's search model, `target` (what links are re-embedded into;
 * it only moves up the catalog) and `active` (whose vectors every link has; it becomes the target
 * when a run finishes). Seeded from the vectors already stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // JSON array of model ids, the one the worker embeds links with first.
    .addColumn('models', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('search_models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('target', 'text')
    .addColumn('target_dims', 'integer')
    // The target's place in the offline catalog (ml/model-catalog.ts), written with it: a release
    // that does not know a newer model still sees that it is newer. -1: not an offline model.
    .addColumn('target_rank', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('active', 'text')
    .addColumn('active_dims', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The model most links have vectors of is where search stands today (none: the first worker decides).
  await sql`
    insert into search_models (id, target, target_dims, target_rank, active, active_dims, updated_at)
    select 'search', m.model, m.dims,
           case m.model when 'use-lite-512' then 0 when 'all-minilm-l6-v2-q8' then 1 else -1 end,
           m.model, m.dims, 0
      from (select 1 as one) s
      left join (select model, dims from embeddings group by model, dims order by count(*) desc limit 1) m on 1 = 1
  `.execute(db);
}
