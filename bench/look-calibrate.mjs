// Issue 36's measured look, calibrated: per photo of the seen parts of the development set (bench/one-look-set.mjs)
// and service quality, the `*/*` answer and WebP and AVIF at the scale's quality and 10 above, each scored by
// SSIMULACRA2 (whole image, against the input's decoded pixels) and by our look metric's terms
// (src/image/steps/look-metric.ts) on the window auto measures (src/image/steps/one-look.ts), decoded by the engine.
// Writes the rows to bench/.cache/look-calibrate.json, which the weights of look-metric.ts were chosen on.
// `CORPUS=/work/shared/corpus node bench/look-calibrate.mjs [part ...]`
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_LIMITS, loadEngine } from './engine.mjs';
import { importSources } from './import-sources.mjs';
import { ensureSsimulacra2 } from './ssimulacra2.mjs';
import { timeShell } from './tools.mjs';
import { oneLookPhotos } from './one-look-set.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const corpus = resolve(process.env.CORPUS ?? join(root, '../shared/corpus'));
const work = mkdtempSync(join(tmpdir(), 'look-calibrate-'));
const ssimulacra2 = ensureSsimulacra2(cache);
const loaded = await loadEngine(root, cache);
const engine = loaded.createWasmEngine(new WebAssembly.Module(loaded.wasmBytes));
const { lookTerms, lookWindow } = await importSources(cache, 'look-metric', ["export { lookTerms } from './src/image/steps/look-metric';", "export { lookWindow } from './src/image/steps/one-look';"], root);

const DECODE = {
  jpeg: 'djpeg -ppm $IN > $OUT',
  webp: 'dwebp -quiet $IN -ppm -o $OUT',
  png: 'pngtopnm $IN > $OUT',
  avif: 'avifdec -j 1 --ignore-icc $IN $IN.png > /dev/null && pngtopnm $IN.png > $OUT',
};
const FORMAT = { jpg: 'jpeg', png: 'png', webp: 'webp' };
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ['tuning', 'held-out', 'confirm', 'fresh', 'unseen', 'final'];
const saved = join(cache, 'look-calibrate.json');
const rows = existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : [];
const done = new Set(rows.map((row) => `${row.name} ${row.service}`));

for (const part of parts) {
  for (const { name, file } of oneLookPhotos(cache, corpus, part)) {
    const input = new Uint8Array(readFileSync(file));
    const header = loaded.readHeader(input);
    const reference = join(work, 'ref.ppm');
    timeShell(DECODE[FORMAT[name.split('.').at(-1)]].replaceAll('$IN', file).replaceAll('$OUT', reference));
    const window = lookWindow(header);
    const inputWindow = await engine.decodeWindow(input, header, window, BENCH_LIMITS);
    const measure = async (format, bytes) => {
      const out = join(work, `out.${format}`);
      writeFileSync(out, bytes);
      timeShell(DECODE[format].replaceAll('$IN', out).replaceAll('$OUT', join(work, 'out.ppm')));
      const decoded = await engine.decodeWindow(bytes, loaded.readHeader(bytes), window, BENCH_LIMITS);
      return { format, bytes: bytes.length, ssim: ssimulacra2.score(reference, join(work, 'out.ppm')), terms: lookTerms(inputWindow, decoded, window.width, window.height) };
    };
    for (const service of (process.env.LOOK_SERVICE ?? "70,90").split(",").map(Number)) {
      if (done.has(`${name} ${service}`)) continue;
      const base = await loaded.compressImage(input, { quality: service, format: 'auto', acceptsWebp: false, cpuBudgetMs: Infinity });
      const candidates = [await measure(base.format, base.bytes)];
      for (const format of ['webp', 'avif']) {
        for (const lift of [0, 10]) {
          const quality = Math.min(99, loaded.encoderQuality(format, service) + lift);
          const bytes = await engine.transcode(input, header, { format, quality, width: header.width, height: header.height }, BENCH_LIMITS);
          candidates.push({ ...(await measure(format, bytes)), quality });
        }
      }
      rows.push({ name, part, service, candidates });
      console.log(name, service, candidates.map((c) => `${c.format}${c.quality ?? ''} ${c.ssim.toFixed(1)}`).join(', '));
      writeFileSync(saved, JSON.stringify(rows));
    }
  }
}
