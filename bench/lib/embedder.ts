import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerEmbedder, type Embedder } from '../../apps/server/src/modules/ml/embedder.js';
import { CANDIDATE_MODELS, LOCAL_MODELS } from '../../apps/server/src/modules/ml/local-models.js';
import { checkModelFolder } from '../../apps/server/src/modules/ml/model-files.js';
import { TransformerEmbedder } from '../../apps/server/src/modules/ml/offline-embedder.js';

/** Where `scripts/provision-model.py` puts the models by default (the server's DATA_DIR/models). */
export const BENCH_MODELS_DIR =
  process.env.MODELS_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../../data/models');

/**
 * The embedding model the server uses for link vectors, in a worker thread: the offline transformer
 * (BENCH_MODEL, default minilm-bge-use-multilingual as in the server, or a candidate of CANDIDATE_MODELS, from MODELS_DIR) or USE-lite (`BENCH_MODEL=use-lite`).
 */
export async function createEmbedder(
  name = process.env.BENCH_MODEL ?? 'minilm-bge-use-multilingual',
): Promise<Embedder> {
  if (name === 'use-lite') return new WorkerEmbedder();
  const spec = LOCAL_MODELS[name] ?? CANDIDATE_MODELS[name];
  if (!spec)
    throw new Error(
      `unknown model ${name}: use-lite or ${[...Object.keys(LOCAL_MODELS), ...Object.keys(CANDIDATE_MODELS)].join(', ')}`,
    );
  const problem = await checkModelFolder(BENCH_MODELS_DIR, spec);
  if (problem) throw new Error(`${problem}: run python3 scripts/provision-model.py first`);
  return new TransformerEmbedder(spec, BENCH_MODELS_DIR, Number(process.env.MODEL_THREADS ?? 1));
}
