// SSIMULACRA2, the reference tool from Debian trixie's libjxl-devtools (bookworm's 0.7 has none), which does
// not install on bookworm: taken from trixie under bench/.cache/trixie (bench/trixie-tools.mjs).
import { spawnSync } from 'node:child_process';
import { trixiePackage } from './trixie-tools.mjs';

/**
 * Sets the tool up in `cache` (once) and returns `score(reference, distorted)` for two PPM files (PNGs
 * with gAMA or cHRM would be scored in their own colour space) and the trixie packages used.
 */
export function ensureSsimulacra2(cache) {
  const { command, versions } = trixiePackage(cache, 'libjxl-devtools', 'trixie');
  const prefix = command('ssimulacra2');

  /**
   * SSIMULACRA2 score of `distorted` against `reference` (100 is identical, higher is better); undefined
   * for an image under 8x8 pixels, which the tool does not score.
   */
  function score(reference, distorted) {
    const result = spawnSync(prefix[0], [...prefix.slice(1), reference, distorted], { encoding: 'utf8' });
    if (result.status !== 0 && /Minimum image size/.test(result.stderr)) return undefined;
    if (result.status !== 0) throw new Error(`ssimulacra2 ${reference} ${distorted} failed:\n${result.stderr}`);
    const out = result.stdout;
    const value = Number(out.trim());
    if (!Number.isFinite(value)) throw new Error(`ssimulacra2 printed no score: ${out}`);
    return value;
  }
  return { score, versions };
}
