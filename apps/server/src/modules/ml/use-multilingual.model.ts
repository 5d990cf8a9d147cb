import path from 'node:path';
import { SentencePieceProcessor } from '@agnai/sentencepiece-js';
import * as ort from 'onnxruntime-node';
import { modelFolder } from './model-files.js';
import { openModelSession } from './onnx-session.js';

/** The ids the graph's own tokenizer put around every text (checked by `scripts/provision-model.py`). */
const BOS = 1;
const EOS = 2;

/**
 * USE multilingual v3 on onnxruntime-node: the graph `scripts/provision-model.py` cut after its
 * SentencePiece operator (which onnxruntime-node lacks), fed with the same token ids from
 * SentencePiece itself (compiled to WebAssembly: a fraction of the memory of a JS tokenizer of its
 * 128k pieces) as flat ids plus row splits, its ragged-tensor input.
 */
export class UseMultilingualModel {
  private constructor(
    private readonly tokenizer: SentencePieceProcessor,
    private readonly session: ort.InferenceSession,
    private readonly names: { ids: string; splits: string; output: string },
  ) {}

  static async load(modelsDir: string, repo: string, threads: number): Promise<UseMultilingualModel> {
    const folder = modelFolder(modelsDir, { repo });
    const tokenizer = new SentencePieceProcessor();
    await tokenizer.load(path.join(folder, 'sentencepiece.model'));
    const session = await openModelSession(folder, threads);
    const [ids, splits] = session.inputNames;
    const [output] = session.outputNames;
    if (!ids || !splits || !output) throw new Error(`${folder}: not the cut USE multilingual graph`);
    return new UseMultilingualModel(tokenizer, session, { ids, splits, output });
  }

  /** Whether a word is one piece of the vocabulary (a word it learned, in any of its languages). */
  knowsWord(word: string): boolean {
    return this.tokenizer.encodePieces(word).filter((p) => p !== '▁').length === 1;
  }

  /** One unit vector per text. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => [BOS, ...this.tokenizer.encodeIds(t), EOS]);
    const ids = Int32Array.from(encoded.flat());
    const splits = new BigInt64Array(encoded.length + 1);
    encoded.forEach((e, i) => (splits[i + 1] = splits[i]! + BigInt(e.length)));
    const result = await this.session.run({
      [this.names.ids]: new ort.Tensor('int32', ids, [ids.length]),
      [this.names.splits]: new ort.Tensor('int64', splits, [splits.length]),
    });
    const tensor = result[this.names.output]!;
    const [rows, dims] = tensor.dims as [number, number];
    const data = tensor.data as Float32Array;
    const out = Array.from({ length: rows }, (_, r) => unit(data.slice(r * dims, (r + 1) * dims)));
    tensor.dispose();
    return out;
  }
}

function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
