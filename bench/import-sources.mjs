// The benchmarks run on Node and measure the Worker's own TypeScript: esbuild bundles the named
// exports of src/ into one module under `dir`, which is then imported.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `reexports` are lines like "export { readHeader } from './src/image/header/read-header';". */
export async function importSources(dir, name, reexports) {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: { contents: reexports.join('\n'), resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  return import(outfile);
}
