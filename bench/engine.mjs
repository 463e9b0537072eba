// Loads the engine the Worker uses: its TypeScript bundled by esbuild, the committed .wasm.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function loadEngine(root, cache) {
  const outfile = join(cache, 'engine.mjs');
  await build({
    stdin: {
      contents: `export { createWasmEngine } from './src/image/wasm/wasm-engine';
                 export { readHeader } from './src/image/header/read-header';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  const { createWasmEngine, readHeader } = await import(outfile);
  const wasmBytes = readFileSync(join(root, 'codecs/dist/engine.wasm'));
  return { createWasmEngine, readHeader, wasmBytes };
}
