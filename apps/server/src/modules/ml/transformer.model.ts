import { AutoModel, AutoTokenizer, env, mean_pooling, type Tensor } from '@huggingface/transformers';
import { UseMultilingualModel } from './use-multilingual.model.js';

export interface TransformerModelOptions {
  modelsDir: string;
  repo: string;
  pooling: 'mean' | 'cls';
  maxTokens: number;
  /** Put before a query's text for this model only (the companion reads the query as typed). */
  queryPrefix?: string;
  threads: number;
  /** A model whose vector is appended (decision 0019): its size and share of the combined cosine. */
  companion?: { repo: string; weight: number; dimensions: number };
}

/**
 * A sentence-embedding transformer on onnxruntime-node (int8 ONNX), read from MODELS_DIR only:
 * the files were checked against their pins before this thread started, so no download happens here.
 */
export class TransformerModel {
  private vocab: Map<string, number> | undefined;

  private constructor(
    private readonly tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>,
    private readonly model: Awaited<ReturnType<typeof AutoModel.from_pretrained>>,
    private readonly options: TransformerModelOptions,
    private readonly companion: UseMultilingualModel | null,
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
    const companion = options.companion
      ? await UseMultilingualModel.load(options.modelsDir, options.companion.repo, options.threads)
      : null;
    return new TransformerModel(tokenizer, model, options, companion);
  }

  /**
   * Whether the model knows any word of a query as a whole token of its vocabulary. A query made
   * only of word pieces ("xyzzyqwerty") carries no meaning the model learned, yet its vector still
   * lands near some page: it gets a zero vector instead, which matches nothing.
   */
  knowsAWord(text: string): boolean {
    this.vocab ??= this.tokenizer.get_vocab();
    const vocab = this.vocab;
    const words = text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
    return words.some((w) => vocab.has(w) || this.companion?.knowsWord(w));
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
        const size = this.hiddenSize + (this.options.companion?.dimensions ?? 0);
        let next = 0;
        return known.map((k) => (k ? vectors[next++]! : new Float32Array(size)));
      }
    }
    const { companion } = this;
    const prefix = purpose === 'query' ? this.options.queryPrefix : undefined;
    const own = await this.embedOwn(prefix ? texts.map((t) => prefix + t) : texts);
    if (!companion) return own;
    // Both unit length, scaled by the square roots of their shares: the combined cosine is the
    // weighted sum of the two models' cosines.
    const share = this.options.companion?.weight ?? 0;
    const theirs = await companion.embed(texts);
    return own.map((v, i) => {
      const other = theirs[i]!;
      const out = new Float32Array(v.length + other.length);
      const a = Math.sqrt(1 - share) / (Math.hypot(...v) || 1);
      const b = Math.sqrt(share);
      for (let k = 0; k < v.length; k++) out[k] = v[k]! * a;
      for (let k = 0; k < other.length; k++) out[v.length + k] = other[k]! * b;
      return out;
    });
  }

  private get hiddenSize(): number {
    return (this.model.config as unknown as { hidden_size: number }).hidden_size;
  }

  private async embedOwn(texts: string[]): Promise<Float32Array[]> {
    const inputs = this.tokenizer(texts, { padding: true, truncation: true, max_length: this.options.maxTokens });
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
