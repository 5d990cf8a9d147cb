import type { Calibration, Embedder, EmbedPurpose } from './embedder.js';
import { companionReading, type LocalModelSpec } from './local-models.js';

/** One model's unit vector inside a joined vector: what reads it, where it sits, its share. */
interface Part {
  key: string;
  at: number;
  dims: number;
  share: number;
}

/** The parts of a model's joined vector (decisions 0019, 0020), in order. */
function layout(spec: LocalModelSpec): Part[] {
  const companions = spec.companions ?? [];
  const ownDims = spec.dimensions - companions.reduce((n, c) => n + c.dimensions, 0);
  const own = { key: readerKey(spec.repo, spec.pooling, spec.maxTokens, spec.queryPrefix), dims: ownDims };
  const others = companions.map((c) => {
    const { pooling, maxTokens, queryPrefix } = companionReading(spec, c);
    // USE multilingual reads every text one way: its repository says it all.
    const key = c.kind === 'use-multilingual' ? c.repo : readerKey(c.repo, pooling, maxTokens, queryPrefix);
    return { key, dims: c.dimensions };
  });
  const shares = [1 - companions.reduce((n, c) => n + c.weight, 0), ...companions.map((c) => c.weight)];
  let at = 0;
  return [own, ...others].map((part, i) => {
    const placed = { ...part, at, share: shares[i]! };
    at += part.dims;
    return placed;
  });
}

/** Two parts read a text alike (same model, pooling, window, query instruction): same vector. */
function readerKey(repo: string, pooling: string, maxTokens: number, queryPrefix?: string): string {
  return JSON.stringify([repo, pooling, maxTokens, queryPrefix ?? '']);
}

/** Whether every part of `target`'s vector is a part of `source`'s, read alike. */
export function derivable(source: LocalModelSpec, target: LocalModelSpec): boolean {
  const have = new Set(layout(source).map((p) => p.key));
  return source.id !== target.id && layout(target).every((p) => have.has(p.key));
}

/**
 * Another offline model's vectors taken from the running model's, without loading it: a model
 * whose parts the running one also joins (MiniLM + USE multilingual inside MiniLM + bge + USE
 * multilingual) gets each part's unit vector rescaled to its own share. So while a re-embedding run
 * moves the links to the running model, a query still finds the links not yet moved by meaning.
 */
export class DerivedEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  readonly calibration: Calibration;
  private readonly sourceId: string;
  private readonly parts: { from: Part; to: Part }[];

  constructor(
    private readonly source: Embedder,
    sourceSpec: LocalModelSpec,
    target: LocalModelSpec,
  ) {
    if (!derivable(sourceSpec, target)) throw new Error(`${target.id} is not made of ${sourceSpec.id}'s parts`);
    this.modelId = target.id;
    this.dimensions = target.dimensions;
    this.calibration = target.calibration;
    this.sourceId = sourceSpec.id;
    const from = new Map(layout(sourceSpec).map((p) => [p.key, p]));
    this.parts = layout(target).map((to) => ({ from: from.get(to.key)!, to }));
  }

  async embed(texts: string[], purpose?: EmbedPurpose): Promise<Float32Array[]> {
    // The running model may still be its fallback (USE-lite) while its folder is checked.
    if (this.source.modelId !== this.sourceId) throw new Error(`${this.sourceId} is not loaded yet`);
    const vectors = await this.source.embed(texts, purpose);
    return vectors.map((v) => {
      const out = new Float32Array(this.dimensions);
      for (const { from, to } of this.parts) {
        const scale = Math.sqrt(to.share / from.share);
        for (let k = 0; k < to.dims; k++) out[to.at + k] = v[from.at + k]! * scale;
      }
      return out;
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
