// npm run bench:quality: lossy PNG against pngquant at equal butteraugli, and the butteraugli
// distance of JPEG, WebP and lossy PNG at each quality, from which src/image/quality-scale.ts
// maps the service's one quality scale onto each encoder. Writes the Quality sections of
// docs/benchmarks.md. Needs the shared corpus (CORPUS, default ../shared/corpus).
import { readFileSync, writeFileSync, mkdtempSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSources } from './import-sources.mjs';
import { loadEngine } from './engine.mjs';
import { ensureTools, timeShell, butteraugli } from './tools.mjs';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const corpus = resolve(process.env.CORPUS ?? join(root, '../shared/corpus'));
const work = mkdtempSync(join(tmpdir(), 'quality-bench-'));

ensureTools();
const { createWasmEngine, readHeader, wasmBytes } = await loadEngine(root, cache);
const module = new WebAssembly.Module(wasmBytes);
const engine = createWasmEngine(module);

/** The corpus image as a PNG file: the reference of every distance (JPEG photos decoded by djpeg). */
function referencePng(folder, name) {
  const file = join(corpus, folder, name);
  if (name.endsWith('.png')) return file;
  const out = join(work, name.replace(/\.\w+$/, '.png'));
  if (!existsSync(out)) timeShell(`djpeg ${file} | pnmtopng > ${out}`);
  return out;
}

/** Encodes `file` with the engine at the encoder's own quality; bytes, ms, butteraugli. */
async function encode(file, format, quality) {
  const input = new Uint8Array(readFileSync(file));
  const header = readHeader(input);
  const start = performance.now();
  const bytes = await engine.transcode(input, header, { format, quality, width: header.width, height: header.height });
  const ms = performance.now() - start;
  const out = join(work, `out.${format === 'jpeg' ? 'jpg' : format}`);
  writeFileSync(out, bytes);
  let distance;
  if (format === 'png') distance = butteraugli(file, out);
  else {
    // butteraugli_main reads PNG and JPEG; WebP goes through dwebp first.
    const decoded = join(work, 'out-decoded.png');
    timeShell(format === 'webp' ? `dwebp -quiet ${out} -o ${decoded}` : `djpeg ${out} | pnmtopng > ${decoded}`);
    distance = butteraugli(file, decoded);
  }
  return { bytes: bytes.length, ms, distance };
}

/** Interpolates `key` at a distance along points sorted by distance (log of bytes, linear otherwise). */
function atDistance(points, distance, key) {
  const sorted = [...points].sort((a, b) => a.distance - b.distance);
  for (let i = 1; i < sorted.length; i++) {
    const [lo, hi] = [sorted[i - 1], sorted[i]];
    if (distance >= lo.distance && distance <= hi.distance) {
      const t = hi.distance === lo.distance ? 0 : (distance - lo.distance) / (hi.distance - lo.distance);
      return key === 'bytes' ? Math.exp(Math.log(lo.bytes) * (1 - t) + Math.log(hi.bytes) * t) : lo[key] * (1 - t) + hi[key] * t;
    }
  }
  return undefined;
}

/**
 * The engine's bytes and time at pngquant's distance, interpolated between its qualities, with a note
 * when that is not a plain interpolation.
 */
function engineAt(points, distance) {
  // No quality merged a colour: the exact image is the engine's answer at any distance.
  if (points.every((p) => p.distance === 0)) return { bytes: points[0].bytes, ms: points[0].ms, note: ' (kept exact at every quality)' };
  const ms = atDistance(points, distance, 'ms') ?? median(points.map((p) => p.ms));
  const bytes = atDistance(points, distance, 'bytes');
  if (bytes) return { bytes, ms, note: '' };
  const distances = points.map((p) => p.distance);
  if (distance > Math.max(...distances)) {
    // pngquant went farther than any engine quality: the engine's smallest file is also closer.
    const smallest = points.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    return { bytes: smallest.bytes, ms, note: ` (at distance ${smallest.distance.toFixed(2)})` };
  }
  return { ms, note: `out of range (engine ${Math.min(...distances).toFixed(2)}..${Math.max(...distances).toFixed(2)})` };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PNG_QUALITIES = [99, 95, 85, 75, 65, 55, 45, 35, 25];

async function lossyPngTable() {
  const lines = [
    '| image | pngquant bytes | pngquant butteraugli | pngquant ms | engine bytes at that distance | engine / pngquant bytes | engine ms / pngquant ms |',
    '|---|---|---|---|---|---|---|',
  ];
  const ratios = [];
  const speed = [];
  for (const folder of ['graphics', 'photos']) {
    for (const name of readdirSync(join(corpus, folder)).sort()) {
      const file = referencePng(folder, name);
      const pq = join(work, 'pq.png');
      const pqMs = timeShell(`pngquant --quality=65-80 --force --output ${pq} ${file} || true`);
      if (!existsSync(pq)) continue;
      const pqBytes = readFileSync(pq).length;
      const pqDistance = butteraugli(file, pq);
      timeShell(`rm -f ${pq}`);
      const points = [];
      for (const quality of PNG_QUALITIES) points.push({ quality, ...(await encode(file, 'png', quality)) });
      const { bytes, ms, note } = engineAt(points, pqDistance);
      const ratio = bytes ? bytes / pqBytes : undefined;
      if (ratio) ratios.push(ratio);
      speed.push(ms / pqMs);
      lines.push(`| ${name} | ${pqBytes} | ${pqDistance.toFixed(2)} | ${pqMs.toFixed(0)} | ${bytes ? Math.round(bytes) : ''}${note} | ${ratio ? ratio.toFixed(3) : '-'} | ${(ms / pqMs).toFixed(2)} |`);
      console.log(lines.at(-1));
    }
  }
  lines.push(`| **median** | | | | | **${median(ratios).toFixed(3)}** | **${median(speed).toFixed(2)}** |`);
  lines.push(`| **largest** | | | | | **${Math.max(...ratios).toFixed(3)}** | **${Math.max(...speed).toFixed(2)}** |`);
  return lines;
}

const SCALE = { jpeg: [30, 40, 50, 60, 70, 80, 85, 90, 95], webp: [30, 40, 50, 60, 70, 80, 85, 90, 95], png: [99, 95, 90, 85, 80, 75, 70, 65, 60, 50, 40, 30] };

async function distanceTable() {
  const photos = readdirSync(join(corpus, 'photos')).filter((n) => n.startsWith('skimage-')).sort();
  const rows = [];
  for (const [format, qualities] of Object.entries(SCALE)) {
    for (const quality of qualities) {
      const results = [];
      for (const name of photos) results.push(await encode(referencePng('photos', name), format, quality));
      rows.push({ format, quality, distance: median(results.map((r) => r.distance)), bytes: median(results.map((r) => r.bytes)) });
      console.log(rows.at(-1));
    }
  }
  const lines = ['| encoder | encoder quality | median butteraugli 3-norm | median bytes |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.format} | ${r.quality} | ${r.distance.toFixed(3)} | ${r.bytes} |`);
  return { photos, lines };
}

/** The mapping src/image/quality-scale.ts makes of these numbers, as a table. */
async function mappingLines() {
  const { encoderQuality } = await importSources(cache, 'quality-scale', ["export { encoderQuality } from './src/image/quality-scale';"]);
  const lines = ['| service quality | JPEG (mozjpeg) quality | WebP quality | lossy PNG quality |', '|---|---|---|---|'];
  for (const q of [10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 100]) {
    const png = encoderQuality('png', q);
    lines.push(`| ${q} | ${encoderQuality('jpeg', q)} | ${encoderQuality('webp', q)} | ${png === 100 ? '100 (lossless)' : png} |`);
  }
  return lines;
}

const started = new Date().toISOString();
const sha = JSON.parse(readFileSync(join(root, 'codecs/dist/manifest.json'), 'utf8')).sha256.slice(0, 16);
const only = process.argv[2];
const lossy = only === 'scale' ? null : await lossyPngTable();
const scale = only === 'png' ? null : await distanceTable();
if (!only) {
  writeDocSection('quality', 'bench:quality', [
    '## Quality: lossy PNG against pngquant at equal butteraugli',
    '',
    `\`npm run bench:quality\` on ${started} (Node ${process.version}; engine sha256 ${sha}...). Every graphic and photo of the corpus`,
    '(JPEG photos decoded by djpeg into the reference PNG). pngquant 2.17 `--quality=65-80` (libimagequant, GPL-3) against the engine',
    `at PNG encoder qualities ${PNG_QUALITIES.join(', ')}: the engine's bytes and time are interpolated at pngquant's butteraugli`,
    '(3-norm) distance. Times are wall-clock, single-threaded, engine in WASM vs native.',
    '',
    ...lossy,
    '',
    '## Quality: one scale for JPEG, WebP and lossy PNG',
    '',
    `Median butteraugli 3-norm over the corpus photos ${scale.photos.join(', ')} at each encoder's own quality (same run).`,
    'src/image/quality-scale.ts maps the service quality onto each encoder from these numbers: the service quality is',
    "mozjpeg's; WebP and lossy PNG get the quality of their encoder that gives the same median distance (interpolated).",
    '',
    ...scale.lines,
    '',
    ...(await mappingLines()),
  ]);
}
