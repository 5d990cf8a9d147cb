import type { ApiClient } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startServer, type TestServer } from './harness.js';
import { until } from './processes.js';

/** One sample's value from the Prometheus text, found by metric name and labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(engines())('metrics on %s', (engine) => {
  let server: TestServer;
  let api: ApiClient;
  const scrape = async (token?: string) => {
    const get = () => fetch(`${server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    // After a restart the first request may meet a keep-alive socket the old server closed.
    const response = await get().catch(get);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  beforeAll(async () => {
    // Saved links point at a closed loopback port: a job that fails, retries, then fails for good.
    server = await startServer(engine, { METRICS: 'true', BILLING: 'off', JOBS_ENABLED: 'true' });
  });
  afterAll(() => server.close());

  it('counts requests by route template and status, with latency', async () => {
    ({ api } = await server.signUp('metrics'));
    const link = await api.createLink({ body: { url: 'http://127.0.0.1:9/nothing' } });
    await api.getLink({ params: { id: link.id } });
    await fetch(`${server.url}/api/links/${'0'.repeat(8)}`);
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'http_requests_total', { route: '/api/links/:id', method: 'GET', status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { route: '/api/links/:id', status: '401' })).toBe(1);
    expect(sample(text, 'http_requests_total', { route: '/api/links', method: 'POST', status: '201' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/links', method: 'POST' })).toBe(1);
    // Raw URLs never become labels (one series per link id would grow without bound).
    expect(text).not.toContain(link.id);
  });

  it('reports jobs, model inference, the vector cache and the runtime', async () => {
    await until('the analysis job to end', async () => {
      server.clock.advance(10 * 60_000); // past each retry's backoff
      const { text } = await scrape();
      return (
        (sample(text, 'job_duration_seconds_count', { name: 'analyze-link', outcome: 'failed' }) ?? 0) >= 1 &&
        // After its last attempt the link gets a vector of what was typed.
        (sample(text, 'model_inference_seconds_count', { purpose: 'document' }) ?? 0) >= 1
      );
    });
    // The user's one link has its vector now: search embeds the query to compare.
    await api.search({ query: { query: 'recipes for dinner' } });
    const { text } = await scrape();
    // The search embedded its query.
    expect(sample(text, 'model_inference_seconds_count', { purpose: 'query' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'search_vector_cache_bytes')).toBeGreaterThan(0);
    // No offline model in this server's MODELS_DIR: the fallback answers, and says so.
    expect(sample(text, 'embedding_model_info', { model: 'use-lite-512' })).toBe(1);
    expect(text.match(/^embedding_model_info\{/gm)).toHaveLength(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('role="all"');
  }, 60_000);

  it('shows queued jobs as queue depth', async () => {
    await server.restart({ METRICS: 'true', BILLING: 'off', JOBS_ENABLED: 'false' });
    const { api: queued } = await server.signUp('queue');
    for (let i = 0; i < 3; i++) await queued.createLink({ body: { url: `https://example.com/q${i}` } });
    const { text } = await scrape();
    expect(sample(text, 'job_queue_depth', { name: 'analyze-link', status: 'queued' })).toBeGreaterThanOrEqual(3);
  });

  it('asks for the token when one is set, and is absent unless enabled', async () => {
    const token = 'a-long-metrics-token';
    await server.restart({ METRICS: 'true', METRICS_TOKEN: token });
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong-token-of-some-length')).status).toBe(401);
    expect((await scrape(token)).status).toBe(200);
    await server.restart({ METRICS: 'false' });
    const { status } = await scrape();
    // Without METRICS the path is the web app's: no numbers leak.
    expect((await scrape()).text).not.toContain('process_resident_memory_bytes');
    expect([200, 404]).toContain(status);
  });
});
