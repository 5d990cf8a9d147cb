import { afterAll, describe, expect, it } from 'vitest';
import { CategoryModel } from './category-model.js';
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
});
