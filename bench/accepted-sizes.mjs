// npm run sizes: the largest input (3:2 photo, in megapixels) that the memory model and the pixel cap
// admit, per kind of input and output, as tabled in the README. Q=<quality> (default 80) sets the
// quality asked for; NOCAP=1 shows the model alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './import-sources.mjs';

const dir = mkdtempSync(join(tmpdir(), 'accepted-sizes-'));
const m = await importSources(dir, 'model', [
  "export { estimatePeakBytes } from './src/image/wasm/memory-model';",
  "export { ENGINE_BUDGET_BYTES, MAX_INPUT_PIXELS } from './src/limits/memory';",
  "export { baseHeader } from './src/image/header/header-defaults';",
  "export { fitSize } from './src/image/steps/fit-size';",
  "export { encoderQuality } from './src/image/quality-scale';",
]);
rmSync(dir, { recursive: true, force: true });

const KINDS = {
  'baseline JPEG': { format: 'jpeg', components: 3, maxSampling: { h: 2, v: 2 } },
  'progressive JPEG 4:2:0': { format: 'jpeg', progressive: true, components: 3, maxSampling: { h: 2, v: 2 } },
  'progressive JPEG 4:4:4': { format: 'jpeg', progressive: true, components: 3, maxSampling: { h: 1, v: 1 } },
  'PNG, RGB': { format: 'png', colorType: 2 },
  'PNG, RGBA': { format: 'png', colorType: 6, hasAlpha: true },
  'PNG, interlaced': { format: 'png', colorType: 2, interlaced: true },
  'lossy WebP': { format: 'webp' },
  'lossy WebP with alpha': { format: 'webp', hasAlpha: true },
  'lossless WebP': { format: 'webp', lossless: true },
};
const COLUMNS = [
  ['→ JPEG, full size', 'jpeg'],
  ['→ PNG, full size', 'png'],
  ['→ WebP, full size', 'webp'],
  ['→ JPEG, maxWidth 2560', 'jpeg', 2560],
  ['→ WebP, maxWidth 2560', 'webp', 2560],
];
const cap = process.env.NOCAP ? Infinity : m.MAX_INPUT_PIXELS;
const ceiling = process.env.NOCAP ? 400 : m.MAX_INPUT_PIXELS / 1e6;

function admits(kind, megapixels, format, maxWidth) {
  const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.5));
  const height = Math.round(width / 1.5);
  if (width * height > cap) return false;
  const header = { ...m.baseHeader(kind.format, width, height), ...kind };
  const out = { format, quality: m.encoderQuality(format, Number(process.env.Q ?? 80)), ...m.fitSize(width, height, maxWidth, undefined), orientation: 1 };
  return m.estimatePeakBytes(header, out) <= m.ENGINE_BUDGET_BYTES;
}

console.log(`| input | ${COLUMNS.map(([title]) => title).join(' | ')} |`);
console.log(`|---|${COLUMNS.map(() => '---|').join('')}`);
for (const [name, kind] of Object.entries(KINDS)) {
  const cells = COLUMNS.map(([, format, maxWidth]) => {
    let megapixels = 0;
    while (megapixels < ceiling && admits(kind, megapixels + 1, format, maxWidth)) megapixels++;
    return megapixels >= ceiling && process.env.NOCAP ? `${ceiling}+` : megapixels;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
