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

type Library = ReturnType<typeof Koffi.load>;

/** glibc through koffi, or null elsewhere (another OS, musl, koffi missing). */
function glibc(): Library | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    // Only glibc has this function: on musl (no libc.so.6, or a shim of it) loading or binding throws.
    libc.func('const char *gnu_get_libc_version()');
    return libc;
  } catch {
    return null;
  }
}

let loaded: NativeMemory | undefined;

export function nativeMemory(): NativeMemory {
  loaded ??= load();
  return loaded;
}

function load(): NativeMemory {
  const libc = glibc();
  if (!libc) return { available: false, trim: () => false };
  const mallocTrim = libc.func('int malloc_trim(size_t pad)') as (pad: number) => number;
  return { available: true, trim: () => mallocTrim(0) === 1 };
}

/** How many malloc arenas a server process's threads share (glibc's default: 8 per core). */
const MALLOC_ARENAS = '2';
const F_SETFD = 2;

/**
 * Starts this process again in its own place (execve: same pid, same arguments) with
 * MALLOC_ARENA_MAX set, on Linux with glibc, when the environment does not set it. glibc gives each
 * thread that allocates an arena of its own and keeps freed memory in each; a worker's threads (V8's,
 * onnxruntime's, the model's and extraction's) then hold more through a run of analyses than two
 * shared arenas do (decision 0021). glibc reads the limit only as a process starts, so it cannot be
 * set from here; a second process would cost more than it saves. Call it before anything else loads.
 * Returns when it does not apply (another OS, musl, the variable set, run from the TypeScript
 * sources) or execve fails.
 */
export function limitMallocArenas(): void {
  if (process.env.MALLOC_ARENA_MAX !== undefined) return;
  // The built server only: from TypeScript sources (dev, tests) the loader's esbuild helper process
  // would be left behind as a zombie child of the new image.
  if (!import.meta.url.endsWith('.js')) return;
  const libc = glibc();
  if (!libc) return;
  const execve = libc.func('int execve(const char *path, const char **argv, const char **envp)') as (
    path: string,
    argv: (string | null)[],
    envp: (string | null)[],
  ) => number;
  const fcntl = libc.func('int fcntl(int fd, int cmd, ...)') as (
    fd: number,
    command: number,
    ...more: unknown[]
  ) => number;
  const argv = [process.argv0, ...process.execArgv, ...process.argv.slice(1)];
  const vars = Object.entries({ ...process.env, MALLOC_ARENA_MAX: MALLOC_ARENAS }).flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}=${value}`],
  );
  // Node marks its standard streams close-on-exec: without this the new image would start without them.
  for (const fd of [0, 1, 2]) fcntl(fd, F_SETFD, 'int', 0);
  execve(process.execPath, [...argv, null], [...vars, null]);
}
