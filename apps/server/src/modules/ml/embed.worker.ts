import { parentPort } from 'node:worker_threads';
import { UseLiteModel } from './use-lite.model.js';
import { serveWorker } from '../../lib/worker-client.js';

/**
 * Runs the embedding model off the main thread: a page text takes ~100 ms of CPU, which on the
 * event loop would stall every request.
 */
const model = UseLiteModel.load();
// A model that failed to load would fail every call: exit instead, so the next call starts a fresh
// worker (WorkerClient restarts a worker that exited). Callers waiting now get the exit error.
model.catch(() => process.exit(1));
serveWorker<{ texts: string[]; purpose: 'document' | 'query' }, Float32Array[]>(
  parentPort,
  async ({ texts, purpose }) => (purpose === 'query' ? (await model).embedQueries(texts) : (await model).embed(texts)),
  (vectors) => vectors.map((v) => v.buffer as ArrayBuffer),
);
