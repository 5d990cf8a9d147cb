/** A throwaway PostgreSQL database per run, created and dropped through an admin connection. */
import pg from 'pg';

export const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `reuse`: a fixed name, created only when missing and never dropped by the run (kept benchmark data).
 */
export async function createBenchDatabase(
  reuse?: string,
): Promise<{ url: string; name: string; existed: boolean; drop: () => Promise<void> }> {
  const name = reuse ?? `linkwise_bench_${process.pid}`;
  const existed = await admin(async (c) => {
    if (reuse) {
      const found = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return true;
    } else await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
    return false;
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    existed,
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
