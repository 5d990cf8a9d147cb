/**
 * Cleanup a benchmark still owes (databases, processes, servers), run in reverse order at the end,
 * on failure, and on SIGINT/SIGTERM, so an interrupted run leaves nothing behind.
 */
const pending = new Set<() => Promise<unknown>>();

/** Registers a cleanup step to run at the end (`cleanupAll`) or when the run is interrupted. */
export function owe(step: () => Promise<unknown>): void {
  pending.add(step);
}

/** The step was done by its owner: nothing to run for it any more. */
export function paid(step: () => Promise<unknown>): void {
  pending.delete(step);
}

/** Runs every step still owed, newest first; a failing step is reported, not fatal. */
export async function cleanupAll(log: (message: string) => void = console.error): Promise<void> {
  for (const step of [...pending].reverse()) {
    pending.delete(step);
    await step().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
  }
}

/** Cleans up and exits on SIGINT/SIGTERM. */
export function cleanUpOnSignals(log: (message: string) => void = console.error): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanupAll(log).finally(() => process.exit(130));
    });
  }
}

/** Runs `fn`, then `undo` (also on failure, and on SIGINT/SIGTERM while `fn` runs). */
export async function using<T>(undo: () => Promise<unknown>, fn: () => Promise<T>): Promise<T> {
  pending.add(undo);
  try {
    return await fn();
  } finally {
    pending.delete(undo);
    await undo();
  }
}
