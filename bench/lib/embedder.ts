import { WorkerEmbedder, type Embedder } from '../../apps/server/src/modules/ml/embedder.js';

/** The embedding model the server uses for link vectors (the offline model in a worker thread). */
export function createEmbedder(): Promise<Embedder> {
  return Promise.resolve(new WorkerEmbedder());
}
