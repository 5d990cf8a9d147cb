/**
 * Sequential latency sampling through the real HTTP stack (fetch → Fastify → Kysely → engine), with
 * every SQL statement each request ran recorded through openDatabase's onQuery hook.
 */
import type { LogEvent } from 'kysely';
import { summarize, type Summary } from './stats.js';

export interface QueryEvent {
  sql: string;
  parameters: readonly unknown[];
  ms: number;
}

/** Collects the statements executed between start() and stop(); requests run one at a time. */
export class QueryRecorder {
  private current: QueryEvent[] | null = null;

  readonly onQuery = (event: LogEvent): void => {
    if (this.current && event.level === 'query') {
      this.current.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
    }
  };

  start(): void {
    this.current = [];
  }

  stop(): QueryEvent[] {
    const out = this.current ?? [];
    this.current = null;
    return out;
  }
}

/** A short name for each statement the list and create endpoints run. */
export function classify(sqlText: string): string {
  const s = sqlText.toLowerCase().replace(/\s+/g, ' ');
  // Search statements (bench/search.bench.ts).
  if (s.includes('from search_words')) return 'typo terms';
  if (s.includes('from link_words') && !s.includes('link_fts')) return 'typo terms';
  if (s.includes('from link_fts') || s.includes('from link_search')) return 'text hits';
  if (s.includes('"search_version"')) return 'search version';
  if (s.includes('from "embeddings"')) return 'load vectors';
  if (s.startsWith('update "auth_tokens"')) return 'touch token';
  if (s.includes('from "auth_tokens"')) return 'auth';
  if (s.startsWith('begin') || s.startsWith('commit') || s.startsWith('rollback')) return 'tx';
  if (s.startsWith('insert into "links"')) return 'insert link';
  if (s.startsWith('insert into "tags"')) return 'insert tags';
  if (s.startsWith('insert into "link_tags"')) return 'insert link_tags';
  if (s.startsWith('insert into "jobs"')) return 'insert job';
  if (s.startsWith('delete from "link_tags"')) return 'delete link_tags';
  if (s.includes('for update')) return 'lock user';
  if (s.includes('from "link_tags" as "lt"')) return 'tags';
  if (s.includes('from "credentials"')) return 'credentials';
  if (s.includes('from "tags"')) return 'tag ids';
  if (s.includes('count(*)')) return /"category" =|"is_read" =|like/.test(s) ? 'count matching' : 'count all';
  if (s.includes('offset') && s.includes('order by "created_at" asc')) return 'cutoff (nth oldest)';
  if (s.includes('("created_at", "id") >')) return 'cutoff (beyond?)';
  if (s.includes('"normalized_url" =')) return 'duplicate check';
  if (s.startsWith('select "links".*')) return 'page';
  if (s.includes('from "links"') && s.includes('"id" =')) return 'link by id';
  return s.slice(0, 40);
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** Path for request `i` (warm-up requests get negative i). */
  path: (i: number) => string;
  token: string;
  /** Token used for warm-up requests, when they must not count against the measured user. */
  warmupToken?: string;
  body?: (i: number) => unknown;
  expectStatus: number;
  warmup: number;
  samples: number;
}

export interface StatementStat {
  label: string;
  perRequest: number;
  p50: number;
  p99: number;
}

export interface LatencyResult {
  name: string;
  method: string;
  path: string;
  latency: Summary;
  queriesPerRequest: number;
  statements: StatementStat[];
  /** The statements of the last measured request, for EXPLAIN. */
  lastQueries: QueryEvent[];
}

async function once(
  baseUrl: string,
  scenario: Scenario,
  i: number,
  token: string,
): Promise<{ ms: number; status: number; text: string }> {
  const body = scenario.body?.(i);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const t0 = performance.now();
  const response = await fetch(`${baseUrl}${scenario.path(i)}`, {
    method: scenario.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { ms: performance.now() - t0, status: response.status, text };
}

/** Unmeasured requests (JIT, caches, connection pool); `count` defaults to the scenario's warm-up. */
export async function warmUp(baseUrl: string, scenario: Scenario, count = scenario.warmup): Promise<void> {
  for (let i = 0; i < count; i++) {
    const r = await once(baseUrl, scenario, -1 - i, scenario.warmupToken ?? scenario.token);
    if (r.status !== scenario.expectStatus) {
      throw new Error(`${scenario.name}: warm-up answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
  }
}

export async function runScenario(
  baseUrl: string,
  recorder: QueryRecorder,
  scenario: Scenario,
): Promise<LatencyResult> {
  await warmUp(baseUrl, scenario);
  const times: number[] = [];
  const perRequest: QueryEvent[][] = [];
  for (let i = 0; i < scenario.samples; i++) {
    recorder.start();
    const r = await once(baseUrl, scenario, i, scenario.token);
    const queries = recorder.stop();
    if (r.status !== scenario.expectStatus) {
      throw new Error(`${scenario.name}: request ${i} answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    times.push(r.ms);
    perRequest.push(queries);
  }
  const byLabel = new Map<string, { total: number; times: number[] }>();
  for (const queries of perRequest) {
    const sums = new Map<string, number>();
    for (const q of queries) {
      const label = classify(q.sql);
      sums.set(label, (sums.get(label) ?? 0) + q.ms);
      const entry = byLabel.get(label) ?? { total: 0, times: [] };
      entry.total += 1;
      byLabel.set(label, entry);
    }
    for (const [label, sum] of sums) byLabel.get(label)?.times.push(sum);
  }
  const statements = [...byLabel].map(([label, { total, times: t }]) => {
    const s = summarize(t);
    return { label, perRequest: total / perRequest.length, p50: s.p50, p99: s.p99 };
  });
  const counts = perRequest.map((q) => q.length).sort((a, b) => a - b);
  return {
    name: scenario.name,
    method: scenario.method,
    path: scenario.path(0),
    latency: summarize(times),
    queriesPerRequest: counts[Math.floor(counts.length / 2)] ?? 0,
    statements,
    lastQueries: perRequest[perRequest.length - 1] ?? [],
  };
}
