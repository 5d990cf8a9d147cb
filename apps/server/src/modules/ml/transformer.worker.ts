import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../../lib/worker-client.js';
import { TransformerModel, type TransformerModelOptions } from './transformer.model.js';

/**
 * Runs the transformer model off the main thread. The model's options come with each call (a
 * worker thread started from TypeScript sources has no workerData), and it loads on the first one.
 */
let model: Promise<TransformerModel> | undefined;
serveWorker<{ options: TransformerModelOptions; texts: string[]; purpose: 'document' | 'query' }, Float32Array[]>(
  parentPort,
  async ({ options, texts, purpose }) => {
    model ??= TransformerModel.load(options);
    // A model that failed to load would fail every call: exit, so the next call starts a fresh worker.
    model.catch(() => process.exit(1));
    return (await model).embed(texts, purpose);
  },
  (vectors) => vectors.map((v) => v.buffer as ArrayBuffer),
);
