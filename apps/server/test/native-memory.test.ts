import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { nativeMemory } from '../src/lib/native-memory.js';
import { THREAD_YOUNG_GENERATION_MB, WorkerClient } from '../src/lib/worker-client.js';

const glibc = Boolean(
  (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
    ?.glibcVersionRuntime,
);

describe.runIf(process.platform === 'linux' && glibc)('returning freed native memory (glibc)', () => {
  it('is available here, and gives back freed heap pages that malloc itself would keep', () => {
    const memory = nativeMemory();
    expect(memory.available).toBe(true);
    // 256 freed pieces of 64 KB (below malloc's mmap threshold: they come from its heap), written so
    // they are resident, each between two pieces still in use: what onnxruntime's freed activations
    // look like between live tensors. What is measured is those pieces' own pages (mincore), not
    // the process's RSS, which the test runner's own allocations and collections also move.
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const free = libc.func('void free(void *ptr)');
    const memset = libc.func('void *memset(void *s, int c, size_t n)');
    const mincore = libc.func('int mincore(uintptr_t addr, size_t length, _Out_ uint8_t *vec)');
    const pieceBytes = 64 * 1024;
    const page = 4096n;
    const residentMb = (pointers: unknown[]) => {
      let pages = 0;
      for (const pointer of pointers) {
        const address = koffi.address(pointer);
        // Whole pages inside the piece: its first and last may share a page with a live neighbour.
        const start = ((address + page - 1n) / page) * page;
        const end = ((address + BigInt(pieceBytes)) / page) * page;
        const flags = new Uint8Array(Number((end - start) / page));
        expect(mincore(start, Number(end - start), flags)).toBe(0);
        for (const flag of flags) pages += flag & 1;
      }
      return (pages * Number(page)) / 1024 / 1024;
    };
    const pieces = Array.from({ length: 513 }, () => {
      const p: unknown = malloc(pieceBytes);
      memset(p, 1, pieceBytes);
      return p;
    });
    const freed = pieces.filter((_, i) => i % 2 === 1);
    const kept = pieces.filter((_, i) => i % 2 === 0);
    for (const p of freed) free(p);
    const before = residentMb(freed);
    expect(memory.trim()).toBe(true);
    expect(before - residentMb(freed)).toBeGreaterThan(8);
    for (const p of kept) free(p);
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
