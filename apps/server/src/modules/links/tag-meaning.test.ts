import type { TagSummary } from '@linkwise/contract';
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../ml/embedder.js';
import { tagText, TagVectorCache } from '../ml/tag-vectors.js';
import { meaningPairs } from './tag-meaning.js';

const tag = (name: string, count: number): TagSummary => ({ id: name, name, count });
const unit = (...v: number[]) => {
  const norm = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / norm);
};

describe('meaningPairs', () => {
  const tags = [tag('javascript', 9), tag('js', 3), tag('ecmascript', 1), tag('cooking', 5), tag('recipes', 4)];
  const vectors = new Map([
    ['javascript', unit(1, 0, 0)],
    ['js', unit(0.95, 0.1, 0)],
    ['ecmascript', unit(0.9, 0.2, 0)],
    ['cooking', unit(0, 1, 0.6)],
    ['recipes', unit(0, 0.6, 1)],
  ]);

  it('merges each close tag into the more used one, closest first, and leaves related tags apart', () => {
    expect(meaningPairs(tags, vectors, 0.95)).toEqual([
      { from: 'js', into: 'javascript', why: 'meaning' },
      { from: 'ecmascript', into: 'javascript', why: 'meaning' },
    ]);
  });

  it('never chains: a tag that absorbs another is not itself merged away', () => {
    const three = [tag('a', 9), tag('b', 3), tag('c', 1)];
    const v = new Map([
      ['a', unit(1, -0.3)],
      ['b', unit(1, 0)],
      ['c', unit(0.99, 0.14)],
    ]);
    // b~c is the closest pair (c into b); a~b would merge b away and a~c would merge c twice.
    expect(meaningPairs(three, v, 0.9)).toEqual([{ from: 'c', into: 'b', why: 'meaning' }]);
  });

  it('leaves spelling variants and tags already merged by spelling to the spelling suggestions', () => {
    const spelled = [tag('JavaScript', 4), tag('java-script', 2), tag('js', 1)];
    const same = unit(1, 0, 0);
    const v = new Map(spelled.map((t) => [t.name, same]));
    expect(meaningPairs(spelled, v, 0.9, new Set(['java-script']))).toEqual([
      { from: 'js', into: 'JavaScript', why: 'meaning' },
    ]);
  });

  it('considers only tags with a vector and stops at the limit', () => {
    expect(meaningPairs(tags, new Map([['js', unit(1, 0, 0)]]), 0.5)).toEqual([]);
    expect(meaningPairs(tags, vectors, 0.5, new Set(), 1)).toHaveLength(1);
  });

  it('embeds a tag by its words', () => {
    expect(tagText('machine-learning')).toBe('machine learning');
    expect(tagText('web_dev/tools')).toBe('web dev tools');
  });
});

describe('TagVectorCache', () => {
  /** A real-shaped embedder that records what it was asked (the cache is what is under test). */
  function counting(modelId = 'm'): Embedder & { asked: string[][]; modelId: string } {
    return {
      modelId,
      dimensions: 2,
      asked: [],
      embed(texts: string[]) {
        this.asked.push(texts);
        return Promise.resolve(texts.map((t) => unit(t.length, 1)));
      },
      close: () => Promise.resolve(),
    };
  }

  it('embeds only tags it has not seen for that model', async () => {
    const cache = new TagVectorCache();
    const embedder = counting();
    await cache.vectors(embedder, ['js', 'machine-learning']);
    const second = await cache.vectors(embedder, ['js', 'machine-learning', 'ai']);
    expect(embedder.asked).toEqual([['js', 'machine learning'], ['ai']]);
    expect([...second!.keys()]).toEqual(['js', 'machine-learning', 'ai']);
    const other = counting('other');
    await cache.vectors(other, ['js']);
    expect(other.asked).toEqual([['js']]);
  });

  it('keeps at most its bound, dropping the least recently used', async () => {
    const cache = new TagVectorCache(2);
    const embedder = counting();
    await cache.vectors(embedder, ['a', 'b']);
    await cache.vectors(embedder, ['a']);
    await cache.vectors(embedder, ['c']);
    expect(cache.size).toBe(2);
    await cache.vectors(embedder, ['a', 'b']);
    expect(embedder.asked).toEqual([['a', 'b'], ['c'], ['b']]);
  });

  it('answers null when the model changed during the call', async () => {
    const cache = new TagVectorCache();
    const embedder = counting();
    const switching: Embedder = {
      get modelId() {
        return embedder.modelId;
      },
      dimensions: 2,
      embed: async (texts) => {
        const out = await embedder.embed(texts);
        embedder.modelId = 'transformer';
        return out;
      },
      close: () => Promise.resolve(),
    };
    expect(await cache.vectors(switching, ['js'])).toBeNull();
    expect(cache.size).toBe(0);
  });
});
