/// <reference types="chrome" />
// What the extension suites and the extension benchmark share: the built packages, Chromium with the
// extension loaded, a loopback "web" to save pages from, and a server that can be stopped and started
// again on the same port and data (the offline queue's proof).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, ROOT, freePort, startServer, type RunningServer } from './harness.js';

export const EXTENSION_DIST = path.join(ROOT, 'apps', 'extension', 'dist');
export const CHROME_DIR = path.join(EXTENSION_DIST, 'chrome');
export const FIREFOX_DIR = path.join(EXTENSION_DIST, 'firefox');
export const FIREFOX = '/usr/bin/firefox-esr';

export interface ExtensionBrowser {
  context: BrowserContext;
  worker: Worker;
  id: string;
  close: () => Promise<void>;
}

/** Chromium with the built Chrome package loaded (headless unless a display is given). */
export async function launchChromiumWithExtension(options: { display?: string } = {}): Promise<ExtensionBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'linkwise-ext-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: options.display === undefined,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${CHROME_DIR}`, `--load-extension=${CHROME_DIR}`],
    ...(options.display !== undefined && { env: { ...process.env, DISPLAY: options.display } }),
    viewport: { width: 1100, height: 800 },
  });
  context.setDefaultTimeout(15_000);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  // On install the extension opens its welcome or options page; that can replace the first tab a
  // test navigates. Wait for it (it comes within the 3 s health check's time) before handing over.
  // (It may open a new tab or reuse the blank one, so the pages' addresses are polled.)
  const welcomed = () => context.pages().some((p) => p.url().startsWith(`chrome-extension://${id}/`));
  for (const deadline = Date.now() + 8_000; !welcomed() && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    context,
    worker,
    id,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Site {
  origin: string;
  url: (pathname: string) => string;
  close: () => Promise<void>;
}

const ARTICLE = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title><meta name="description" content="${body.slice(0, 120)}"></head>
<body><main><h1>${title}</h1><p>${body}</p><p>${body}</p>
<p><a id="outbound" href="/linked/river-deltas">How river deltas form</a></p></main></body></html>`;

const LOGIN = (
  origin: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>Sign in to ${origin}</h1><form id="login" action="/signed-in" method="post">
<label>Email <input id="username" name="username" type="email" autocomplete="username"></label>
<label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></body></html>`;

/** A loopback web site: articles to save, a login page, a page without a password field. */
export async function startSite(): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/login') return res.end(LOGIN(`${req.headers.host ?? ''}`));
    if (url.pathname === '/no-password') return res.end('<!doctype html><title>No form</title><input id="q">');
    const slug = url.pathname.split('/').filter(Boolean).pop() ?? 'home';
    const title = slug.replace(/-/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
    res.end(
      ARTICLE(
        title,
        `A practical guide to ${title.toLowerCase()}: how tides shape coastal ecosystems, which creatures live in rock pools and how to visit them without harm. Written for curious readers and teachers.`,
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (pathname) => `${origin}${pathname}`,
    // The browser keeps idle keep-alive sockets open; close them, or close() waits for their timeout.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A server on a fixed port and data folder, so it can go away and come back as the same server. */
export interface RestartableServer {
  url: string;
  current: () => RunningServer;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startRestartableServer(env: Record<string, string>): Promise<RestartableServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-ext-data-'));
  const url = `http://127.0.0.1:${port}`;
  const boot = () => startServer({ ...env, PORT: String(port), DATA_DIR: dataDir, APP_URL: url });
  let running: RunningServer | undefined = await boot();
  return {
    url,
    current: () => {
      if (!running) throw new Error('the server is stopped');
      return running;
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await boot();
    },
    close: async () => {
      await running?.stop();
      running = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The id of the tab showing `page` (the page is made the active tab, which is all that is visible without `tabs`). */
export async function tabIdOf(ext: ExtensionBrowser, page: Page): Promise<number> {
  await page.bringToFront();
  const id = await ext.worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return tab?.id;
  });
  if (id === undefined) throw new Error('no active tab');
  return id;
}

/** The popup, opened as a tab about `target` (how automation opens it; the toolbar popup is the same page). */
export async function openPopup(ext: ExtensionBrowser, target: Page): Promise<Page> {
  const tabId = await tabIdOf(ext, target);
  const params = new URLSearchParams({ tab: String(tabId), url: target.url(), title: await target.title() });
  const popup = await ext.context.newPage();
  await popup.setViewportSize({ width: 360, height: 640 });
  await popup.goto(`chrome-extension://${ext.id}/popup.html?${params.toString()}`);
  await popup.locator('body[data-ready="true"]').waitFor();
  return popup;
}

/** The extension's stored connection, read in its own background. */
export function storedConnection(
  ext: ExtensionBrowser,
): Promise<{ server: string; token: string | null; needsReconnect: boolean }> {
  return ext.worker.evaluate(async () => {
    const { connection } = await chrome.storage.local.get<{
      connection: { server: string; token: string | null; needsReconnect: boolean };
    }>('connection');
    return connection;
  });
}

/** An X server of our own for headed runs (a free display number, never another engineer's). */
export async function startXvfb(): Promise<{ display: string; stop: () => void } | undefined> {
  if (!existsSync('/usr/bin/Xvfb')) return undefined;
  for (let n = 90 + Math.floor(Math.random() * 400); n < 1000; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    const child = spawn('/usr/bin/Xvfb', [`:${n}`, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 50 && !existsSync(`/tmp/.X11-unix/X${n}`); i++) await new Promise((r) => setTimeout(r, 100));
    if (child.exitCode === null && existsSync(`/tmp/.X11-unix/X${n}`)) {
      return { display: `:${n}`, stop: () => void child.kill('SIGTERM') };
    }
    child.kill('SIGKILL');
  }
  return undefined;
}
