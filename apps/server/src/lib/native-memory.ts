import { createRequire } from 'node:module';
import type Koffi from 'koffi';

/**
 * Hands memory that native code freed back to the system, on Linux with glibc (malloc_trim, called
 * through koffi's prebuilt FFI). onnxruntime frees each batch's activations, but glibc keeps the
 * freed pieces of its heaps: a worker that embeds pages for an hour would otherwise grow to a
 * gigabyte and stay there (decision 0021). Elsewhere, or if the library cannot load, it does nothing.
 */
export interface NativeMemory {
  /** Whether freed memory can be returned here (glibc on Linux, koffi loaded). */
  readonly available: boolean;
  /** Returns freed memory of every malloc arena to the system; whether any was returned. */
  trim(): boolean;
}

let loaded: NativeMemory | undefined;

export function nativeMemory(): NativeMemory {
  loaded ??= load();
  return loaded;
}

function load(): NativeMemory {
  const none: NativeMemory = { available: false, trim: () => false };
  if (process.platform !== 'linux') return none;
  // musl has no libc.so.6 (nor malloc_trim): loading or binding it throws, and nothing is trimmed.
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return { available: true, trim: () => mallocTrim(0) === 1 };
  } catch {
    return none;
  }
}
