// Loads an engine as the Worker uses it: its TypeScript bundled by esbuild, its committed .wasm. The
// current one is this checkout's; a baseline is another git revision's (or another checkout's) own
// src/ and codecs/dist, so two engines whose glue differs can run side by side in one process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importSources } from './import-sources.mjs';

/**
 * The limits the bench's jobs run with: the service's CPU budget is read from the clock where a job hands
 * the event loop back, and a machine loaded by other work slows a long job past it (24 MP to low-memory
 * WebP was stopped at 45 s of wall time); the bench measures, it does not enforce.
 */
export const BENCH_LIMITS = { cpuBudgetMs: Infinity };

export async function loadEngine(root, cache, from = root, engineName = 'engine') {
  // Named for the checkout it is bundled from: worktrees may share one cache, and a run must import its own code.
  const name = `${engineName}-${createHash('sha256').update(resolve(from)).digest('hex').slice(0, 8)}`;
  const { createWasmEngine, readHeader, planEncoder, encoderQuality, compressImage } = await importSources(
    cache,
    name,
    [
      "export { createWasmEngine } from './src/image/wasm/wasm-engine';",
      "export { readHeader } from './src/image/header/read-header';",
      "export { planEncoder } from './src/image/wasm/memory-model';",
      "export { encoderQuality } from './src/image/quality-scale';",
      // The whole image path, as the API runs it, on its own engine over the committed module.
      "export { compressImage } from './src/image/pipeline';",
    ],
    from,
  );
  const wasmBytes = readFileSync(join(from, 'codecs/dist/engine.wasm'));
  const sha256 = JSON.parse(readFileSync(join(from, 'codecs/dist/manifest.json'), 'utf8')).sha256;
  // The bundled TypeScript and the module together: what decides an output, so a point made by them can be kept.
  const codeSha256 = createHash('sha256').update(readFileSync(join(cache, `${name}.mjs`))).update(wasmBytes).digest('hex');
  return { createWasmEngine, readHeader, planEncoder, encoderQuality, compressImage, wasmBytes, sha256, codeSha256, from };
}

const git = (root, ...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** A clone of a branch may know main only as origin/main. */
function mergeBaseWithMain(root) {
  for (const main of ['main', 'origin/main']) {
    try {
      return git(root, 'merge-base', 'HEAD', main);
    } catch {
      // try the next name
    }
  }
  throw new Error('no main branch to take the baseline engine from: set BASELINE to a git revision or a checkout');
}

/**
 * The baseline engine: BASELINE (or `variable`, e.g. TODAY) names a git revision (default: the merge base of
 * HEAD and main, i.e. the engine this branch started from) or the path of another checkout. A revision's src/ and
 * codecs/dist are extracted once into bench/.cache/baseline-<sha>.
 */
export async function loadBaseline(root, cache, baseline = process.env.BASELINE, variable = 'BASELINE') {
  if (baseline && existsSync(baseline) && statSync(baseline).isDirectory()) {
    const dir = resolve(baseline);
    return { ...(await loadEngine(root, cache, dir, `${variable.toLowerCase()}-engine`)), label: `${variable}=${dir}` };
  }
  const rev = baseline ?? mergeBaseWithMain(root);
  const named = baseline ? `${variable}=${baseline}` : 'the merge base with main';
  const sha = git(root, 'rev-parse', '--verify', `${rev}^{commit}`);
  const dir = join(cache, `baseline-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, 'codecs/dist/engine.wasm'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git -C '${root}' archive ${sha} src codecs/dist | tar -x -C '${dir}'`]);
  }
  const engine = await loadEngine(root, cache, dir, `baseline-${sha.slice(0, 12)}-engine`);
  return { ...engine, revision: sha, label: `${named} (${git(root, 'log', '-1', '--format=%h %cs', sha)})` };
}
