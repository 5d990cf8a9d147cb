// Lifecycle of one browser run: the real built server as a child process, Chromium through
// playwright-core, per-page console collection, screenshots, and a watchdog for hung runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '@linkwise/contract';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
export const CHROMIUM = '/usr/bin/chromium';
export const SERVER_MAIN = path.join(ROOT, 'apps', 'server', 'dist', 'main.js');
export const WEB_INDEX = path.join(ROOT, 'apps', 'web', 'dist', 'index.html');

/** Chromium flags for these machines: without the networking ones it keeps calling hosts that are not there. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A free TCP port on 127.0.0.1 (the server must know its port up front: it is part of APP_URL). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RunningServer {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  stop: () => Promise<void>;
  /** Synchronous last resort (watchdog, signals, process exit): SIGKILL and remove the data folder. */
  kill: () => void;
}

/**
 * Starts `node apps/server/dist/main.js` (or another build's `main`, for benchmarks comparing
 * builds) on a free port with a fresh data folder.
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  main: string = SERVER_MAIN,
): Promise<RunningServer> {
  // A caller may pin the port and data folder (a server stopped and started again as the same one);
  // a folder it passed is its own to remove.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const ownData = !extraEnv.DATA_DIR;
  const dataDir = extraEnv.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'linkwise-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  // A minimal environment: nothing from the caller's shell (DATABASE_URL, REDIS_URL, APP_URL…) leaks
  // in, and the working directory is the temp folder so no `.env` file is picked up either.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BILLING: 'simulated',
    LOG_LEVEL: 'warn',
    // Links the server hands out name the address the suite opens (an empty APP_URL: the default).
    APP_URL: url,
    // Never reach for the public hub from a test run.
    MODEL_DOWNLOAD: 'false',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [main], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (ownData) rmSync(dataDir, { recursive: true, force: true });
  };

  const health = createApiClient({ baseUrl: url });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`the server exited before it was healthy:\n${output}`);
    }
    try {
      const h = await health.health();
      if (h.status === 'ok') break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer GET /api/health within 20 s:\n${output}`);
    }
    await sleep(100);
  }
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (ownData) rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, child, dataDir, output: () => output, stop, kill };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** console.error messages and uncaught page errors, in order. */
  errors: string[];
  close: () => Promise<void>;
}

/** A fresh context and page that records console errors and uncaught exceptions. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
  colorScheme: 'light' | 'dark' = 'light',
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, isMobile: viewport.width < 500, colorScheme });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message} (${page.url()})`));
  return { page, context, errors, close: () => context.close() };
}

export function resetArtifacts(): void {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export function writeArtifact(name: string, text: string): void {
  if (existsSync(ARTIFACTS)) writeFileSync(path.join(ARTIFACTS, name), text);
}

/** An API client for setup and verification, optionally signed in. */
export function api(baseUrl: string, token?: string): ApiClient {
  return createApiClient({ baseUrl, getToken: () => token });
}

/** Serves one saved page of the shared corpus on loopback (for Analyze); undefined when absent. */
export async function serveCorpusPage(name: string): Promise<{ url: string; close: () => Promise<void> } | undefined> {
  const file = path.resolve(ROOT, '..', 'shared', 'corpus', 'pages', name, 'input.html');
  if (!existsSync(file)) return undefined;
  const { createServer: createHttpServer } = await import('node:http');
  const { readFileSync } = await import('node:fs');
  const html = readFileSync(file);
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/${name}/article`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Puts a session into the page's storage the way the web app persists it ('auth-storage'). */
export async function signInBrowser(page: Page, baseUrl: string, session: { token: string; user: unknown }) {
  await page.goto(`${baseUrl}/status`);
  const value = JSON.stringify({
    state: { user: session.user, token: session.token, isAuthenticated: true },
    version: 0,
  });
  await page.evaluate(`localStorage.setItem('auth-storage', ${JSON.stringify(value)})`);
}

let registered = 0;

/** Registers a fresh user through the API and returns its token with a signed-in client. */
export async function registerUser(baseUrl: string, label: string) {
  registered += 1;
  const name = `e2e-${label}-${registered}-${Date.now().toString(36)}`;
  const { token, user } = await api(baseUrl).register({
    body: { email: `${name}@example.com`, username: name, password: 'e2e-password-1' },
  });
  return { token, user, client: api(baseUrl, token) };
}

/** Waits until `target` holds the keyboard focus (a dialog gives it back a moment after it closes). */
export async function waitForFocus(target: Locator, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Runs in the page, where `document` exists (this project's TypeScript has no DOM library).
  type InPage = { document: { activeElement: unknown } };
  const focused = () =>
    target
      .evaluate((el: unknown) => el === (globalThis as unknown as InPage).document.activeElement)
      .catch(() => false);
  while (!(await focused())) {
    if (Date.now() > deadline) {
      const holder = await target
        .page()
        .evaluate<string>('document.activeElement ? document.activeElement.outerHTML.slice(0, 160) : "nothing"');
      throw new Error(`focus did not return; it is on ${holder}`);
    }
    await target.page().waitForTimeout(50);
  }
}
