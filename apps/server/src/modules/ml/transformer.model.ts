import { AutoModel, AutoTokenizer, env, mean_pooling, type Tensor } from '@huggingface/transformers';
import { UseMultilingualModel } from './use-multilingual.model.js';

interface OwnModelOptions {
  repo: string;
  pooling: 'mean' | 'cls';
  maxTokens: number;
  /** Put before a query's text for this model only (its companions read the query as typed). */
  queryPrefix?: string;
}

export interface TransformerModelOptions extends OwnModelOptions {
  modelsDir: string;
  threads: number;
  /** Models whose vectors are appended (decisions 0019, 0020): each one's size and share of the cosine. */
  companions?: (OwnModelOptions & { kind: 'use-multilingual' | 'transformer'; weight: number; dimensions: number })[];
}

/** What a companion model does: unit vectors, and whether it knows a word. */
interface Companion {
  knowsWord(word: string): boolean;
  unitVectors(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]>;
}

/**
 * A sentence-embedding transformer on onnxruntime-node (int8 ONNX), read from MODELS_DIR only:
 * the files were checked against their pins before this thread started, so no download happens here.
 */
export class TransformerModel implements Companion {
  private vocab: Map<string, number> | undefined;

  private constructor(
    private readonly tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>,
    private readonly model: Awaited<ReturnType<typeof AutoModel.from_pretrained>>,
    private readonly options: TransformerModelOptions,
    private readonly companions: Companion[],
  ) {}

  static async load(options: TransformerModelOptions): Promise<TransformerModel> {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = options.modelsDir.endsWith('/') ? options.modelsDir : `${options.modelsDir}/`;
    env.useFSCache = false;
    const tokenizer = await AutoTokenizer.from_pretrained(options.repo);
    const model = await AutoModel.from_pretrained(options.repo, {
      dtype: 'q8',
      device: 'cpu',
      // Without the CPU arena onnxruntime returns each batch's activations instead of keeping the
      // largest batch's high-water mark for the life of the process (bench/RESULTS.md: RSS).
      session_options: {
        intraOpNumThreads: options.threads,
        interOpNumThreads: 1,
        enableCpuMemArena: process.env.MODEL_CPU_ARENA === 'true',
      },
    });
    const companions: Companion[] = [];
    for (const c of options.companions ?? []) {
      if (c.kind === 'use-multilingual') {
        const use = await UseMultilingualModel.load(options.modelsDir, c.repo, options.threads);
        companions.push({ knowsWord: (w) => use.knowsWord(w), unitVectors: (texts) => use.embed(texts) });
      } else {
        const { modelsDir, threads } = options;
        companions.push(await TransformerModel.load({ ...c, modelsDir, threads, companions: [] }));
      }
    }
    return new TransformerModel(tokenizer, model, options, companions);
  }

  /** Whether a word is a whole token of the model's vocabulary. */
  knowsWord(word: string): boolean {
    this.vocab ??= this.tokenizer.get_vocab();
    return this.vocab.has(word);
  }

  /** This model's own vectors, unit length (a companion of another model). */
  async unitVectors(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]> {
    return (await this.embedOwn(texts, purpose)).map((v) => scale(v, 1 / (Math.hypot(...v) || 1)));
  }

  /**
   * Whether the model knows any word of a query as a whole token of its vocabulary. A query made
   * only of word pieces ("xyzzyqwerty") carries no meaning the model learned, yet its vector still
   * lands near some page: it gets a zero vector instead, which matches nothing.
   */
  knowsAWord(text: string): boolean {
    const words = text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
    return words.some((w) => this.knowsWord(w) || this.companions.some((c) => c.knowsWord(w)));
  }

  /** One vector per text (not yet unit length); texts must be non-empty. Unknown queries: zeros. */
  async embed(texts: string[], purpose: 'document' | 'query' = 'document'): Promise<Float32Array[]> {
    if (purpose === 'query') {
      const known = texts.map((t) => this.knowsAWord(t));
      if (!known.every(Boolean)) {
        const vectors = known.some(Boolean)
          ? await this.embed(
              texts.filter((_, i) => known[i]),
              'query',
            )
          : [];
        const size = this.hiddenSize + (this.options.companions ?? []).reduce((n, c) => n + c.dimensions, 0);
        let next = 0;
        return known.map((k) => (k ? vectors[next++]! : new Float32Array(size)));
      }
    }
    if (this.companions.length === 0) return this.embedOwn(texts, purpose);
    // Every part unit length, scaled by the square root of its share: the joined cosine is the
    // sum of each model's cosine times its share.
    const shares = (this.options.companions ?? []).map((c) => c.weight);
    const parts = [await this.unitVectors(texts, purpose)];
    for (const companion of this.companions) parts.push(await companion.unitVectors(texts, purpose));
    const weights = [1 - shares.reduce((a, b) => a + b, 0), ...shares].map(Math.sqrt);
    return texts.map((_, i) => {
      const out = new Float32Array(parts.reduce((n, p) => n + p[i]!.length, 0));
      let at = 0;
      parts.forEach((p, k) => {
        out.set(scale(p[i]!, weights[k]!), at);
        at += p[i]!.length;
      });
      return out;
    });
  }

  private get hiddenSize(): number {
    return (this.model.config as unknown as { hidden_size: number }).hidden_size;
  }

  private async embedOwn(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]> {
    const prefix = purpose === 'query' ? this.options.queryPrefix : undefined;
    const inputs = this.tokenizer(prefix ? texts.map((t) => prefix + t) : texts, {
      padding: true,
      truncation: true,
      max_length: this.options.maxTokens,
    });
    const output = (await this.model(inputs)) as { last_hidden_state: Tensor };
    const hidden = output.last_hidden_state;
    const pooled =
      this.options.pooling === 'mean' ? mean_pooling(hidden, inputs.attention_mask) : hidden.slice(null, 0, null);
    const [rows, dims] = pooled.dims as [number, number];
    const data = pooled.data as Float32Array;
    const out = Array.from({ length: rows }, (_, r) => data.slice(r * dims, (r + 1) * dims));
    hidden.dispose();
    pooled.dispose();
    return out;
  }
}

function scale(v: Float32Array, by: number): Float32Array {
  for (let i = 0; i < v.length; i++) v[i]! *= by;
  return v;
}
