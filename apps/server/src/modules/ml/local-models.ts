/**
 * The offline transformer models the server can run (ids, sizes and how a text becomes a vector),
 * apart from their runtime so that only the model's worker thread loads onnxruntime.
 *
 * `files` pins each file of the model's folder by sha256: the folder downloaded from a hub and the
 * one `scripts/provision-model.py` builds from the pinned PyPI wheel are the same bytes (the
 * conversion is deterministic for its pinned tools), and a folder that differs is never loaded.
 */
export interface LocalModelSpec {
  /** Stored with each vector; changing it re-embeds every link. */
  id: string;
  /** The hub repository (`<org>/<name>`), also the folder under MODELS_DIR. */
  repo: string;
  /** The hub revision the download asks for. */
  revision: string;
  dimensions: number;
  pooling: 'mean' | 'cls';
  /** Tokens read per text (the model's trained window). */
  maxTokens: number;
  /**
   * Cosine below which a query's nearest link is noise for this model, and the cosine at which a
   * match counts as certain: similarity is rescaled between the two so it means the same across
   * models (calibrated with bench/search-quality.ts, decision 0011).
   */
  calibration: { floor: number; certain: number };
  files: Record<string, string>;
}

export const ALL_MINILM_L6_V2: LocalModelSpec = {
  id: 'all-minilm-l6-v2-q8',
  repo: 'sentence-transformers/all-MiniLM-L6-v2',
  revision: 'main',
  dimensions: 384,
  pooling: 'mean',
  maxTokens: 256,
  calibration: { floor: 0.2, certain: 0.6 },
  files: {
    'config.json': '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41',
    'onnx/model_quantized.onnx': '2e48a189b42d4be54c00bdfacab37c5b93f57fe49dccecfac151dc522ea1bffd',
    'special_tokens_map.json': '303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3',
    'tokenizer.json': 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
    'tokenizer_config.json': 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
  },
};

export const LOCAL_MODELS: Record<string, LocalModelSpec> = { 'all-minilm-l6-v2': ALL_MINILM_L6_V2 };
