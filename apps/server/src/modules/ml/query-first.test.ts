import { describe, expect, it } from 'vitest';
import { QueryFirst } from './offline-embedder.js';

describe('QueryFirst', () => {
  it('runs one piece of work at a time, waiting queries before waiting documents', async () => {
    const lane = new QueryFirst();
    const order: string[] = [];
    let release!: () => void;
    const first = lane.run(false, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      order.push('document 1');
    });
    const step = (name: string) => () => {
      order.push(name);
      return Promise.resolve();
    };
    const rest = [
      lane.run(false, step('document 2')),
      lane.run(true, step('query 1')),
      lane.run(false, step('document 3')),
      lane.run(true, step('query 2')),
    ];
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['document 1', 'query 1', 'query 2', 'document 2', 'document 3']);
  });

  it('passes the turn on when a piece of work fails', async () => {
    const lane = new QueryFirst();
    const failed = lane.run(false, () => Promise.reject(new Error('model crashed')));
    const next = lane.run(true, () => Promise.resolve('answered'));
    await expect(failed).rejects.toThrow('model crashed');
    await expect(next).resolves.toBe('answered');
    await expect(lane.run(false, () => Promise.resolve(1))).resolves.toBe(1);
  });
});
