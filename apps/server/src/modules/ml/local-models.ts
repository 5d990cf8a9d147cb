import { BGE_SMALL_EN_V15_CENTRE } from './bge-centre.js';
import type { Calibration } from './embedder.js';

/**
 * The offline transformer models the server can run (ids, sizes and how a text becomes a vector),
 * apart from their runtime so that only the model's worker thread loads onnxruntime.
 *
 * `files` pins each file of the model's folder by sha256: the folder downloaded from a hub and the
 * one `scripts/provision-model.py` builds from the pinned PyPI wheel are the same bytes (the
 * conversion is deterministic for its pinned tools), and a folder that differs is never loaded.
 */
/** A model's folder: where it comes from and the sha256 of each of its files. */
export interface ModelFolderSpec {
  /** The hub repository (`<org>/<name>`), also the folder under MODELS_DIR. */
  repo: string;
  /** The hub revision the download asks for. */
  revision: string;
  files: Record<string, string>;
}

/**
 * A model whose vector is appended to the first one's (decisions 0019, 0020): every part unit length,
 * scaled so that the cosine of two joined vectors is the sum of each part's cosine times its share
 * (`weight`; the first model keeps what the companions leave).
 */
export interface CompanionModelSpec extends ModelFolderSpec {
  /** USE multilingual's cut graph with SentencePiece, or a BERT-style transformer like the first. */
  kind: 'use-multilingual' | 'transformer';
  dimensions: number;
  weight: number;
  /** For a transformer: as in LocalModelSpec. */
  pooling?: 'mean' | 'cls';
  maxTokens?: number;
  queryPrefix?: string;
}

export interface LocalModelSpec extends ModelFolderSpec {
  /** Stored with each vector; changing it re-embeds every link. */
  id: string;
  /** Of the stored vector (the first model's plus its companions'). */
  dimensions: number;
  pooling: 'mean' | 'cls';
  /** Tokens read per text (the model's trained window, or less where more bought nothing). */
  maxTokens: number;
  /** Put before a search query (not a page): the instruction a retrieval model was trained with. */
  queryPrefix?: string;
  /**
   * Cosine below which a query's nearest link is noise for this model, and the cosine at which a
   * match counts as certain: similarity is rescaled between the two so it means the same across
   * models (calibrated with bench/search-quality.ts, decision 0011).
   */
  calibration: Calibration;
  companions?: CompanionModelSpec[];
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

/**
 * Google's Universal Sentence Encoder, multilingual v3 (16 languages, one space for all of them):
 * its int8 graph cut after its SentencePiece tokenizer, and that tokenizer's model, by
 * `scripts/provision-model.py`.
 */
export const USE_MULTILINGUAL_3: CompanionModelSpec = {
  kind: 'use-multilingual',
  repo: 'linkwise/universal-sentence-encoder-multilingual-3',
  revision: 'main',
  dimensions: 512,
  weight: 0.6,
  files: {
    'config.json': 'c18b28dcb59dbc69044ec07bd08bd01db0a839e6c1d8fa0244691c5588e91063',
    'onnx/model_quantized.onnx': '8f5307ec48abbbfd3397a84d8a22b13220cf05e183a7b0d5593daf56c3140ea1',
    'sentencepiece.model': '994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9',
  },
};

/** all-MiniLM-L6-v2 with USE multilingual appended: English paraphrases and queries in other languages. */
export const MINILM_USE_MULTILINGUAL: LocalModelSpec = {
  ...ALL_MINILM_L6_V2,
  id: 'minilm-usem3-q8',
  dimensions: ALL_MINILM_L6_V2.dimensions + USE_MULTILINGUAL_3.dimensions,
  calibration: { floor: 0.12, certain: 0.4 },
  companions: [USE_MULTILINGUAL_3],
};

/**
 * BAAI's bge-small-en-v1.5, int8, as `scripts/provision-model.py --model bge-small-en-v1.5` takes it
 * from its pinned wheel: CLS pooling, a query read with its retrieval instruction in front, 256 tokens
 * of a page (512 bought 0.01 MRR for twice the work; decision 0020).
 */
export const BGE_SMALL_EN_V15: CompanionModelSpec = {
  kind: 'transformer',
  repo: 'linkwise/bge-small-en-v1.5',
  revision: 'main',
  dimensions: 384,
  // Its share in the default (MINILM_BGE_USE_MULTILINGUAL).
  weight: 0.15,
  pooling: 'cls',
  maxTokens: 256,
  queryPrefix: 'Represent this sentence for searching relevant passages: ',
  files: {
    'config.json': '094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750',
    'onnx/model_quantized.onnx': '68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743',
    'tokenizer.json': 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
    'tokenizer_config.json': '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3',
  },
};

/**
 * A measured candidate, not offered by the server (decision 0020): bge-small-en-v1.5 joined with USE
 * multilingual at equal shares. Better English ranking by vectors alone, worse through the
 * product's hybrid search: its cosines have no "nothing matches" level.
 */
export const BGE_USE_MULTILINGUAL: LocalModelSpec = {
  id: 'bge-usem3-q8',
  repo: BGE_SMALL_EN_V15.repo,
  revision: BGE_SMALL_EN_V15.revision,
  files: BGE_SMALL_EN_V15.files,
  dimensions: BGE_SMALL_EN_V15.dimensions + USE_MULTILINGUAL_3.dimensions,
  pooling: 'cls',
  maxTokens: 256,
  queryPrefix: BGE_SMALL_EN_V15.queryPrefix!,
  calibration: { floor: 0.31, certain: 0.5 },
  companions: [{ ...USE_MULTILINGUAL_3, weight: 0.5 }],
};

/**
 * all-MiniLM-L6-v2, bge-small-en-v1.5 and USE multilingual joined (shares 0.25, 0.15, 0.6;
 * decision 0020): bge's English retrieval without losing MiniLM's level below which nothing matches.
 */
export const MINILM_BGE_USE_MULTILINGUAL: LocalModelSpec = {
  ...ALL_MINILM_L6_V2,
  id: 'minilm-bge-usem3-q8',
  dimensions: ALL_MINILM_L6_V2.dimensions + BGE_SMALL_EN_V15.dimensions + USE_MULTILINGUAL_3.dimensions,
  // What matches is decided by the joined cosine, its order by bge's part centred (decision 0022).
  calibration: {
    floor: 0.17,
    certain: 0.45,
    ranking: {
      parts: [
        { dimensions: ALL_MINILM_L6_V2.dimensions, weight: 0.2 },
        { dimensions: BGE_SMALL_EN_V15.dimensions, weight: 0.2, centre: BGE_SMALL_EN_V15_CENTRE },
        { dimensions: USE_MULTILINGUAL_3.dimensions, weight: 0.6 },
      ],
      floor: 0.131,
      certain: 0.449,
    },
  },
  companions: [BGE_SMALL_EN_V15, USE_MULTILINGUAL_3],
};

export const LOCAL_MODELS: Record<string, LocalModelSpec> = {
  'all-minilm-l6-v2': ALL_MINILM_L6_V2,
  'minilm-use-multilingual': MINILM_USE_MULTILINGUAL,
  'minilm-bge-use-multilingual': MINILM_BGE_USE_MULTILINGUAL,
};

/** Models the benchmarks can measure through the server's own pipeline (BENCH_MODEL) besides those. */
export const CANDIDATE_MODELS: Record<string, LocalModelSpec> = {
  'bge-use-multilingual': BGE_USE_MULTILINGUAL,
};

/** How a companion reads a text: a transformer's pooling and window default to the first model's reading. */
export function companionReading(
  spec: LocalModelSpec,
  companion: CompanionModelSpec,
): { pooling: 'mean' | 'cls'; maxTokens: number; queryPrefix?: string } {
  return {
    pooling: companion.pooling ?? 'mean',
    maxTokens: companion.maxTokens ?? spec.maxTokens,
    ...(companion.queryPrefix && { queryPrefix: companion.queryPrefix }),
  };
}

/** Every folder a model needs: its own and its companions'. */
export function modelFolders(spec: LocalModelSpec): ModelFolderSpec[] {
  return [spec, ...(spec.companions ?? [])];
}
