import type { Socket } from 'node:net';
import { describe, it } from 'vitest';
import { engines, startServer } from './harness.js';
import { open, postHead, until } from './sockets.js';

const portOf = (server: { config: { PORT: number } }) => server.config.PORT;

describe.each(engines())('requests aborted mid-body on %s', (engine) => {
  it('leave the in-flight count, so shutdown does not wait for them', async () => {
    const server = await startServer(engine);
    try {
      const { token } = await server.signUp('aborted');
      const sockets: Socket[] = [];
      for (const path of ['/api/links', '/api/auth/login', '/api/nope']) {
        const socket = await open(portOf(server));
        socket.on('error', () => undefined);
        socket.write(postHead(path, 1000, { Authorization: `Bearer ${token}` }) + '{"url": "https://exa');
        sockets.push(socket);
      }
      // All three are past their hooks and waiting for the rest of their bodies.
      await until(() => server.app.inFlight.size === 3, 'three requests in flight');
      for (const socket of sockets) socket.destroy();
      // Before the fix they stayed counted, and shutdown waited its full drain time for them.
      await until(() => server.app.inFlight.size === 0, 'the aborted requests leave the count');
    } finally {
      await server.close();
    }
  });
});
