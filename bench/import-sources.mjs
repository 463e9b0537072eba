// The benchmarks run on Node and measure the Worker's own TypeScript: esbuild bundles the named
// exports of src/ into one module under `dir`, which is then imported.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Worker imports codecs/dist/engine.wasm as a compiled module (wrangler); on Node, so does the bundle. */
const wasmAsModule = {
  name: 'wasm-as-module',
  setup(build) {
    build.onLoad({ filter: /\.wasm$/ }, ({ path }) => ({
      contents: `import { readFileSync } from 'node:fs'; export default new WebAssembly.Module(readFileSync(${JSON.stringify(path)}));`,
      loader: 'js',
    }));
  },
};

/**
 * `reexports` are lines like "export { readHeader } from './src/image/header/read-header';", resolved
 * from `from` (another checkout's tree, e.g. a baseline engine's; packages still come from ours).
 */
export async function importSources(dir, name, reexports, from = root) {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: { contents: reexports.join('\n'), resolveDir: from, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'warning',
    plugins: [wasmAsModule],
  });
  return import(outfile);
}
