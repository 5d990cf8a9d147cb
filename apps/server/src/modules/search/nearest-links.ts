import type { SearchRepository } from './search.repository.js';
import { loadUserVectors } from './search.service.js';
import { topK, type VectorCache } from './vector-index.js';

/**
 * A user's links nearest to a vector, from the same per-user matrix search uses (kept up to date
 * from the changed vectors, LRU by bytes): exact cosine over every row in memory, no scan in SQL.
 * The category model asks it for the user's history (decision 0015).
 */
export class NearestLinks {
  constructor(
    private readonly search: SearchRepository,
    private readonly vectors: VectorCache,
  ) {}

  /** At most `k` links of `userId` with a vector of `model`, closest first, leaving out `except`. */
  async nearest(
    userId: string,
    model: string,
    vector: Float32Array,
    k: number,
    except?: string,
  ): Promise<{ id: string; cosine: number }[]> {
    const version = await this.search.version(userId);
    const dims = vector.length;
    const matrix = await this.vectors.get(userId, version, model, (stale) =>
      loadUserVectors(this.search, userId, model, dims, version, stale),
    );
    if (matrix.dims !== dims) return [];
    const accept = except ? (i: number) => matrix.ids[i] !== except : undefined;
    return topK(matrix, vector, k, -1, accept).map((h) => ({ id: matrix.ids[h.index] ?? '', cosine: h.score }));
  }
}
