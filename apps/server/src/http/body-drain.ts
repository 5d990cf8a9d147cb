import type { FastifyRequest } from 'fastify';

/** At most this much of an unwanted body is read and thrown away before answering. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads and discards what is left of a request body the server will not use (over the size limit,
 * or broken), before the answer goes out with `Connection: close`. Closing a socket that still has
 * unread data makes the kernel send a reset, and a reset that overtakes the answer destroys it in
 * the client: a 3 MB POST then ended as a network error about half the time instead of the 413.
 *
 * Resolves when the body has ended, the client left, or DRAIN_MAX_BYTES were read (a body announced
 * larger is not read at all: its client may see the reset). REQUEST_TIMEOUT_SECONDS bounds the time.
 */
export function drainBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.complete || raw.destroyed || Number(raw.headers['content-length']) > DRAIN_MAX_BYTES) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('close', finish);
      raw.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_MAX_BYTES) finish();
    };
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('close', finish);
    raw.once('error', finish);
    raw.resume();
  });
}
