// Regenerates dot.wasm.ts from dot.wat: node apps/server/src/modules/search/wasm/compile.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import wabt from 'wabt';

const here = new URL('.', import.meta.url);
export async function compile() {
  const tools = await wabt();
  const module = tools.parseWat('dot.wat', readFileSync(new URL('dot.wat', here), 'utf8'), { simd: true });
  const { buffer } = module.toBinary({});
  module.destroy();
  return Buffer.from(buffer).toString('base64');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const base64 = await compile();
  writeFileSync(
    new URL('dot.wasm.ts', here),
    `/** dot.wat compiled (node apps/server/src/modules/search/wasm/compile.mjs); a test checks it is current. */\nexport const DOT_WASM =\n  '${base64}';\n`,
  );
}
