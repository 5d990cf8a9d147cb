import { afterAll, describe, expect, it } from 'vitest';
import { cosine, WorkerEmbedder } from './embedder.js';
import { SentencePieceTokenizer } from './use-lite.model.js';

describe('WorkerEmbedder (USE-lite on tfjs WASM in a worker thread)', () => {
  const embedder = new WorkerEmbedder();
  afterAll(() => embedder.close());

  it('returns unit vectors of 512 dimensions that place related texts closer', async () => {
    const [bread, recipe, stocks] = await embedder.embed([
      'How to bake sourdough bread at home',
      'A recipe for homemade bread',
      'Quarterly earnings beat analyst expectations',
    ]);
    expect(embedder.dimensions).toBe(512);
    expect(bread).toHaveLength(512);
    expect(cosine(bread!, bread!)).toBeCloseTo(1, 4);
    expect(cosine(bread!, recipe!)).toBeGreaterThan(cosine(bread!, stocks!) + 0.3);
  });

  it('guards empty texts with a zero vector instead of failing the batch', async () => {
    const [empty, blank, word] = await embedder.embed(['', '   \n', 'hello']);
    expect(empty!.every((v) => v === 0)).toBe(true);
    expect(blank!.every((v) => v === 0)).toBe(true);
    expect(cosine(word!, word!)).toBeCloseTo(1, 4);
  });

  it('is deterministic and batches do not change the result', async () => {
    const [alone] = await embedder.embed(['The quick brown fox']);
    const [, together] = await embedder.embed(['Something else entirely', 'The quick brown fox']);
    expect(cosine(alone!, together!)).toBeCloseTo(1, 4);
  });

  it('keeps the event loop free while it works', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `word${i % 50} page text`).join(' ');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await embedder.embed(Array.from({ length: 16 }, (_, i) => `${long} ${i}`));
    clearInterval(timer);
    // The main thread kept running timers during the whole embedding.
    expect(ticks).toBeGreaterThan(5);
  });
});

describe('SentencePieceTokenizer', () => {
  const tokenizer = new SentencePieceTokenizer([
    ['<unk>', 0],
    ['<s>', 0],
    ['</s>', 0],
    ['x1', 0],
    ['x2', 0],
    ['x3', 0],
    ['\u2581the', -1],
    ['\u2581t', -3],
    ['he', -3],
    ['\u2581cat', -1],
    ['\u2581', -2],
  ]);
  it('picks the best-scoring segmentation and merges unknown runs', () => {
    expect(tokenizer.encode('the cat')).toEqual([6, 9]);
    expect(tokenizer.encode('the ☃☃ cat')).toEqual([6, 10, 0, 9]);
    expect(tokenizer.encode('')).toEqual([]);
  });
});
