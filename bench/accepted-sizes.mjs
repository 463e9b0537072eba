// npm run sizes: the largest input (3:2 photo, in megapixels) that the memory model, the CPU model (a
// key's budget) and the pixel cap admit, per kind of input and output, as tabled in the README.
// Q=<quality> (default 80) sets the quality asked for; NOCAP=1 shows the models without the pixel cap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './import-sources.mjs';

const dir = mkdtempSync(join(tmpdir(), 'accepted-sizes-'));
const m = await importSources(dir, 'model', [
  "export { estimatePeakBytes, planEncoder } from './src/image/wasm/memory-model';",
  "export { estimateCpuMs } from './src/image/wasm/cpu-model';",
  "export { PAID_CPU_BUDGET_MS } from './src/limits/cpu';",
  "export { ENGINE_BUDGET_BYTES, MAX_INPUT_PIXELS } from './src/limits/memory';",
  "export { baseHeader } from './src/image/header/header-defaults';",
  "export { planGeometry } from './src/image/steps/geometry';",
  "export { encoderQuality } from './src/image/quality-scale';",
  "export { COMPRESS_MAX_BYTES } from './src/limits/sizes';",
]);
rmSync(dir, { recursive: true, force: true });

const S420 = [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }];
const S444 = [{ h: 1, v: 1 }, { h: 1, v: 1 }, { h: 1, v: 1 }];
/**
 * The file's size per pixel counts too (a WebP decoder holds the whole file; the never-larger path
 * copies the original; output is planned from the input's density): photos as cameras and exporters write
 * them, and never more than the 10 MB upload limit (a 24 MP RGB PNG of a photo is 36 MB: one that can be
 * sent compresses better).
 */
const KINDS = {
  'baseline JPEG': { format: 'jpeg', sampling: S420, fileBytesPerPixel: 0.25 },
  'progressive JPEG 4:2:0': { format: 'jpeg', progressive: true, coefficientsBuffered: true, sampling: S420, fileBytesPerPixel: 0.25 },
  'progressive JPEG 4:4:4': { format: 'jpeg', progressive: true, coefficientsBuffered: true, sampling: S444, fileBytesPerPixel: 0.35 },
  'PNG, RGB': { format: 'png', colorType: 2, fileBytesPerPixel: 1.5 },
  'PNG, RGBA': { format: 'png', colorType: 6, hasAlpha: true, fileBytesPerPixel: 2 },
  'PNG, interlaced': { format: 'png', colorType: 2, interlaced: true, fileBytesPerPixel: 1.5 },
  'lossy WebP': { format: 'webp', fileBytesPerPixel: 0.3 },
  'lossy WebP with alpha': { format: 'webp', hasAlpha: true, fileBytesPerPixel: 0.5 },
  'lossless WebP': { format: 'webp', lossless: true, fileBytesPerPixel: 1.5 },
  'AVIF 4:2:0, one frame': { format: 'avif', avif: { chroma: '420', bitDepth: 8 }, fileBytesPerPixel: 0.1 },
  'AVIF 10-bit 4:4:4 with alpha, one frame': { format: 'avif', hasAlpha: true, avif: { chroma: '444', bitDepth: 10, alpha: true }, fileBytesPerPixel: 0.2 },
  'AVIF grid of 1024x1024 cells, 4:2:0': { format: 'avif', avif: { chroma: '420', bitDepth: 8, cell: 1024 }, fileBytesPerPixel: 0.1 },
};
/** Inputs whose header is walked (src/image/header/heif-header.ts) but that no decoder reads yet: refused at every size. */
const WALKED = ['HEIC (HEVC, one image or a grid)'];

/** An AVIF header's layout (src/image/types.ts HeifImage): one frame, or a grid of cells of `cell` pixels a side. */
function heif({ chroma, bitDepth, alpha, cell }, width, height, fileBytes) {
  const columns = cell ? Math.ceil(width / cell) : 1;
  const rows = cell ? Math.ceil(height / cell) : 1;
  const count = columns * rows;
  const tiles = Array.from({ length: count }, (_, id) => ({ id, width: cell ?? width, height: cell ?? height, extents: [{ offset: 0, length: Math.round(fileBytes / count) }] }));
  const picture = { id: 0, width, height, codec: 'av01', config: new Uint8Array(4), bitDepth, chroma, tiles, ...(cell ? { grid: { rows, columns } } : {}) };
  return { brands: ['avif'], primary: picture, ...(alpha ? { alpha: { ...picture, bitDepth: 8, chroma: 'mono' } } : {}), premultiplied: false, colour: {}, orientation: 1 };
}
const COLUMNS = [
  ['→ JPEG, full size', 'jpeg'],
  ['→ PNG, full size', 'png'],
  ['→ WebP, full size', 'webp'],
  ['→ AVIF, full size', 'avif'],
  ['→ JPEG, maxWidth 2560', 'jpeg', 2560],
  ['→ WebP, maxWidth 2560', 'webp', 2560],
  ['→ AVIF, maxWidth 2560', 'avif', 2560],
  ['→ JPEG, 400x400 cover', 'jpeg', { width: 400, height: 400, fit: 'cover' }],
];
const cap = process.env.NOCAP ? Infinity : m.MAX_INPUT_PIXELS;
const ceiling = process.env.NOCAP ? 400 : m.MAX_INPUT_PIXELS / 1e6;

/** `box`: a maxWidth, or the geometry fields of a request. */
function admits(kind, megapixels, format, box) {
  const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.5));
  const height = Math.round(width / 1.5);
  if (width * height > cap) return false;
  const { fileBytesPerPixel = 0, avif, ...fields } = kind;
  const fileBytes = Math.min(m.COMPRESS_MAX_BYTES, Math.round(width * height * fileBytesPerPixel));
  const header = { ...m.baseHeader(kind.format, width, height), ...fields, fileBytes, ...(avif ? { heif: heif(avif, width, height, fileBytes) } : {}) };
  const fitted = m.planGeometry({ width, height }, typeof box === 'object' ? box : { maxWidth: box });
  const out = {
    format,
    quality: m.encoderQuality(format, Number(process.env.Q ?? 80)),
    width: fitted.width,
    height: fitted.height,
    ...(fitted.cropped ? { window: fitted.window } : {}),
    orientation: 1,
  };
  return m.estimatePeakBytes(header, out) <= m.ENGINE_BUDGET_BYTES && m.estimateCpuMs(header, out, m.planEncoder(header, out)) <= m.PAID_CPU_BUDGET_MS;
}

console.log(`| input | ${COLUMNS.map(([title]) => title).join(' | ')} |`);
console.log(`|---|${COLUMNS.map(() => '---|').join('')}`);
for (const [name, kind] of Object.entries(KINDS)) {
  const cells = COLUMNS.map(([, format, box]) => {
    let megapixels = 0;
    while (megapixels < ceiling && admits(kind, megapixels + 1, format, box)) megapixels++;
    return megapixels >= ceiling && process.env.NOCAP ? `${ceiling}+` : megapixels;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
for (const name of WALKED) console.log(`| ${name} | ${COLUMNS.map(() => 'not decoded yet').join(' | ')} |`);
