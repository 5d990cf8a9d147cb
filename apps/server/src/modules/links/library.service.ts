import {
  parseTags,
  tagKey,
  Limits,
  TagMessages,
  type BulkRequest,
  type TagMergeSuggestion,
  type TagSummary,
  type TagsResponse,
  type UsageCounts,
} from '@linkwise/contract';
import { notFound, validationError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../../platform/actor.js';
import type { LibraryRepository } from './library.repository.js';
import type { LinkAnalysisService } from './link-analysis.service.js';
import type { LinkRepository } from './link.repository.js';
import type { LinkService } from './link.service.js';
import type { Embedder } from '../ml/embedder.js';
import { MEANING_THRESHOLDS, TagVectorCache } from '../ml/tag-vectors.js';
import { meaningPairs, TAG_MEANING_CAP } from './tag-meaning.js';
import { spellingSuggestions } from './tag-suggestions.js';

export interface LibraryDeps {
  links: LinkRepository;
  /** What a downgrade leaves viewable: hidden links are kept as they are until an upgrade. */
  access: Pick<LinkService, 'cutoffFor' | 'viewableIds' | 'assertViewable'>;
  library: LibraryRepository;
  analyses: LinkAnalysisService;
  clock: Clock;
  /** The offline model tags are compared by meaning with; absent: spelling suggestions only. */
  tagEmbedder?: Embedder | undefined;
}

/** The UTC calendar month a count belongs to. */
export const monthOf = (millis: number): string => new Date(millis).toISOString().slice(0, 7);

/** Managing the library as a whole: tags, categories, several links at once, usage counts. */
export class LibraryService {
  private readonly tagVectors = new TagVectorCache();

  constructor(private readonly deps: LibraryDeps) {}

  /** Applies one action to the actor's links among `ids`; how many were the actor's. */
  async bulk(actor: Actor, request: BulkRequest): Promise<{ affected: number; tagLimited?: number }> {
    const { links, library, clock } = this.deps;
    // Commas split names as everywhere else; the 50-tag cap applies to the split list.
    const names = 'tags' in request ? parseTags(request.tags) : [];
    if ('tags' in request && names.length === 0) throw validationError({ tags: TagMessages.noneNamed });
    if (names.length > Limits.tagsPerLink) throw validationError({ tags: TagMessages.tooMany });
    const chosen = [...new Set(request.ids)];
    // Deleting reaches hidden links too (the data is the user's); every other action leaves them be.
    const unique = request.action === 'delete' ? chosen : await this.deps.access.viewableIds(actor, chosen);
    if (request.action === 'reanalyze') {
      const owned = await library.ownedIds(actor.userId, unique);
      await this.deps.analyses.reanalyzeMany(actor, owned);
      return { affected: owned.length };
    }
    const now = clock.now();
    return links.transaction(async (tx) => {
      await tx.lockUser(actor.userId);
      const repo = library.with(tx.connection);
      const owned = await repo.ownedIds(actor.userId, unique);
      if (owned.length === 0) return { affected: 0 };
      switch (request.action) {
        case 'mark-read':
        case 'mark-unread':
          await repo.setFlags(actor.userId, owned, { is_read: request.action === 'mark-read' ? 1 : 0 }, now);
          break;
        case 'read-later':
        case 'not-read-later':
          await repo.setFlags(actor.userId, owned, { is_read_later: request.action === 'read-later' ? 1 : 0 }, now);
          break;
        case 'set-category':
          await repo.setCategory(actor.userId, owned, request.category, now);
          break;
        case 'add-tags': {
          const { tagged, limited } = await repo.addTags(actor.userId, owned, names, Limits.tagsPerLink, now);
          await repo.touch(actor.userId, owned, now);
          return { affected: tagged, tagLimited: limited };
        }
        case 'remove-tags':
          await repo.removeTags(actor.userId, owned, names);
          await repo.touch(actor.userId, owned, now);
          break;
        case 'delete':
          await repo.deleteLinks(actor.userId, owned);
          break;
        case 'reanalyze':
          break; // queued above, outside this transaction
      }
      return { affected: owned.length };
    });
  }

  /** Tags with counts, the pairs that look like one tag spelled two ways, then those that mean the same. */
  async tags(actor: Actor): Promise<TagsResponse> {
    const data = await this.deps.library.tags(actor.userId, await this.deps.access.cutoffFor(actor));
    // A tag no link carries any more is listed (to be deleted), never offered for a merge.
    const carried = data.filter((t) => t.count > 0);
    const spelling = spellingSuggestions(carried);
    return { data, suggestions: [...spelling, ...(await this.meaningSuggestions(carried, spelling))] };
  }

  /**
   * Tags whose vectors say they mean the same, among the TAG_MEANING_CAP most used (the list comes
   * most used first). A model failure costs only these suggestions, never the tag list.
   */
  private async meaningSuggestions(data: TagSummary[], spelling: TagMergeSuggestion[]): Promise<TagMergeSuggestion[]> {
    const embedder = this.deps.tagEmbedder;
    const threshold = embedder && MEANING_THRESHOLDS[embedder.modelId];
    if (!embedder || threshold === undefined || data.length < 2) return [];
    const considered = data.slice(0, TAG_MEANING_CAP);
    try {
      const vectors = await this.tagVectors.vectors(
        embedder,
        considered.map((t) => t.name),
      );
      if (!vectors) return [];
      return meaningPairs(considered, vectors, threshold, new Set(spelling.map((s) => s.from)));
    } catch {
      return [];
    }
  }

  /** Renames a tag; a name another tag already has merges this one into it. */
  async renameTag(actor: Actor, id: string, name: string): Promise<{ name: string; merged: boolean; links: number }> {
    const { links, library } = this.deps;
    return links.transaction(async (tx) => {
      await tx.lockUser(actor.userId);
      const repo = library.with(tx.connection);
      const tag = await repo.findTag(actor.userId, id);
      if (!tag) throw notFound('Tag');
      const target = await repo.findTagByKey(actor.userId, tagKey(name));
      if (target && target.id !== tag.id) {
        await repo.mergeTag(actor.userId, tag.id, target.id);
        return { name: target.name, merged: true, links: (await repo.linksWithTag(target.id)).length };
      }
      if (tag.name !== name) await repo.renameTag(actor.userId, tag.id, name);
      return { name, merged: false, links: (await repo.linksWithTag(tag.id)).length };
    });
  }

  /** Removes a tag from every link; the links stay. */
  async deleteTag(actor: Actor, id: string): Promise<{ links: number }> {
    const { links, library } = this.deps;
    return links.transaction(async (tx) => {
      const repo = library.with(tx.connection);
      const tag = await repo.findTag(actor.userId, id);
      if (!tag) throw notFound('Tag');
      const count = (await repo.linksWithTag(tag.id)).length;
      await repo.deleteTag(actor.userId, tag.id);
      return { links: count };
    });
  }

  /** Renames a category on every link carrying it (onto an existing one, the two become one). */
  async renameCategory(actor: Actor, from: string, to: string): Promise<{ links: number }> {
    if (from === to) throw validationError({ to: 'Choose a different name' });
    const cutoff = await this.deps.access.cutoffFor(actor);
    const changed = await this.deps.library.renameCategory(actor.userId, from, to, this.deps.clock.now(), cutoff);
    if (changed === 0) throw notFound('Category');
    return { links: changed };
  }

  async countClick(actor: Actor, linkId: string): Promise<void> {
    await this.deps.access.assertViewable(actor, linkId);
    if (!(await this.deps.library.countClick(actor.userId, linkId, this.deps.clock.now()))) throw notFound('Link');
  }

  async countSearch(actor: Actor): Promise<void> {
    await this.deps.library.countSearch(actor.userId, monthOf(this.deps.clock.now()));
  }

  usage(actor: Actor): Promise<UsageCounts> {
    return this.deps.library.usage(actor.userId, monthOf(this.deps.clock.now()));
  }
}
