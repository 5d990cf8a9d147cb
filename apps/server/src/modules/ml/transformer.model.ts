import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { modelFolder } from './model-files.js';
import { openModelSession } from './onnx-session.js';
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

/** The part of `@huggingface/tokenizers` used here (its published types do not resolve under NodeNext). */
interface TextTokenizer {
  encode(text: string): { ids: number[] };
  token_to_id(token: string): number | undefined;
  get_vocab(): Map<string, number>;
}
const TextTokenizer = Tokenizer as unknown as new (json: object, config: object) => TextTokenizer;

/** What a companion model does: unit vectors, and whether it knows a word. */
interface Companion {
  knowsWord(word: string): boolean;
  unitVectors(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]>;
}

/**
 * A sentence-embedding transformer on onnxruntime-node (int8 ONNX), read from MODELS_DIR only:
 * the files were checked against their pins before this thread started, so no download happens here.
 * The tokenizer is the one `@huggingface/transformers` runs (`@huggingface/tokenizers`), fed to the
 * session the way that library does; the session reads its file itself, so no copy of the weights
 * passes through the JavaScript heap and the image library the full package imports is never
 * loaded (decision 0023).
 */
export class TransformerModel implements Companion {
  private vocab: Map<string, number> | undefined;

  private constructor(
    private readonly tokenizer: TextTokenizer,
    private readonly tokens: { pad: number; maxLength: number },
    private readonly session: ort.InferenceSession,
    private readonly options: TransformerModelOptions,
    private readonly hiddenSize: number,
    private readonly companions: Companion[],
    private readonly settle: () => void,
  ) {}

  /**
   * `settle` runs after each model's session opens and between the models of a batch of pages: the
   * thread hands freed memory back there, so one model's garbage is not held while the next one runs.
   */
  static async load(options: TransformerModelOptions, settle: () => void = () => {}): Promise<TransformerModel> {
    const folder = modelFolder(options.modelsDir, options);
    const json = async (file: string): Promise<Record<string, unknown>> =>
      JSON.parse(await readFile(path.join(folder, file), 'utf8')) as Record<string, unknown>;
    const [tokenizerJson, tokenizerConfig, config] = await Promise.all([
      json('tokenizer.json'),
      json('tokenizer_config.json'),
      json('config.json'),
    ]);
    const tokenizer = new TextTokenizer(tokenizerJson, tokenizerConfig);
    const pad = tokenizer.token_to_id(
      typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]',
    );
    const hiddenSize = config.hidden_size;
    if (pad === undefined || typeof hiddenSize !== 'number') throw new Error(`${folder}: no pad token or hidden size`);
    const maxLength =
      typeof tokenizerConfig.model_max_length === 'number' ? tokenizerConfig.model_max_length : Infinity;
    const session = await openModelSession(folder, options.threads);
    settle();
    const companions: Companion[] = [];
    for (const c of options.companions ?? []) {
      if (c.kind === 'use-multilingual') {
        const use = await UseMultilingualModel.load(options.modelsDir, c.repo, options.threads);
        settle();
        companions.push({ knowsWord: (w) => use.knowsWord(w), unitVectors: (texts) => use.embed(texts) });
      } else {
        const { modelsDir, threads } = options;
        companions.push(await TransformerModel.load({ ...c, modelsDir, threads, companions: [] }, settle));
      }
    }
    return new TransformerModel(tokenizer, { pad, maxLength }, session, options, hiddenSize, companions, settle);
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
    for (const companion of this.companions) {
      // A page's activations are 10–14 MB in each model: handed back before the next model runs, so
      // the thread holds one model's at a time (a query's are small: no delay for searches).
      if (purpose === 'document') this.settle();
      parts.push(await companion.unitVectors(texts, purpose));
    }
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

  /**
   * The token ids the model reads for each text, as `@huggingface/transformers` tokenizes a batch:
   * special tokens added, then cut at the limit (the closing separator goes with the rest).
   */
  tokenIds(texts: string[], purpose: 'document' | 'query'): number[][] {
    const prefix = purpose === 'query' ? (this.options.queryPrefix ?? '') : '';
    const limit = Math.min(this.options.maxTokens, this.tokens.maxLength);
    return texts.map((t) => this.tokenizer.encode(prefix + t).ids.slice(0, limit));
  }

  private async embedOwn(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]> {
    // Padded on the right to the longest, as that library pads a batch.
    const encoded = this.tokenIds(texts, purpose);
    const width = Math.max(...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(texts.length * width).fill(BigInt(this.tokens.pad));
    const mask = new BigInt64Array(texts.length * width);
    encoded.forEach((row, r) =>
      row.forEach((id, c) => {
        ids[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      }),
    );
    const dims = [texts.length, width];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
    };
    if (this.session.inputNames.includes('token_type_ids')) {
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(texts.length * width), dims);
    }
    const result = await this.session.run(feeds);
    const hidden = result.last_hidden_state ?? result[this.session.outputNames[0]!]!;
    const data = hidden.data as Float32Array;
    const size = this.hiddenSize;
    const out = encoded.map((row, r) => {
      const base = r * width * size;
      if (this.options.pooling === 'cls') return data.slice(base, base + size);
      // The mean over the text's own tokens, summed in doubles as that library's mean pooling does.
      const vector = new Float32Array(size);
      for (let k = 0; k < size; k++) {
        let sum = 0;
        for (let j = 0; j < row.length; j++) sum += data[base + j * size + k]!;
        vector[k] = sum / row.length;
      }
      return vector;
    });
    hidden.dispose();
    return out;
  }
}

function scale(v: Float32Array, by: number): Float32Array {
  for (let i = 0; i < v.length; i++) v[i]! *= by;
  return v;
}
