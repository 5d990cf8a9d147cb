import { connect, type Socket } from 'node:net';

/** What came back on a raw socket until the server closed it (or the wait ran out). */
export interface Exchange {
  /** Everything received, as latin1 text (status line, headers, body). */
  text: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** The socket error that ended it (ECONNRESET, EPIPE), if any. */
  error: string | undefined;
  /** True when the connection ended (server closed it, or a reset) before the wait ran out. */
  closed: boolean;
}

export function parseResponse(text: string): Pick<Exchange, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  const head = end >= 0 ? text.slice(0, end) : text;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]) || undefined;
  return { status, headers, body: end >= 0 ? text.slice(end + 4) : '' };
}

/** Opens a loopback socket to the test server and waits until it is connected. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Writes `parts` on a fresh socket (all of them, as a client that keeps sending does) and collects
 * what comes back until the server closes the connection, the socket errors, or `waitMs` passes.
 */
export function exchange(port: number, parts: (string | Buffer)[], waitMs = 10_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, ...parseResponse(text), error, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => finish(true));
    for (const part of parts) socket.write(part);
  });
}

/** Polls `check` every 20 ms until it holds; throws after `timeoutMs` (a bound, not a measurement). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Request head for a JSON POST with the given (announced) body length. */
export function postHead(path: string, length: number | 'chunked', headers: Record<string, string> = {}): string {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Sends one request on an open socket and resolves with its response once the body announced by
 * Content-Length has arrived, leaving the connection open for the next request.
 */
export function request(socket: Socket, text: string, waitMs = 10_000): Promise<ReturnType<typeof parseResponse>> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('no complete response in time')), waitMs);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const parsed = parseResponse(text);
      const length = Number(parsed.headers['content-length']);
      if (text.includes('\r\n\r\n') && Buffer.byteLength(parsed.body, 'latin1') >= length) done(undefined, parsed);
    };
    const done = (error?: Error, parsed?: ReturnType<typeof parseResponse>) => {
      clearTimeout(timer);
      socket.off('data', onData);
      if (parsed) resolve(parsed);
      else reject(error ?? new Error('no response'));
    };
    socket.on('data', onData);
    socket.write(text);
  });
}
