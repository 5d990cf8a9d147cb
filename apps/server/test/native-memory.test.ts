import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { nativeMemory } from '../src/lib/native-memory.js';
import { THREAD_YOUNG_GENERATION_MB, WorkerClient } from '../src/lib/worker-client.js';

const glibc = Boolean(
  (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
    ?.glibcVersionRuntime,
);
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

describe.runIf(process.platform === 'linux' && glibc)('returning freed native memory (glibc)', () => {
  it('is available here, and gives back freed heap pages that malloc itself would keep', () => {
    const memory = nativeMemory();
    expect(memory.available).toBe(true);
    // 16 MB in 64 KB pieces (below malloc's mmap threshold: they come from its heap), written so
    // they are resident, then freed under a small piece allocated after them, which keeps malloc
    // from trimming the heap's top by itself: what onnxruntime's freed activations look like.
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const free = libc.func('void free(void *ptr)');
    const memset = libc.func('void *memset(void *s, int c, size_t n)');
    const pieces = Array.from({ length: 256 }, () => {
      const p: unknown = malloc(64 * 1024);
      memset(p, 1, 64 * 1024);
      return p;
    });
    const pin: unknown = malloc(16);
    for (const p of pieces) free(p);
    const before = rssMb();
    expect(memory.trim()).toBe(true);
    expect(before - rssMb()).toBeGreaterThan(8);
    free(pin);
  });
});

describe('worker threads', () => {
  it('start with a small young generation, which V8 would otherwise grow and keep per thread', async () => {
    const client = new WorkerClient<null, { maxYoungGenerationSizeMb?: number }>(
      new URL('./fixtures/workers/limits.worker.ts', import.meta.url),
    );
    try {
      const limits = await client.call(null);
      expect(limits.maxYoungGenerationSizeMb).toBe(THREAD_YOUNG_GENERATION_MB);
    } finally {
      await client.close();
    }
  });
});
