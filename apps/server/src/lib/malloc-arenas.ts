import { createRequire } from 'node:module';
import type Koffi from 'koffi';

const F_SETFD = 2;

/** How many malloc arenas a server process's threads share (glibc's default: 8 per core). */
export const MALLOC_ARENAS = '2';

/**
 * Starts this process again in its own place (execve: same pid, same arguments) with
 * MALLOC_ARENA_MAX set, on Linux with glibc, when the environment does not set it. glibc gives each
 * thread that allocates an arena of its own and keeps freed memory in each; a worker's threads (V8's,
 * onnxruntime's, the model's and extraction's) then hold more through a run of analyses than two
 * shared arenas do (decision 0021). glibc reads the limit only as a process starts, so it cannot be
 * set from here; a second process would cost more than it saves. Call it before anything else loads.
 * Returns when it does not apply (another OS, musl, the variable set, koffi missing, run from the
 * TypeScript sources) or execve fails.
 */
export function limitMallocArenas(env: NodeJS.ProcessEnv = process.env): void {
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return;
  // The built server only: from TypeScript sources (dev, tests) the loader's esbuild helper process
  // would be left behind as a zombie child of the new image.
  if (!import.meta.url.endsWith('.js')) return;
  let execve: (path: string, argv: (string | null)[], envp: (string | null)[]) => number;
  let fcntl: (fd: number, command: number, ...more: unknown[]) => number;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    // Only glibc has this function (and reads MALLOC_ARENA_MAX): elsewhere binding it throws.
    libc.func('const char *gnu_get_libc_version()');
    execve = libc.func('int execve(const char *path, const char **argv, const char **envp)') as typeof execve;
    fcntl = libc.func('int fcntl(int fd, int cmd, ...)') as typeof fcntl;
  } catch {
    return;
  }
  const argv = [process.argv0, ...process.execArgv, ...process.argv.slice(1)];
  const vars = Object.entries({ ...env, MALLOC_ARENA_MAX: MALLOC_ARENAS }).flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}=${value}`],
  );
  // Node marks its standard streams close-on-exec: without this the new image would start without them.
  for (const fd of [0, 1, 2]) fcntl(fd, F_SETFD, 'int', 0);
  execve(process.execPath, [...argv, null], [...vars, null]);
}
