import { afterAll, describe, expect, it } from 'vitest';
import type { CategoryHeadData } from './category-head.js';
import { CATEGORY_WEIGHTS, CategoryModel } from './category-model.js';
import { WorkerEmbedder } from '../ml/embedder.js';

describe('CategoryModel', () => {
  const embedder = new WorkerEmbedder();
  afterAll(() => embedder.close());

  it('tries again after a failed embedding instead of failing every later call', async () => {
    const model = new CategoryModel(embedder);
    const [page] = await embedder.embed(['Cucumber yogurt raita salad: a recipe with ingredients and steps']);
    // Closing the worker fails the anchor embedding the first call started.
    const first = model.classify(page!, ['Gardening']).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await embedder.close();
    expect(await first).toBe('worker closed');
    // The next call starts a fresh worker and gets a real answer, for the defaults and the user's own.
    expect((await model.classify(page!, ['Gardening'])).category).toBe('Recipes');
  });

  /** A head for `modelId` that is sure every page is `Other` (zero weights, a large bias). */
  const sureOfOther = (modelId: string, dimensions: number): CategoryHeadData => {
    const classes = ['Business', 'Recipes', 'Other'];
    return {
      modelId,
      examplesSha256: '',
      l2: 0,
      classes,
      dimensions,
      weights: Buffer.alloc(classes.length * dimensions * 4).toString('base64'),
      bias: [0, 0, 12],
    };
  };

  it("weighs the trained head's view, keeping the best default's level against the user's own categories", async () => {
    const [page] = await embedder.embed(['Cucumber yogurt raita salad: a recipe with ingredients and steps']);
    const plain = await new CategoryModel(embedder, { ...CATEGORY_WEIGHTS, head: 0 }).scores(page!, ['Gardening']);
    // Weighed fully, a certain head outweighs any cosine.
    const headed = await new CategoryModel(embedder, { ...CATEGORY_WEIGHTS, head: 1 }, () =>
      Promise.resolve(sureOfOther(embedder.modelId, embedder.dimensions)),
    ).scores(page!, ['Gardening']);
    const score = (s: typeof plain, c: string) => s.find((x) => x.category === c)?.score;
    expect(plain[0]!.category).toBe('Recipes');
    // Without the head, `Other` is still a candidate: it scores the bar below which nothing fits.
    expect(score(plain, 'Other')).toBeCloseTo(CATEGORY_WEIGHTS.minScore, 9);
    // Sure of Other, the head puts it first (the bar plus a point) at the level Recipes had.
    expect(headed[0]!.category).toBe('Other');
    expect(headed[0]!.score).toBeCloseTo(plain[0]!.score, 5);
    expect(headed[0]!.score - score(headed, 'Recipes')!).toBeCloseTo(
      CATEGORY_WEIGHTS.minScore + 1 - plain[0]!.score,
      3,
    );
    // The user's own category is scored as before.
    expect(score(headed, 'Gardening')).toBeCloseTo(score(plain, 'Gardening')!, 9);
  });

  it('leaves the head out for a page vector of another model', async () => {
    const [page] = await embedder.embed(['Cucumber yogurt raita salad: a recipe with ingredients and steps']);
    const plain = await new CategoryModel(embedder, { ...CATEGORY_WEIGHTS, head: 0 }).scores(page!, []);
    const otherModel = await new CategoryModel(embedder, CATEGORY_WEIGHTS, () =>
      Promise.resolve(sureOfOther('another-model', embedder.dimensions)),
    ).scores(page!, []);
    expect(otherModel).toEqual(plain);
    const failing = await new CategoryModel(embedder, CATEGORY_WEIGHTS, () =>
      Promise.reject(new Error('no head here')),
    ).scores(page!, []);
    expect(failing).toEqual(plain);
  });
});
