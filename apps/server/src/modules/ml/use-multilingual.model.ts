import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';

/**
 * USE multilingual v3 on onnxruntime-node: the graph `scripts/provision-model.py` cut after its
 * SentencePiece operator (which onnxruntime-node lacks), fed with the same token ids from
 * tokenizer.json (BOS and EOS added) as flat ids plus row splits, its ragged-tensor input.
 */
export class UseMultilingualModel {
  private vocab: Map<string, number> | undefined;

  private constructor(
    private readonly tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>,
    private readonly session: ort.InferenceSession,
    private readonly inputs: { ids: string; splits: string; output: string },
  ) {}

  /** `env.localModelPath` is already MODELS_DIR (the transformer model set it). */
  static async load(modelsDir: string, repo: string, threads: number): Promise<UseMultilingualModel> {
    const folder = path.join(modelsDir, ...repo.split('/'));
    const tokenizer = await AutoTokenizer.from_pretrained(repo);
    const session = await ort.InferenceSession.create(path.join(folder, 'onnx/model_quantized.onnx'), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      enableCpuMemArena: process.env.MODEL_CPU_ARENA === 'true',
    });
    const [ids, splits] = session.inputNames;
    const [output] = session.outputNames;
    if (!ids || !splits || !output) throw new Error(`${folder}: not the cut USE multilingual graph`);
    return new UseMultilingualModel(tokenizer, session, { ids, splits, output });
  }

  /** Whether a word is a whole piece of its vocabulary (as `▁word`), in any of its languages. */
  knowsWord(word: string): boolean {
    this.vocab ??= this.tokenizer.get_vocab();
    return this.vocab.has(`▁${word}`);
  }

  /** One unit vector per text. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.tokenizer.encode(t));
    const ids = Int32Array.from(encoded.flat());
    const splits = new BigInt64Array(encoded.length + 1);
    encoded.forEach((e, i) => (splits[i + 1] = splits[i]! + BigInt(e.length)));
    const result = await this.session.run({
      [this.inputs.ids]: new ort.Tensor('int32', ids, [ids.length]),
      [this.inputs.splits]: new ort.Tensor('int64', splits, [splits.length]),
    });
    const tensor = result[this.inputs.output]!;
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
