// Loads the engine the Worker uses: its TypeScript bundled by esbuild, the committed .wasm.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSources } from './import-sources.mjs';

export async function loadEngine(root, cache) {
  const { createWasmEngine, readHeader } = await importSources(cache, 'engine', [
    "export { createWasmEngine } from './src/image/wasm/wasm-engine';",
    "export { readHeader } from './src/image/header/read-header';",
  ]);
  const wasmBytes = readFileSync(join(root, 'codecs/dist/engine.wasm'));
  return { createWasmEngine, readHeader, wasmBytes };
}
