import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows one HTTP request through the code it runs, without being passed by hand. */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts) inside the request's context. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The id of the request being served, if any (jobs record it, so their logs name the request). */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}
