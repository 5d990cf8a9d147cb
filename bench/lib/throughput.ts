/** HTTP load with autocannon (bounded connections and duration), from this process to a server in another. */
import autocannon from 'autocannon';

export interface ThroughputResult {
  name: string;
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(
  name: string,
  baseUrl: string,
  path: string,
  options: { connections: number; seconds: number; warmupSeconds: number; headers?: Record<string, string> },
): Promise<ThroughputResult> {
  const result = await autocannon({
    url: `${baseUrl}${path}`,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    headers: options.headers,
    ...(options.warmupSeconds > 0 && {
      warmup: { connections: options.connections, duration: options.warmupSeconds },
    }),
  });
  return {
    name,
    path,
    connections: options.connections,
    seconds: result.duration,
    requests: result.requests.total,
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
