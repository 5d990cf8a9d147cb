import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CategoryHead, trainCategoryHead, type CategoryHeadData } from './category-head.js';
import { CATEGORY_HEAD } from './category-head.data.js';
import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { MINILM_BGE_USE_MULTILINGUAL } from '../ml/local-models.js';

/** Points around three directions of a 4-dimensional space, unit length, from a fixed seed. */
function clusters(perClass: number, seed = 7) {
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const centres = [
    [1, 0, 0, 0.2],
    [0, 1, 0, 0.2],
    [0, 0, 1, 0.2],
  ];
  const vectors: Float32Array[] = [];
  const labels: string[] = [];
  for (let c = 0; c < centres.length; c++)
    for (let i = 0; i < perClass; i++) {
      const v = Float32Array.from(centres[c]!.map((x) => x + 0.35 * random()));
      const norm = Math.hypot(...v);
      vectors.push(v.map((x) => x / norm));
      labels.push(['A', 'B', 'C'][c]!);
    }
  return { vectors, labels };
}

const asData = (trained: ReturnType<typeof trainCategoryHead>, classes: string[], dimensions: number) =>
  ({
    modelId: 'test',
    examplesSha256: '',
    l2: 0,
    classes,
    dimensions,
    weights: Buffer.from(trained.weights.buffer).toString('base64'),
    bias: [...trained.bias],
  }) satisfies CategoryHeadData;

describe('the category head', () => {
  it('learns classes from examples and gives unseen points of each the highest probability', () => {
    const train = clusters(30);
    const trained = trainCategoryHead(train.vectors, train.labels, ['A', 'B', 'C'], { l2: 1e-3, iterations: 200 });
    const head = new CategoryHead(asData(trained, ['A', 'B', 'C'], 4));
    const unseen = clusters(20, 99);
    let right = 0;
    unseen.vectors.forEach((v, i) => {
      const p = head.probabilities(v);
      expect([...p.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      const [best] = [...p].sort((a, b) => b[1] - a[1]);
      if (best![0] === unseen.labels[i]) right++;
    });
    expect(right).toBeGreaterThanOrEqual(57); // of 60
  });

  it('is trained the same way every time, and lowers its loss with more iterations', () => {
    const { vectors, labels } = clusters(10);
    const a = trainCategoryHead(vectors, labels, ['A', 'B', 'C'], { l2: 1e-3, iterations: 50 });
    const b = trainCategoryHead(vectors, labels, ['A', 'B', 'C'], { l2: 1e-3, iterations: 50 });
    expect(Buffer.from(a.weights.buffer).equals(Buffer.from(b.weights.buffer))).toBe(true);
    const longer = trainCategoryHead(vectors, labels, ['A', 'B', 'C'], { l2: 1e-3, iterations: 200 });
    expect(longer.loss).toBeLessThan(a.loss);
  });

  it('refuses labels it has no class for, and weights that do not fit', () => {
    const { vectors } = clusters(2);
    expect(() =>
      trainCategoryHead(vectors, ['A', 'A', 'B', 'B', 'C', 'D'], ['A', 'B', 'C'], { l2: 0, iterations: 1 }),
    ).toThrow('unknown class D');
    const trained = trainCategoryHead(vectors, ['A', 'A', 'B', 'B', 'C', 'C'], ['A', 'B', 'C'], {
      l2: 0,
      iterations: 1,
    });
    expect(() => new CategoryHead(asData(trained, ['A', 'B'], 4))).toThrow('do not match');
    expect(() => new CategoryHead(asData(trained, ['A', 'B', 'C'], 4)).probabilities(new Float32Array(3))).toThrow(
      'reads 4 dimensions',
    );
  });
});

describe('the shipped category head', () => {
  it('was trained on the current examples, for the default model, over every default category and Other', () => {
    const parsed = JSON.parse(readFileSync(new URL('./category-examples.json', import.meta.url), 'utf8')) as Record<
      string,
      string[]
    >;
    // Editing the examples (or changing the model) needs scripts/train-category-head.ts run again.
    expect(CATEGORY_HEAD.examplesSha256).toBe(createHash('sha256').update(JSON.stringify(parsed)).digest('hex'));
    expect(CATEGORY_HEAD.modelId).toBe(MINILM_BGE_USE_MULTILINGUAL.id);
    expect(CATEGORY_HEAD.dimensions).toBe(MINILM_BGE_USE_MULTILINGUAL.dimensions);
    // The spec's categories, `Other` included, each with examples, keyed in the order of the head's
    // weight rows (DEFAULT_CATEGORIES): reordering either needs the head trained again.
    expect(Object.keys(parsed)).toEqual([...DEFAULT_CATEGORIES]);
    for (const texts of Object.values(parsed)) expect(texts.length).toBeGreaterThan(100);
    expect(new CategoryHead(CATEGORY_HEAD).probabilities(new Float32Array(CATEGORY_HEAD.dimensions)).size).toBe(12);
  });
});
