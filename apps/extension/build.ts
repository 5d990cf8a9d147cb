// Builds the extension for both browsers from src/: dist/chrome and dist/firefox (unpacked, what
// "Load unpacked" and `web-ext` take), and the zips the server offers and the stores accept.
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown, type Plugin as RolldownPlugin } from 'rolldown';
import { zipSync } from 'fflate';
import { EXTENSION_DOWNLOADS } from '@linkwise/contract';
import { iconPng } from './tools/icons.js';
import { manifest, type Browser } from './tools/manifest.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const { version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')) as { version: string };

const ENTRIES = {
  background: 'src/background.ts',
  popup: 'src/popup/popup.ts',
  options: 'src/options/options.ts',
  'auth-relay': 'src/content/auth-relay.ts',
};
const STATIC = [
  'src/popup/popup.html',
  'src/options/options.html',
  'src/static/ui.css',
  'src/static/popup.css',
  'src/static/options.css',
];

function files(dir: string, base = dir): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, files(full, base));
    else out[path.relative(base, full).split(path.sep).join('/')] = readFileSync(full);
  }
  return out;
}

/** A zip with fixed timestamps, so the same sources give the same bytes. */
function zip(dir: string, target: string, replace: Record<string, Uint8Array> = {}): number {
  const entries = { ...files(dir), ...replace };
  const mtime = new Date('2025-01-01T00:00:00Z');
  const data = zipSync(Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, [bytes, { mtime }]])), {
    level: 9,
  });
  writeFileSync(target, data);
  return data.length;
}

/**
 * Zod compiles fast parsers with `Function` when the page allows it. Extension pages never do (their
 * CSP forbids eval, and zod falls back to its interpreter), so the constructor is replaced by one
 * that throws: the same behaviour, and no eval in the package for a reviewer or `web-ext lint`.
 */
const noCodeGeneration: RolldownPlugin = {
  name: 'no-code-generation',
  transform(code, id) {
    if (!id.includes(`${path.sep}zod${path.sep}`) || !code.includes('const F = Function;')) return null;
    return code.replaceAll(
      'const F = Function;',
      "const F = function () { throw new EvalError('code generation is disabled in the extension'); };",
    );
  },
};

async function buildFor(browser: Browser): Promise<Record<string, number>> {
  const out = path.join(dist, browser);
  mkdirSync(path.join(out, 'icons'), { recursive: true });
  // One self-contained IIFE per entry: a service worker, a content script and a page script cannot
  // share chunks the way a web app does. Rolldown drops the unused parts of zod that esbuild keeps.
  for (const [name, input] of Object.entries(ENTRIES)) {
    const bundle = await rolldown({
      input: path.join(here, input),
      resolve: { conditionNames: ['@linkwise/source', 'import', 'default'] },
      transform: {
        define: { __BROWSER__: JSON.stringify(browser) },
        target: browser === 'chrome' ? 'chrome120' : 'firefox128',
      },
      logLevel: 'warn',
      plugins: [noCodeGeneration],
    });
    await bundle.write({ file: path.join(out, `${name}.js`), format: 'iife', minify: true });
    await bundle.close();
  }
  for (const file of STATIC) copyFileSync(path.join(here, file), path.join(out, path.basename(file)));
  for (const size of [16, 32, 48, 128]) writeFileSync(path.join(out, 'icons', `icon-${size}.png`), iconPng(size));
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest(browser, version), null, 2)}\n`);
  const sizes: Record<string, number> = {};
  for (const name of Object.keys(ENTRIES)) sizes[`${name}.js`] = statSync(path.join(out, `${name}.js`)).size;
  sizes.zip = zip(out, path.join(dist, EXTENSION_DOWNLOADS[browser]));
  if (browser === 'chrome') {
    // The Chrome Web Store assigns its own id and refuses a manifest with `key`.
    const store = Buffer.from(`${JSON.stringify(manifest('chrome', version, { key: false }), null, 2)}\n`);
    sizes.storeZip = zip(out, path.join(dist, 'linkwise-chrome-store.zip'), { 'manifest.json': store });
  }
  return sizes;
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const sizes = { chrome: await buildFor('chrome'), firefox: await buildFor('firefox') };
writeFileSync(path.join(dist, 'sizes.json'), `${JSON.stringify(sizes, null, 2)}\n`);
console.log(`extension ${version}: ${JSON.stringify(sizes)}`);
