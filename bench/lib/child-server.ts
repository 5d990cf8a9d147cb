/**
 * The real server (by default apps/server/src/main.ts, run through tsx) in its own process, so load from
 * autocannon and the server do not share an event loop.
 */
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));

/**
 * A free port below the kernel's ephemeral range (32768+ on Linux), so a test server that another
 * process starts on port 0 cannot grab it between this check and the child's listen.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = randomInt(20_000, 32_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface Probe {
  /** A request only this server's database answers with 200 (an authenticated list, say). */
  path: string;
  headers: Record<string, string>;
}

/** Node's arguments for the server from its TypeScript sources. */
export const FROM_SOURCES = ['--conditions=@linkwise/source', '--import', 'tsx', MAIN];

/** `BENCH_SERVER_ENV="A=1,B=2"`: settings every server process of a bench gets (an A/B of one setting). */
function extraEnv(): Record<string, string> {
  const pairs = (process.env.BENCH_SERVER_ENV ?? '').split(',').filter(Boolean);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

async function startOnce(env: Record<string, string>, cwd: string, logFile: string, probe: Probe, args: string[]) {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? cwd,
      ...extraEnv(),
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) return { error: readFileSync(logFile, 'utf8').slice(-4000) };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 60 s:\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    }
    try {
      const response = await fetch(`${url}${probe.path}`, { headers: probe.headers });
      await response.arrayBuffer();
      // Answered, and by our child: it is still running after the answer.
      if (response.ok && !exited) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const server: ServerProcess = {
    url,
    pid: child.pid ?? 0,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    },
  };
  return { server };
}

/**
 * Starts the server with exactly `env` (plus PATH/HOME and BENCH_SERVER_ENV) in `cwd`, its output appended to `logFile`,
 * and waits until `probe` answers 200. `args` are Node's (the sources through tsx by default; the
 * built `apps/server/dist/main.js`, V8 flags).
 */
export async function startServerProcess(
  env: Record<string, string>,
  cwd: string,
  logFile: string,
  probe: Probe,
  args: string[] = FROM_SOURCES,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const result = await startOnce(env, cwd, logFile, probe, args);
    if ('server' in result && result.server) return result.server;
    const error = result.error ?? '';
    if (!error.includes('EADDRINUSE') || attempt >= 5) throw new Error(`server process exited:\n${error}`);
  }
}
