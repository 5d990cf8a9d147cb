import { parentPort } from 'node:worker_threads';
import { nativeMemory } from '../../lib/native-memory.js';
import { envSwitch } from '../../lib/switch-words.js';
import { serveWorker } from '../../lib/worker-client.js';
import { TransformerModel, type TransformerModelOptions } from './transformer.model.js';

/**
 * Runs the transformer model off the main thread. The model's options come with each call (a
 * worker thread started from TypeScript sources has no workerData), and it loads on the first one.
 */
let model: Promise<TransformerModel> | undefined;
// Checked with the rest of the configuration (config.ts); read here without loading its schema.
const trim = envSwitch(process.env.MODEL_MEMORY_TRIM, true) ? () => nativeMemory().trim() : () => false;
serveWorker<{ options: TransformerModelOptions; texts: string[]; purpose: 'document' | 'query' }, Float32Array[]>(
  parentPort,
  async ({ options, texts, purpose }) => {
    // Loading frees each parsed graph's bytes: hand them back after each model's session opens.
    model ??= TransformerModel.load(options, trim);
    // A model that failed to load would fail every call: exit, so the next call starts a fresh worker.
    model.catch(() => process.exit(1));
    const vectors = await (await model).embed(texts, purpose);
    // After the reply is posted (a macrotask runs after the promise chain that posts it): a batch of
    // pages leaves its activations freed but kept by malloc; a query's are small.
    if (purpose === 'document') setImmediate(trim);
    return vectors;
  },
  (vectors) => vectors.map((v) => v.buffer as ArrayBuffer),
);
