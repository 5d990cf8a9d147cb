/** Query plans for the statements an endpoint actually ran, with the parameters it bound. */
import { CompiledQuery } from 'kysely';
import type { Database } from '../../apps/server/src/db/database.js';
import type { QueryEvent } from './latency.js';

interface SqlitePlanRow {
  id: number;
  parent: number;
  detail: string;
}

/** SQLite: EXPLAIN QUERY PLAN as an indented tree. PostgreSQL: EXPLAIN (ANALYZE, BUFFERS). */
export async function explain(database: Database, query: QueryEvent): Promise<string> {
  if (database.engine === 'sqlite') {
    const { rows } = await database.db.executeQuery<SqlitePlanRow>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    const depth = new Map<number, number>([[0, 0]]);
    return rows
      .map((row) => {
        const d = (depth.get(row.parent) ?? 0) + 1;
        depth.set(row.id, d);
        return `${'  '.repeat(d - 1)}${row.detail}`;
      })
      .join('\n');
  }
  const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]),
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** Parameters as they would appear in a log line (long strings shortened). */
export function showParameters(parameters: readonly unknown[]): string {
  return JSON.stringify(parameters.map((p) => (typeof p === 'string' && p.length > 40 ? `${p.slice(0, 37)}…` : p)));
}
