import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type MessagePort, type TransferListItem } from 'node:worker_threads';

/**
 * A worker thread's young generation, in MB: by default V8 lets each thread's grow to tens of MB and keeps
 * it after a burst of work (the model and extraction threads of every worker; decision 0021).
 */
export const THREAD_YOUNG_GENERATION_MB = 6;
const limits = { resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB } };

/** From TypeScript sources (tests, dev) the worker registers the same TypeScript loader first. */
function spawnWorker(file: URL): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file, limits);
  const tsx = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const loader = pathToFileURL(path.join(tsx, 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); })`;
  return new Worker(boot, { eval: true, ...limits });
}

/** The worker file beside `from` (`name.worker.ts` from sources, `.js` when built). */
export function workerFile(name: string, from: string): URL {
  return new URL(`./${name}.worker.${from.endsWith('.ts') ? 'ts' : 'js'}`, from);
}

type Pending<R> = { resolve: (v: R) => void; reject: (e: Error) => void };

/**
 * Request/response over one worker thread, started on first use. Messages are `{id, input}` in
 * and `{id, output}` or `{id, error}` out. A crashed worker fails its callers and is restarted on
 * the next call; an idle worker does not keep the process alive.
 */
export class WorkerClient<In, Out> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<Out>>();
  private nextId = 1;

  constructor(private readonly file: URL) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker(this.file);
    worker.unref();
    worker.on('message', (m: { id: number; output?: Out; error?: string }) => {
      const call = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!call) return;
      if (m.error === undefined) call.resolve(m.output as Out);
      else call.reject(new Error(m.error));
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  call(input: In, transfer: TransferListItem[] = []): Promise<Out> {
    const worker = this.start();
    const id = this.nextId++;
    const result = new Promise<Out>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, input }, transfer);
    });
    return result.finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    // Callers still waiting get an error instead of a promise that never settles.
    for (const call of this.pending.values()) call.reject(new Error('worker closed'));
    this.pending.clear();
    await worker?.terminate();
  }
}

/** The worker side: answers each `{id, input}` with `handle(input)`. */
export function serveWorker<In, Out>(
  port: MessagePort | null,
  handle: (input: In) => Promise<Out> | Out,
  transferOf: (output: Out) => TransferListItem[] = () => [],
): void {
  if (!port) throw new Error('this module must run as a worker thread');
  port.on('message', (message: { id: number; input: In }) => {
    Promise.resolve()
      .then(() => handle(message.input))
      .then((output) => port.postMessage({ id: message.id, output }, transferOf(output)))
      .catch((error: unknown) => port.postMessage({ id: message.id, error: String(error) }));
  });
}
