import { tagKey, type SearchQuery, type SearchResponse, type SearchResult } from '@linkwise/contract';
import type { LinkRow } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { DEFAULT_CALIBRATION, type Calibration, type Embedder } from '../ml/embedder.js';
import type { BillingService } from '../billing/billing.service.js';
import { searchModeFor } from '../billing/entitlements.js';
import { isWithinCutoff, type Cutoff, type HydratedLink, type LinkRepository } from '../links/link.repository.js';
import { toLink } from '../links/link.service.js';
import { combine, textFirst, type Fused } from './fusion.js';
import { onModelScale, rankingParts, rankingScore } from './ranking.js';
import type { SearchRepository } from './search.repository.js';
import { searchTerms, type Term } from '../search-index/text-query.js';
import { allowedEdits, closeTerms } from './typo.js';
import { buildVectors, topOf, type UserVectors, type VectorCache } from './vector-index.js';

export interface SearchDeps {
  search: SearchRepository;
  links: LinkRepository;
  billing: BillingService;
  /** The model that embedded the links; null when none is configured (text search only). */
  embedder: Embedder | null;
  /**
   * The models whose vectors search reads, each embedding its own query vector (decision 0018: the
   * deployment's target and, until a re-embedding run into it finishes, the previous model). Default:
   * `embedder` alone.
   */
  queryModels?: () => Promise<Embedder[]>;
  vectors: VectorCache;
  warn: (context: object, message: string) => void;
}

/** Candidates taken from each ranking before fusion: a default page and some overlap; a larger page takes its size. */
const CANDIDATES = 100;
/** USE-lite's floor (its calibration), kept for the search benchmark's vector scans. */
export const MIN_COSINE = DEFAULT_CALIBRATION.floor;

/**
 * Up to this many version moves a cached matrix is patched from the changed links; beyond, the user's
 * vectors are loaded again (one move is one changed link: a tenth of the rows costs about as much
 * to look up one by one as to read all of them in one scan).
 */
export const patchLimit = (rows: number): number => Math.max(16, Math.floor(rows / 10));

/**
 * Brings a user's matrix to `version`. A cached one (`stale`) that is behind re-reads only the
 * links whose vector changed since (the version's log) and patches itself in place, unless the
 * changes are many (`patchLimit`) or the log no longer holds them all; then every vector is read.
 */
export async function loadUserVectors(
  search: SearchRepository,
  userId: string,
  model: string,
  dims: number,
  version: number,
  stale: UserVectors | null,
): Promise<UserVectors> {
  if (stale && stale.model === model && stale.dims === dims && version - stale.version <= patchLimit(stale.live)) {
    const changes = await search.vectorChanges(userId, model, stale.version, version);
    if (changes) {
      stale.patch(changes, version);
      return stale;
    }
  }
  return buildVectors(version, model, dims, await search.vectors(userId, model));
}

type Sortable = HydratedLink & { fused: Fused };

/** Newest first: the tie-break of every order (spec §4). */
const newest = (a: LinkRow, b: LinkRow) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function compare(sortBy: SearchQuery['sortBy'], order: 'asc' | 'desc'): (a: Sortable, b: Sortable) => number {
  const dir = order === 'asc' ? 1 : -1;
  const by =
    (key: (r: LinkRow) => number | string) =>
    (a: Sortable, b: Sortable): number => {
      const x = key(a.row);
      const y = key(b.row);
      return (x < y ? -dir : x > y ? dir : 0) || newest(a.row, b.row);
    };
  switch (sortBy) {
    case 'relevance':
      return (a, b) => b.fused.similarity - a.fused.similarity || textFirst(a.fused, b.fused) || newest(a.row, b.row);
    case 'createdAt':
      return (a, b) => dir * (a.row.created_at - b.row.created_at) || dir * -newest(a.row, b.row);
    case 'updatedAt':
      return by((r) => r.updated_at);
    case 'title':
      return by((r) => r.title_key);
    case 'isRead':
      return by((r) => r.is_read);
    case 'isReadLater':
      return by((r) => r.is_read_later);
  }
}

/**
 * Search: `#tag` finds that tag exactly; anything else runs full-text search and, on plans entitled
 * to it, nearest-neighbour search over the link vectors, combined by confidence (`combine`).
 */
export class SearchService {
  constructor(private readonly deps: SearchDeps) {}

  /** Searches the actor's viewable links. */
  async search(actor: Actor, query: SearchQuery): Promise<SearchResponse> {
    const { links, billing } = this.deps;
    const linkLimit = billing.linkLimitOf(actor);
    const cutoff = linkLimit === null ? null : await links.cutoff(actor.userId, linkLimit);
    const { fused, reindexing } = query.query.startsWith('#')
      ? { fused: await this.byTag(actor.userId, cutoff, query), reindexing: undefined }
      : await this.byText(actor, cutoff, query);
    const top = fused.slice(0, query.limit);
    const byId = new Map(top.map((f) => [f.id, f]));
    // Rows are read again with the visibility rule: a link deleted or hidden since the ranking drops out.
    const rows = await this.deps.links.findVisible(actor.userId, cutoff, [...byId.keys()]);
    const items: Sortable[] = (await links.hydrate(rows)).map((h) => ({ ...h, fused: byId.get(h.row.id)! }));
    items.sort(compare(query.sortBy, query.sortOrder));
    const data: SearchResult[] = items.map((item) => ({
      ...toLink(item),
      similarity: Math.round(item.fused.similarity * 1e4) / 1e4,
      match_type: query.query.startsWith('#') ? 'tag' : item.fused.inText ? 'text' : 'semantic',
    }));
    return { data, total: data.length, ...(reindexing && { reindexing }) };
  }

  private async byTag(userId: string, cutoff: Cutoff | null, query: SearchQuery): Promise<Fused[]> {
    const key = tagKey(query.query);
    if (!key) return [];
    const ids = await this.deps.search.tagHits(userId, key, cutoff, query.limit);
    return ids.map((id) => ({ id, similarity: 1, inText: true, inVectors: false }));
  }

  private async byText(
    actor: Actor,
    cutoff: Cutoff | null,
    query: SearchQuery,
  ): Promise<{ fused: Fused[]; reindexing: SearchResponse['reindexing'] }> {
    const { search, billing, embedder, queryModels } = this.deps;
    const hybrid = embedder !== null && searchModeFor(billing.subscriptionOf(actor), billing.mode) === 'hybrid';
    const models = !hybrid ? [] : queryModels ? await queryModels() : [embedder];
    // Each model's vectors with a query vector of that model, rescaled by its own calibration: during
    // a re-embedding run a link has a vector of either model, and every link stays found by meaning.
    const perModel = await Promise.all(
      models.map(async (model, i) => {
        const vectors = await this.userVectors(actor.userId, model, i === 0);
        // The query embedding runs in the model's worker while the text search runs here.
        const queryVector = vectors.ids.length > 0 ? this.embedQuery(model, query.query) : null;
        // Read with the vectors: the model in use may change while a download finishes.
        return { vectors, queryVector, calibration: model.calibration ?? DEFAULT_CALIBRATION };
      }),
    );
    const terms = searchTerms(query.query);
    const candidates = Math.max(CANDIDATES, query.limit);
    // Each model's scores of every row, kept for a second look at the text hits (`unrelated`).
    const scanned: (Float32Array | undefined)[] = [];
    // Whether the model read any meaning into the query (a query of unknown words gets zeros).
    const meaningful: boolean[] = [];
    // On PostgreSQL the vector scan (this thread) runs while the database answers the text search.
    const [firstText, vector] = await Promise.all([
      search.textHits(actor.userId, terms, cutoff, candidates, actor.linkCount),
      Promise.all(
        perModel.map(({ vectors, queryVector, calibration }, i) =>
          queryVector
            ? queryVector.then((q) => {
                const found = this.nearest(vectors, q, cutoff, calibration, candidates);
                scanned[i] = found.scores;
                meaningful[i] = q?.some((x) => x !== 0) ?? false;
                return found.hits.map((hit) => ({ ...hit, calibration }));
              })
            : Promise.resolve([]),
        ),
      ),
    ]);
    const calibration = perModel[0]?.calibration ?? embedder?.calibration ?? DEFAULT_CALIBRATION;
    let text = firstText;
    if (text.length === 0) {
      // Close spellings are a guess that the model can check when it read meaning into the query:
      // a page it places below its floor was found by other words ("medieval" as "media").
      const guessed = await this.typoHits(actor, terms, cutoff, candidates);
      const below = meaningful[0] ? unrelated(guessed, perModel[0]?.vectors, scanned[0], calibration) : null;
      text = below ? guessed.filter((id) => !below.has(id)) : guessed;
    }
    const last = terms.at(-1);
    if (last?.prefix && meaningful[0] && text.length > 0 && firstText === text) {
      // The last word is also matched as the start of longer words (people search while they type),
      // another guess the model can check: "cooking" must not find cookie banners. Hits the model
      // places below its floor stay only if they hold the whole word.
      const below = unrelated(text, perModel[0]?.vectors, scanned[0], calibration);
      if (below && below.size > 0) {
        const whole = terms.map((t) => ({ ...t, prefix: false }));
        const exact = new Set(await search.textHits(actor.userId, whole, cutoff, candidates, actor.linkCount));
        text = text.filter((id) => !below.has(id) || exact.has(id));
      }
    }
    const scattered =
      terms.length >= SCATTERED_WORDS ? unrelated(text, perModel[0]?.vectors, scanned[0], calibration) : null;
    // Two models while a run re-embeds links into the first: how far it got with this user's links.
    const done = Math.min(perModel[0]?.vectors.ids.length ?? 0, actor.linkCount);
    const reindexing = perModel.length > 1 && done < actor.linkCount ? { done, total: actor.linkCount } : undefined;
    return { fused: combine(text, vector.flat(), calibration, scattered ?? undefined), reindexing };
  }

  /**
   * Retries a search that found nothing with close spellings of its words, taken from the words
   * the user's links are indexed under (`SearchRepository.spellings`).
   */
  private async typoHits(actor: Actor, terms: Term[], cutoff: Cutoff | null, candidates: number): Promise<string[]> {
    const { search } = this.deps;
    if (terms.length === 0) return [];
    const initials = [...new Set(terms.filter((t) => allowedEdits(t.word) > 0).map((t) => t.word.slice(0, 1)))];
    const known = await search.spellings(actor.userId, initials, actor.linkCount);
    // A word the library holds as it is is spelled right; the search found nothing because no link
    // has every word, and "correcting" it ("singer" to "sit", "nobel" to "not") would match by accident.
    const indexed = new Set(known);
    const corrected = terms.map((t) => ({ ...t, alternatives: indexed.has(t.word) ? [] : closeTerms(t.word, known) }));
    if (corrected.every((t) => t.alternatives.length === 0)) return [];
    return search.textHits(actor.userId, corrected, cutoff, candidates, actor.linkCount);
  }

  /**
   * The user's matrix of one model at the current version (see `loadUserVectors`). The first model's
   * is cached under the user's id, another's (the previous model, during a run) beside it.
   */
  private userVectors(userId: string, embedder: Embedder, first: boolean): Promise<UserVectors> {
    const { search, vectors } = this.deps;
    const { modelId, dimensions } = embedder;
    return search
      .version(userId)
      .then((version) =>
        vectors.get(first ? userId : `${userId}\u0000${modelId}`, version, modelId, (stale) =>
          loadUserVectors(search, userId, modelId, dimensions, version, stale),
        ),
      );
  }

  /** The query's vector, or null when the model fails: search then answers from text alone. */
  private async embedQuery(embedder: Embedder, text: string): Promise<Float32Array | null> {
    try {
      const [vector] = await embedder.embed([text], 'query');
      // Embedder.embed returns unit-length vectors (its contract): used as they come.
      return vector && vector.length === embedder.dimensions ? vector : null;
    } catch (error) {
      this.deps.warn({ err: error }, 'query embedding failed; answering from text search');
      return null;
    }
  }

  /**
   * Neighbours at or above the model's floor (below it a neighbour is noise, and a query that means
   * nothing finds none), and a copy of every row's score: the matrix reuses its scores array.
   */
  private nearest(
    vectors: UserVectors,
    query: Float32Array | null,
    cutoff: Cutoff | null,
    calibration: Calibration,
    candidates: number,
  ): { hits: { id: string; cosine: number }[]; scores?: Float32Array } {
    if (!query || vectors.ids.length === 0) return { hits: [] };
    const accept = cutoff
      ? (i: number) => isWithinCutoff(cutoff, vectors.createdAt[i] ?? 0, vectors.ids[i] ?? '')
      : undefined;
    const scores = vectors.scores(query).slice();
    const { ranking } = calibration;
    // The cosine decides what matches; a model with a ranking orders what it let through (decision 0022).
    const parts = ranking && rankingParts(query, ranking);
    const hits = topOf(vectors, scores, candidates, calibration.floor, accept).map((h) => ({
      id: vectors.ids[h.index] ?? '',
      cosine:
        ranking && parts
          ? onModelScale(rankingScore(parts, vectors.row(h.index), ranking), calibration, ranking)
          : h.score,
    }));
    return { hits, scores };
  }
}

/** From this many words a query's text hits are checked against their meaning (`unrelated`). */
const SCATTERED_WORDS = 3;

/**
 * The text hits whose own vector is below the model's floor for the query: every word is on the
 * page, but the page is not about them (words scattered through a long text). Links without a
 * vector (analysis pending) are never among them.
 */
function unrelated(
  text: string[],
  vectors: UserVectors | undefined,
  scores: Float32Array | undefined,
  calibration: Calibration,
): Set<string> | null {
  if (!vectors || !scores || text.length === 0) return null;
  const below = new Set<string>();
  for (const id of text) {
    const row = vectors.rowOf(id);
    if (row !== undefined && (scores[row] ?? 0) < calibration.floor) below.add(id);
  }
  return below;
}
