// Sends oversized JSON bodies to a server, one connection each, the way a client that keeps
// writing does, and prints what each one read back. Runs in its own process: in the server's
// process the event loop orders the server's close and the client's reads, which hides the reset.
//   node oversized-posts.mjs <port> <token> <count> <bytes> <content-length|chunked>
import { connect } from 'node:net';

const [port, token, count, bytes, framing] = process.argv.slice(2);
const body = Buffer.alloc(Number(bytes), 'a');
const CHUNK = 256 * 1024;

function once() {
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks = [];
    let error;
    const timer = setTimeout(() => socket.destroy(new Error('timeout')), 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => (error = err.code ?? err.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || null;
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), error: status ? undefined : error });
    });
    const head = [
      `POST /api/links HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Authorization: Bearer ${token}`,
    ];
    if (framing === 'chunked') {
      socket.write(`${[...head, 'Transfer-Encoding: chunked'].join('\r\n')}\r\n\r\n`);
      for (let at = 0; at < body.length; at += CHUNK) {
        const part = body.subarray(at, at + CHUNK);
        socket.write(`${part.length.toString(16)}\r\n`);
        socket.write(part);
        socket.write('\r\n');
      }
      socket.write('0\r\n\r\n');
    } else {
      socket.write(`${[...head, `Content-Length: ${body.length}`].join('\r\n')}\r\n\r\n`);
      socket.write(body);
    }
  });
}

const results = [];
for (let i = 0; i < Number(count); i++) results.push(await once());
process.stdout.write(JSON.stringify(results));
