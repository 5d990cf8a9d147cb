import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelFolders, MINILM_BGE_USE_MULTILINGUAL } from '../src/modules/ml/local-models.js';
import { modelFolder } from '../src/modules/ml/model-files.js';

/** The repository's root (scripts/, data/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where `scripts/provision-model.py` puts the models by default: `LINKWISE_MODELS_DIR`, else data/models. */
export const PROVISIONED_MODELS_DIR = process.env.LINKWISE_MODELS_DIR ?? path.join(REPO_ROOT, 'data/models');

/**
 * The provisioned models folder, or null after a loud skip line (fatal under CI=true, where
 * `.ci/run` provisions it first).
 */
export function provisionedModels(): string | null {
  const built = modelFolders(MINILM_BGE_USE_MULTILINGUAL).map((part) =>
    path.join(modelFolder(PROVISIONED_MODELS_DIR, part), 'onnx/model_quantized.onnx'),
  );
  if (built.every((file) => existsSync(file))) {
    return PROVISIONED_MODELS_DIR;
  }
  const why = `SKIPPED offline model suites: no model in ${PROVISIONED_MODELS_DIR} (run python3 scripts/provision-model.py)`;
  if (process.env.CI === 'true') throw new Error(`${why}; CI=true does not allow skipping`);
  console.warn(`\n${'!'.repeat(80)}\n${why}\n${'!'.repeat(80)}\n`);
  return null;
}
