// npm run bench:quality: lossy PNG against pngquant at equal butteraugli; JPEG bytes of this engine
// against a BASELINE engine at equal SSIMULACRA2 and at equal butteraugli; and the quality scale
// (src/image/quality-scale.ts) fitted on both metrics. Writes the Quality sections of docs/benchmarks.md.
// `node bench/quality.mjs png|jpeg|scale|avif|avif-scale` runs and writes one section. `node bench/quality.mjs variant
// '{"jpegAdaptiveQuantization":true}'` prints the JPEG comparison for the current engine with those
// createWasmEngine options ("jpegPlan": a JPEG plan forced, e.g. "optimized"), writing nothing (issue 15:
// what fits the photos jpegli loses on). PHOTOS (comma-separated names) narrows the photos. Needs the shared corpus (CORPUS, default
// ../shared/corpus). BASELINE: a git revision or another checkout (bench/engine.mjs). `node bench/quality.mjs resaved`: JPEG
// from JPEG on the development set of already compressed photos (bench/resaved-quality.mjs), against BASELINE and cjpeg,
// this checkout beside TODAY's code (a revision, default the merge base with main); RESAVED_PART=tuning or held-out
// narrows it to one part (the section says so); PHOTOS prints instead of writing. `node bench/quality.mjs masters`: the corpus's
// JPEG photos through the same comparison (what JPEG from JPEG changes must keep their results). `node bench/quality.mjs
// confirm`: the development set's confirm part alone, in a section of its own (run it only to confirm a change); `fresh`
// likewise its fresh part, `unseen` its unseen part (never run while tuning), and `final` and `reserve` its final and
// reserve parts (each run once, on a session's final code). `node bench/quality.mjs oracle`: how jagged our curve is near each service
// quality on a part (RESAVED_PART, default tuning) and what picking along it would save (bench/resaved-oracle.mjs;
// RESAVED_SWEEP: the steps of jpegli's quality around the emitted one, default -6,-4,-2,2,4,6); prints, writes nothing.
// `node bench/quality.mjs one-look`: issue 36's one look across formats on its development set (bench/one-look.mjs), the
// tuning part with its sweeps; ONE_LOOK_PART=held-out, confirm, fresh, unseen or final that part, ONE_LOOK_SWEEP=0 or 1 without
// or with sweeps. The whole run writes the section of every part, without sweeps.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBaseline, loadEngine } from './engine.mjs';
import { ensureTools, timeShell, butteraugli } from './tools.mjs';
import { ensureSsimulacra2 } from './ssimulacra2.mjs';
import { writeDocSection } from './doc-section.mjs';
import { atScore, median } from './curves.mjs';
import { RESAVED_SERVICE, resavedComparison } from './resaved-quality.mjs';
import { resavedPhotos } from './resaved.mjs';
import { resavedOracle } from './resaved-oracle.mjs';
import { ONE_LOOK_SERVICE, oneLookFitTable, oneLookRows, oneLookTables } from './one-look.mjs';
import { ONE_LOOK_PARTS } from './one-look-set.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const corpus = resolve(process.env.CORPUS ?? join(root, '../shared/corpus'));
const work = mkdtempSync(join(tmpdir(), 'quality-bench-'));

ensureTools();
const ssimulacra2 = ensureSsimulacra2(cache);
const only = process.argv[2];
/** The variant mode's engine options; a forced JPEG plan becomes a plan function. */
function engineOptions(loaded) {
  if (only === 'avif' && process.env.AVIF_VARIANT) return { avif: JSON.parse(process.env.AVIF_VARIANT) };
  if (only !== 'variant') return {};
  const { jpegPlan, ...options } = JSON.parse(process.argv[3] ?? '{}');
  return jpegPlan ? { ...options, plan: (header, out) => ({ ...loaded.planEncoder(header, out), jpeg: jpegPlan }) } : options;
}
/** An engine ready to transcode, with its own header reader and quality scale. */
const ready = (loaded, options = {}) => ({ ...loaded, engine: loaded.createWasmEngine(new WebAssembly.Module(loaded.wasmBytes), options) });
const currentLoaded = await loadEngine(root, cache);
const current = ready(currentLoaded, engineOptions(currentLoaded));
const baseline = ready(await loadBaseline(root, cache));
const engine = current.engine;
const readHeader = current.readHeader;

/** The corpus image as a PNG file: the reference of every distance (JPEG photos decoded by djpeg). */
function referencePng(folder, name) {
  const file = join(corpus, folder, name);
  if (name.endsWith('.png')) return file;
  const out = join(work, name.replace(/\.\w+$/, '.png'));
  if (!existsSync(out)) timeShell(`djpeg ${file} | pnmtopng > ${out}`);
  return out;
}

/**
 * Lossy PNG of `file` by the engine at an encoder quality: bytes, ms, butteraugli (PNG against PNG, as
 * pngquant's file is scored) and SSIMULACRA2 (both as PPM, against `reference`).
 */
async function encodePng(file, reference, quality) {
  const input = new Uint8Array(readFileSync(file));
  const header = readHeader(input);
  const start = performance.now();
  const bytes = await engine.transcode(input, header, { format: 'png', quality, width: header.width, height: header.height });
  const ms = performance.now() - start;
  const out = join(work, 'out.png');
  writeFileSync(out, bytes);
  return { bytes: bytes.length, ms, distance: butteraugli(file, out), ssim: scorePng(reference, out) };
}

/** SSIMULACRA2 of a PNG against a PPM reference. */
function scorePng(reference, png) {
  const ppm = join(work, 'png-scored.ppm');
  timeShell(`pngtopnm ${png} > ${ppm}`);
  return ssimulacra2.score(reference, ppm);
}

/**
 * The engine's bytes and time at pngquant's score on `metric` ('distance' or 'ssim'), interpolated
 * between its qualities, with a note when that is not a plain interpolation.
 */
function engineAt(points, metric, value) {
  // No quality merged a colour: the exact image is the engine's answer at any score.
  if (points.every((p) => p.distance === 0)) return { bytes: points[0].bytes, ms: points[0].ms, note: ' (kept exact at every quality)' };
  const ms = atScore(points, metric, value, 'ms') ?? median(points.map((p) => p.ms));
  const bytes = atScore(points, metric, value, 'bytes');
  if (bytes) return { bytes, ms, note: '' };
  const scores = points.map((p) => p[metric]);
  const worse = metric === 'distance' ? value > Math.max(...scores) : value < Math.min(...scores);
  if (worse) {
    // pngquant looks worse than any engine quality: the engine's smallest file also looks better.
    const smallest = points.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    return { bytes: smallest.bytes, ms, note: ` (at ${smallest[metric].toFixed(2)})` };
  }
  return { ms, note: `out of range (engine ${Math.min(...scores).toFixed(2)}..${Math.max(...scores).toFixed(2)})` };
}

const PNG_QUALITIES = [99, 95, 85, 75, 65, 55, 45, 35, 25];

async function lossyPngTable() {
  const lines = [
    '| image | pngquant bytes | pngquant butteraugli | pngquant SSIMULACRA2 | pngquant ms | engine bytes at that distance | engine / pngquant bytes | engine bytes at that SSIMULACRA2 | engine / pngquant bytes | engine ms / pngquant ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const ratios = { distance: [], ssim: [] };
  const speed = [];
  for (const folder of ['graphics', 'photos']) {
    for (const name of readdirSync(join(corpus, folder)).sort()) {
      const file = referencePng(folder, name);
      const reference = referencePpm(folder, name);
      const pq = join(work, 'pq.png');
      const pqMs = timeShell(`pngquant --quality=65-80 --force --output ${pq} ${file} || true`);
      if (!existsSync(pq)) continue;
      const pqBytes = readFileSync(pq).length;
      const pqScores = { distance: butteraugli(file, pq), ssim: scorePng(reference, pq) };
      timeShell(`rm -f ${pq}`);
      const points = [];
      for (const quality of PNG_QUALITIES) points.push({ quality, ...(await encodePng(file, reference, quality)) });
      const cells = [];
      for (const metric of ['distance', 'ssim']) {
        if (pqScores[metric] === undefined) {
          cells.push('not scored (under 8x8) | -');
          continue;
        }
        const { bytes, note } = engineAt(points, metric, pqScores[metric]);
        const ratio = bytes ? bytes / pqBytes : undefined;
        if (ratio) ratios[metric].push(ratio);
        cells.push(`${bytes ? Math.round(bytes) : ''}${note} | ${ratio ? ratio.toFixed(3) : '-'}`);
      }
      const { ms } = engineAt(points, 'distance', pqScores.distance);
      speed.push(ms / pqMs);
      lines.push(`| ${name} | ${pqBytes} | ${pqScores.distance.toFixed(2)} | ${pqScores.ssim?.toFixed(2) ?? '-'} | ${pqMs.toFixed(0)} | ${cells.join(' | ')} | ${(ms / pqMs).toFixed(2)} |`);
      console.log(lines.at(-1));
    }
  }
  lines.push(`| **median** | | | | | | **${median(ratios.distance).toFixed(3)}** | | **${median(ratios.ssim).toFixed(3)}** | **${median(speed).toFixed(2)}** |`);
  lines.push(`| **largest** | | | | | | **${Math.max(...ratios.distance).toFixed(3)}** | | **${Math.max(...ratios.ssim).toFixed(3)}** | **${Math.max(...speed).toFixed(2)}** |`);
  return lines;
}

/** The corpus image as a PPM file, the reference both metrics score against (JPEG photos decoded by djpeg). */
function referencePpm(folder, name) {
  const out = join(work, `${name}.ppm`);
  const file = join(corpus, folder, name);
  if (!existsSync(out)) timeShell(name.endsWith('.png') ? `pngtopnm ${file} > ${out}` : `djpeg -ppm ${file} > ${out}`);
  return out;
}

/** A JPEG outside the corpus (a re-saved photo) decoded to the PPM reference. */
function referenceOf(file) {
  const out = join(work, `${file.split('/').at(-1)}.ppm`);
  if (!existsSync(out)) timeShell(`djpeg -ppm ${file} > ${out}`);
  return out;
}

const DECODE_TO_PPM = {
  jpeg: 'djpeg -ppm $IN > $OUT',
  webp: 'dwebp -quiet $IN -ppm -o $OUT',
  png: 'pngtopnm $IN > $OUT',
  avif: 'avifdec -j 1 --ignore-icc $IN $IN.png > /dev/null && pngtopnm $IN.png > $OUT',
};
const scoredCache = new Map();

/**
 * Encodes a corpus photo with `side` (current or baseline) at the encoder's own quality and scores the
 * output, decoded to PPM, against the reference on both metrics. Memoised: the JPEG comparison and the
 * scale fit share encodes.
 */
async function scored(side, name, format, quality) {
  const key = `${side.sha256}:${side.label}:${name}:${format}:${quality}`;
  if (scoredCache.has(key)) return scoredCache.get(key);
  const input = new Uint8Array(readFileSync(photoFile(name)));
  const header = side.readHeader(input);
  const bytes = await side.engine.transcode(input, header, { format, quality, width: header.width, height: header.height });
  const result = { quality, ...scoreOutput(name, format, bytes) };
  scoredCache.set(key, result);
  return result;
}

/** A corpus photo by name, or a re-saved one by its path. */
const photoFile = (name) => (name.startsWith('/') ? name : join(corpus, 'photos', name));

/** Bytes and both scores of an output of `format`, decoded to PPM, against the photo's reference. */
function scoreOutput(name, format, bytes) {
  // auto answers one of the outputs already scored: the same bytes score the same.
  const same = `${name}:${format}:${createHash('sha256').update(bytes).digest('hex')}`;
  if (!outputScores.has(same)) outputScores.set(same, scoreOutputOnce(name, format, bytes));
  return outputScores.get(same);
}
const outputScores = new Map();

function scoreOutputOnce(name, format, bytes) {
  const out = join(work, `scored.${format}`);
  const ppm = join(work, 'scored.ppm');
  writeFileSync(out, bytes);
  timeShell(DECODE_TO_PPM[format].replaceAll('$IN', out).replaceAll('$OUT', ppm));
  const reference = name.startsWith('/') ? referenceOf(name) : referencePpm('photos', name);
  return { bytes: bytes.length, distance: butteraugli(reference, ppm), ssim: ssimulacra2.score(reference, ppm) };
}

/** What the API answers for the photo at a service quality (the whole image path: for a JPEG, steps on its grid, re-coding, never-larger). */
async function answered(name, request) {
  const result = await current.compressImage(new Uint8Array(readFileSync(photoFile(name))), { acceptsWebp: false, ...request });
  return { format: result.format, notes: result.notes, ...scoreOutput(name, result.format, result.bytes) };
}

const METRICS = [
  { key: 'ssim', title: 'SSIMULACRA2', digits: 2 },
  { key: 'distance', title: 'butteraugli', digits: 3 },
];
/** Service qualities the JPEG comparison reports; the sweep of the current encoder brackets their looks. */
const COMPARED = [75, 80, 85];
const JPEG_SWEEP = [30, 40, 50, 60, 65, 70, 75, 80, 85, 90, 95];
const photoNames = () => readdirSync(join(corpus, 'photos')).sort().filter((n) => !process.env.PHOTOS || process.env.PHOTOS.split(',').includes(n));

/**
 * Per photo and service quality: the baseline's JPEG at that quality (its own scale), and the current
 * engine's bytes at the baseline's score on each metric, interpolated along its quality sweep.
 */
async function jpegComparison() {
  const rows = [];
  for (const name of photoNames()) {
    const sweep = [];
    for (const quality of JPEG_SWEEP) sweep.push(await scored(current, name, 'jpeg', quality));
    for (const service of COMPARED) {
      const base = await scored(baseline, name, 'jpeg', baseline.encoderQuality('jpeg', service));
      const ratios = Object.fromEntries(METRICS.map(({ key }) => [key, (atScore(sweep, key, base[key], 'bytes') ?? NaN) / base.bytes]));
      rows.push({ name, service, base, ratios });
      console.log(name, service, base, ratios);
    }
  }
  const fmt = (r) => (Number.isNaN(r) ? 'out of sweep' : r.toFixed(3));
  const lines = [
    '| service quality | median bytes at equal SSIMULACRA2 | largest (photo) | median bytes at equal butteraugli | largest (photo) |',
    '|---|---|---|---|---|',
  ];
  for (const service of COMPARED) {
    const at = rows.filter((r) => r.service === service);
    const cells = METRICS.map(({ key }) => {
      const valid = at.filter((r) => !Number.isNaN(r.ratios[key]));
      const missing = at.length - valid.length;
      if (!valid.length) return `out of sweep | -`;
      const worst = valid.reduce((a, b) => (b.ratios[key] > a.ratios[key] ? b : a), valid[0]);
      return `**${median(valid.map((r) => r.ratios[key])).toFixed(3)}**${missing ? ` (${missing} out of sweep)` : ''} | ${worst.ratios[key].toFixed(3)} (${worst.name})`;
    });
    lines.push(`| ${service} | ${cells.join(' | ')} |`);
  }
  lines.push('', '| photo | service quality | baseline bytes | baseline SSIMULACRA2 | current / baseline at equal SSIMULACRA2 | baseline butteraugli | current / baseline at equal butteraugli |', '|---|---|---|---|---|---|---|');
  for (const r of rows) lines.push(`| ${r.name} | ${r.service} | ${r.base.bytes} | ${r.base.ssim.toFixed(2)} | ${fmt(r.ratios.ssim)} | ${r.base.distance.toFixed(3)} | ${fmt(r.ratios.distance)} |`);
  return lines;
}

/**
 * The AVIF comparison's rows already measured, one file per photo under bench/.cache/avif-rows, keyed by what makes
 * them (the engine's module and bundled TypeScript, AVIF_VARIANT): processes given disjoint PHOTOS share the work of
 * a long run on a shared machine, and a last run over every photo writes the section from them.
 */
function avifRowsCache() {
  const key = createHash('sha256').update(current.codeSha256).update(process.env.AVIF_VARIANT ?? '').digest('hex').slice(0, 16);
  const dir = join(cache, 'avif-rows', key);
  mkdirSync(dir, { recursive: true });
  const path = (file) => join(dir, `${file.split('/').at(-1)}.json`);
  return {
    // JSON writes a ratio out of the sweep (NaN) as null.
    load: (file) => (existsSync(path(file)) ? JSON.parse(readFileSync(path(file), 'utf8'), (key, value) => (value === null ? NaN : value)) : undefined),
    save: (file, rows) => writeFileSync(path(file), JSON.stringify(rows)),
  };
}

let avifRowsReused = 0;

/** Service qualities the AVIF comparison reports. */
const AVIF_COMPARED = [80];

/**
 * Per photo: our JPEG and WebP at the service quality, and AVIF's bytes at their scores (both metrics), from a
 * sweep of AVIF's own qualities; AVIF at the same service quality for the look.
 */
async function avifComparison() {
  const wanted = ({ name }) => !process.env.PHOTOS || process.env.PHOTOS.split(',').includes(name);
  // Corpus photos by name, the development set's re-saved ones by path (scored() tells them apart).
  const resaved = resavedPhotos(cache, corpus).filter(wanted);
  const heldOut = resaved.filter((p) => p.part === 'held-out').map((p) => p.name);
  const photos = [...photoNames(), ...resaved.map((p) => p.file)];
  const rows = [];
  const done = avifRowsCache();
  for (const file of photos) {
    const kept = done.load(file);
    if (kept) {
      rows.push(...kept);
      avifRowsReused++;
      continue;
    }
    const sweep = [];
    for (const quality of AVIF_COMPARE_SWEEP) sweep.push(await scored(current, file, 'avif', quality));
    for (const service of AVIF_COMPARED) {
      // Our JPEG and WebP as the API answers them; what auto answers a browser that takes AVIF.
      const jpeg = await answered(file, { quality: service, format: 'jpeg' });
      const webp = await answered(file, { quality: service, format: 'webp' });
      const auto = await answered(file, { quality: service, format: 'auto', acceptsWebp: true, acceptsAvif: true });
      const avif = await answered(file, { quality: service, format: 'avif' });
      const ratio = (base, key) => (atScore(sweep, key, base[key], 'bytes') ?? NaN) / base.bytes;
      const row = { name: file.split('/').at(-1), resaved: file.startsWith('/'), service, jpeg, webp, avif, auto, ratios: Object.fromEntries(['ssim', 'distance'].flatMap((key) => [[`jpeg-${key}`, ratio(jpeg, key)], [`webp-${key}`, ratio(webp, key)]])) };
      rows.push(row);
      // The AVIF quality whose look (SSIMULACRA2) is our JPEG's: what the scale would need to give this photo.
      row.lookQuality = atScore(sweep, 'ssim', jpeg.ssim, 'quality');
      console.log(row.name, service, row.ratios, avif.ssim - jpeg.ssim, auto.format, auto.bytes, jpeg.notes, row.lookQuality);
    }
    done.save(file, rows.filter((r) => r.name === file.split('/').at(-1)));
  }
  const fmt = (r) => (Number.isNaN(r) ? 'out of sweep' : r.toFixed(3));
  const columns = ['jpeg-ssim', 'webp-ssim', 'jpeg-distance', 'webp-distance'];
  const lines = [
    '| photos | service quality | AVIF / JPEG at equal SSIMULACRA2: median, largest | AVIF / WebP at equal SSIMULACRA2 | AVIF / JPEG at equal butteraugli | AVIF / WebP at equal butteraugli | AVIF − JPEG SSIMULACRA2, median |',
    '|---|---|---|---|---|---|---|',
  ];
  const groups = [
    ['all', () => true],
    ['corpus', (r) => !r.resaved],
    ['re-saved', (r) => r.resaved],
    ['held out', (r) => heldOut.includes(r.name)],
  ];
  for (const service of AVIF_COMPARED) {
    for (const [label, keep] of groups) {
      const at = rows.filter((r) => r.service === service && keep(r));
      const cells = columns.map((key) => {
        const valid = at.filter((r) => !Number.isNaN(r.ratios[key]));
        const worst = valid.reduce((a, b) => (b.ratios[key] > a.ratios[key] ? b : a), valid[0]);
        return valid.length ? `**${median(valid.map((r) => r.ratios[key])).toFixed(3)}**, ${worst.ratios[key].toFixed(3)} (${worst.name})` : 'out of sweep';
      });
      lines.push(`| ${label} | ${service} | ${cells.join(' | ')} | ${median(at.map((r) => r.avif.ssim - r.jpeg.ssim)).toFixed(1)} |`);
    }
  }
  lines.push(
    '',
    `| photo | service quality | JPEG bytes | JPEG SSIMULACRA2 | WebP bytes | WebP SSIMULACRA2 | AVIF bytes | AVIF SSIMULACRA2 | AVIF / JPEG (S) | AVIF / WebP (S) | AVIF / JPEG (B) | AVIF / WebP (B) | auto answers | its SSIMULACRA2 | AVIF quality at JPEG's SSIMULACRA2 (the scale's: ${current.encoderQuality('avif', AVIF_COMPARED[0])}) |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    const held = heldOut.includes(r.name) ? ' (held out)' : '';
    const kept = r.jpeg.notes.filter((note) => note === 'original-returned' || note === 'lossless-recoded');
    lines.push(
      `| ${r.name}${held} | ${r.service} | ${r.jpeg.bytes}${kept.length ? ` (${kept.join(', ')})` : ''} | ${r.jpeg.ssim.toFixed(2)} | ${r.webp.bytes} | ${r.webp.ssim.toFixed(2)} | ${r.avif.bytes} | ${r.avif.ssim.toFixed(2)} | ${columns.map((key) => fmt(r.ratios[key])).join(' | ')} | ${r.auto.format} ${r.auto.bytes} | ${r.auto.ssim.toFixed(2)} | ${r.lookQuality === undefined ? 'out of sweep' : r.lookQuality.toFixed(1)} |`,
    );
  }
  return lines;
}

/** Service qualities the scale is fitted at, and each encoder's own qualities it is measured at. */
const SERVICE = [30, 40, 50, 60, 70, 75, 80, 85, 90, 95];
// Low qualities too: jpegli and WebP at 30 already look better than the reference at service 30.
const AVIF_SWEEP = [10, 20, 30, 40, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95];
/** AVIF's qualities that bracket our JPEG's and WebP's scores at service 80 on every photo (SSIMULACRA2 55 to 85). */
const AVIF_COMPARE_SWEEP = [35, 45, 55, 65, 75, 85];
const FORMAT_TITLES = { jpeg: 'JPEG', webp: 'WebP', png: 'lossy PNG', avif: 'AVIF' };
const SCALE = {
  jpeg: [5, 10, 15, 20, 25, ...JPEG_SWEEP],
  webp: [10, 20, 30, 40, 50, 60, 70, 80, 85, 90, 95],
  png: [99, 95, 90, 85, 80, 75, 70, 65, 60, 50, 40, 30],
  avif: AVIF_SWEEP,
};

/** Median scores over `photos` of `side` encoding `format` at `quality`. */
async function medians(side, photos, format, quality) {
  const results = [];
  for (const name of photos) results.push(await scored(side, name, format, quality));
  return { quality, distance: median(results.map((r) => r.distance)), ssim: median(results.map((r) => r.ssim)), bytes: median(results.map((r) => r.bytes)) };
}

/** Linear interpolation of y at x along [x, y] pairs sorted by x, clamped to the ends (as quality-scale.ts does). */
function along(points, x) {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  if (x <= sorted[0][0]) return sorted[0][1];
  if (x >= sorted.at(-1)[0]) return sorted.at(-1)[1];
  const i = sorted.findIndex(([px]) => px >= x);
  const [[x0, y0], [x1, y1]] = [sorted[i - 1], sorted[i]];
  return x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/**
 * The quality scale on both metrics. The reference look of a service quality is the baseline's JPEG
 * at it (today's mozjpeg scale); each encoder (the current JPEG, WebP, lossy PNG) gets, per metric, the
 * quality of its own whose median score equals the reference's, and the fitted quality is the mean of
 * the two (the metrics disagree most where one encoder's artefacts are the other metric's blind spot,
 * so neither alone decides). Beyond an encoder's measured range the ends are held.
 */
async function scaleFit(formats) {
  const photos = photoNames().filter((n) => n.startsWith('skimage-'));
  const reference = [];
  for (const service of SERVICE) reference.push({ service, ...(await medians(baseline, photos, 'jpeg', baseline.encoderQuality('jpeg', service))) });
  const measured = {};
  for (const format of formats) {
    const qualities = SCALE[format];
    measured[format] = [];
    for (const quality of qualities) measured[format].push(await medians(current, photos, format, quality));
    measured[format].sort((a, b) => a.quality - b.quality);
    console.log(format, measured[format]);
  }
  const fitted = SERVICE.map((service) => {
    const look = reference.find((r) => r.service === service);
    const row = { service };
    for (const format of formats) {
      // Where an encoder's score stops moving (lossy PNG at 256 colours), its lowest quality reaching it stands for all.
      const curve = (key) => measured[format].filter((m, i, all) => !all.slice(0, i).some((lower) => lower[key] === m[key])).map((m) => [m[key], m.quality]);
      const byMetric = METRICS.map(({ key }) => along(curve(key), look[key]));
      row[format] = { ...Object.fromEntries(METRICS.map(({ key }, i) => [key, byMetric[i]])), quality: Math.min(99, Math.round((byMetric[0] + byMetric[1]) / 2)) };
    }
    return row;
  });

  const pairs = (rows, key, digits) => `[${rows.map((r) => `[${r.quality}, ${Number(r[key].toFixed(digits))}]`).join(', ')}]`;
  const ts = [
    '```ts',
    `/** The reference look: the JPEG of engine ${baseline.label} at each service quality, medians [quality, butteraugli 3-norm, SSIMULACRA2]. */`,
    `const REFERENCE: ReadonlyArray<readonly [number, number, number]> = [${reference.map((r) => `[${r.service}, ${Number(r.distance.toFixed(3))}, ${Number(r.ssim.toFixed(2))}]`).join(', ')}];`,
    '',
    ...METRICS.flatMap(({ key, title, digits }) => [
      `/** Median ${title} over the corpus photos at each encoder's own quality. */`,
      `const ${key === 'ssim' ? 'SSIMULACRA2' : 'DISTANCE'}: Record<ImageFormat, ReadonlyArray<readonly [number, number]>> = {`,
      ...formats.map((format) => `  ${format}: ${pairs(measured[format], key, digits)},`),
      '};',
      '',
    ]),
    '/** Or fitted once: [service quality, encoder quality], the mean of the qualities matching the reference on each metric. */',
    'const ENCODER_QUALITY: Record<ImageFormat, ReadonlyArray<readonly [number, number]>> = {',
    ...formats.map((format) => `  ${format}: [${fitted.map((f) => `[${f.service}, ${f[format].quality}]`).join(', ')}],`),
    '};',
    '```',
  ];
  const scores = ['| encoder | encoder quality | median butteraugli 3-norm | median SSIMULACRA2 | median bytes |', '|---|---|---|---|---|'];
  for (const r of reference) scores.push(`| reference: baseline JPEG | ${r.quality} | ${r.distance.toFixed(3)} | ${r.ssim.toFixed(2)} | ${r.bytes} |`);
  for (const [format, rows] of Object.entries(measured)) for (const r of rows) scores.push(`| ${format} | ${r.quality} | ${r.distance.toFixed(3)} | ${r.ssim.toFixed(2)} | ${r.bytes} |`);
  const cell = (f) => `${f.distance.toFixed(1)} / ${f.ssim.toFixed(1)} → **${f.quality}**`;
  const mapping = [
    `| service quality | ${formats.map((format) => `${FORMAT_TITLES[format]} quality (butteraugli / SSIMULACRA2 → fitted) | today`).join(' | ')} |`,
    `|---|${formats.map(() => '---|---|').join('')}`,
    ...fitted.map((f) => `| ${f.service} | ${formats.map((format) => `${cell(f[format])} | ${current.encoderQuality(format, f.service)}`).join(' | ')} |`),
  ];
  return { photos, tables: [...ts, '', ...mapping, '', ...scores] };
}

const started = new Date();
const at = `on ${started.toISOString()} (Node ${process.version}; engine sha256 ${current.sha256.slice(0, 16)}..., baseline ${baseline.label}, sha256 ${baseline.sha256.slice(0, 16)}...)`;
const tools = `SSIMULACRA2: \`ssimulacra2\` of Debian trixie's ${ssimulacra2.versions
  .filter((v) => ['libjxl-devtools', 'libjxl0.11', 'libc6', 'libhwy1t64', 'liblcms2-2'].includes(v.name))
  .map((v) => `${v.name} ${v.version}`)
  .join(', ')} (bench/ssimulacra2.mjs); butteraugli: bookworm's \`butteraugli_main\` (3-norm). Both score PPM files (references and outputs decoded by djpeg, dwebp, pngtopnm).`;
const minutes = () => ((Date.now() - started.getTime()) / 60000).toFixed(1);
const command = (part) => `\`${only ? `node bench/quality.mjs ${part}` : 'npm run bench:quality'}\`${process.env.BASELINE ? ` with BASELINE=${process.env.BASELINE}` : ''}`;

if (!only || only === 'png') {
  const lossy = await lossyPngTable();
  writeDocSection('quality', 'bench:quality', [
    '## Quality: lossy PNG against pngquant at equal butteraugli and at equal SSIMULACRA2',
    '',
    `${command('png')} ${at}. ${tools} Every graphic and photo of the corpus`,
    '(JPEG photos decoded by djpeg into the reference PNG). pngquant 2.17 `--quality=65-80` (libimagequant, GPL-3) against the engine',
    `at PNG encoder qualities ${PNG_QUALITIES.join(', ')}: the engine's bytes and time are interpolated at pngquant's butteraugli`,
    '(3-norm) distance, PNG against PNG, and its bytes at pngquant\'s SSIMULACRA2, scored on PPM (colour only: alpha is dropped).',
    'Times are wall-clock, single-threaded, engine in WASM vs native.',
    '',
    ...lossy,
  ]);
}
if (!only || only === 'jpeg') {
  const lines = await jpegComparison();
  writeDocSection('quality-jpeg', 'bench:quality', [
    '## Quality: JPEG bytes against the baseline engine at equal SSIMULACRA2 and at equal butteraugli',
    '',
    `${command('jpeg')} ${at}. ${tools}`,
    '',
    "Each corpus photo (the file itself is the input; its decoded pixels the reference) is encoded by the baseline engine's JPEG at",
    `the service quality (its own scale) and by the current engine at encoder qualities ${JPEG_SWEEP.join(', ')}; the current bytes are`,
    "interpolated (log-linear) at the baseline's score on each metric. A ratio below 1 is smaller at the same look.",
    '',
    ...lines,
    '',
    `(${minutes()} min into the run.)`,
  ]);
}
if (only === 'avif') {
  const lines = await avifComparison();
  writeDocSection('quality-avif', 'bench:quality', [
    '## Quality: AVIF bytes against our JPEG and WebP at equal SSIMULACRA2 and at equal butteraugli',
    '',
    `${command('avif')} ${at}${process.env.AVIF_VARIANT ? ` AVIF_VARIANT=${process.env.AVIF_VARIANT}` : ''}. ${tools} avifdec is Debian bookworm's (libavif 0.11.1 with dav1d).`,
    '',
    "Each photo (the corpus photos, and the development set's photos re-saved as people send them, bench/resaved.mjs, its",
    'held-out part marked) is sent through the image path as the API runs it (`compressImage`) as JPEG and WebP at the service',
    'quality (for a JPEG: steps on its grid, the lossless re-coding, never-larger), and as `auto` for a browser that takes AVIF and',
    `WebP (what it answers, and that answer's score); and encoded as AVIF at its encoder qualities ${AVIF_COMPARE_SWEEP.join(', ')}; the AVIF bytes are interpolated`,
    "(log-linear) at the JPEG's and at the WebP's score on each metric. A ratio below 1 is smaller at the same look. The first",
    "table's last column is AVIF's SSIMULACRA2 at the same service quality less JPEG's (the scale keeps the look).",
    '',
    ...lines,
    '',
    `(${minutes()} min into the run${avifRowsReused ? `; the rows of ${avifRowsReused} photos measured by earlier runs of this engine and TypeScript, kept in bench/.cache/avif-rows` : ''}.)`,
  ]);
}
if (!only || only === 'one-look') {
  // `one-look` runs one part (ONE_LOOK_PART, default tuning); the whole run writes every part's section, without sweeps.
  for (const part of only ? [process.env.ONE_LOOK_PART ?? 'tuning'] : ONE_LOOK_PARTS) {
    // The tuning part's sweeps (what the rule was fitted on) cost most of its run: ONE_LOOK_SWEEP=0 measures the answers
    // alone, ONE_LOOK_SWEEP=1 sweeps another part too (once it has been seen).
    const sweep = process.env.ONE_LOOK_SWEEP ? process.env.ONE_LOOK_SWEEP === '1' : only !== undefined && part === 'tuning';
    const rows = await oneLookRows({ current, ssimulacra2, cache, corpus, work, part, sweep });
    const section = [
      `## Quality: one look across formats, the ${part} part`,
      '',
      `${command('one-look')}${only && part !== 'tuning' ? ` with ONE_LOOK_PART=${part}` : ''}${process.env.ONE_LOOK_SWEEP ? ` with ONE_LOOK_SWEEP=${process.env.ONE_LOOK_SWEEP}` : ''} ${at}. ${tools} avifdec is Debian bookworm's (libavif 0.11.1 with dav1d).`,
      '',
      "Issue 36's development set (bench/one-look-set.mjs, about 1 MP each: JPEGs saved at 60 to 95, 4:2:0, 4:4:4, grey, progressive,",
      'twice, off their grid; dark grain, gradients, renders; PNG photos and graphics; WebP), each sent through the image path as the',
      `API runs it (\`compressImage\`) as \`auto\` at service qualities ${ONE_LOOK_SERVICE.join(', ')} with \`Accept: */*\` and with each Accept below;`,
      "every answer scored with SSIMULACRA2 against the input's decoded pixels. The bar (issue 36): no answer more than 2 points",
      'below the `*/*` answer, none larger.',
      '',
      ...oneLookTables(rows),
      ...(sweep ? ['', "WebP and AVIF swept over their encoder qualities, interpolated at the `*/*` answer's SSIMULACRA2 (what the rule must predict):", '', ...oneLookFitTable(rows)] : []),
      '',
      `(${minutes()} min into the run.)`,
    ];
    if (process.env.PHOTOS) console.log(section.join('\n'));
    else writeDocSection(`quality-one-look-${part}`, 'bench:quality', section);
  }
}
const today = !only || ['resaved', 'confirm', 'fresh', 'unseen', 'final', 'reserve', 'masters'].includes(only) ? ready(await loadBaseline(root, cache, process.env.TODAY ?? null, 'TODAY')) : undefined;
const todayCommand = (part) => `${command(part)}${process.env.TODAY ? ` and TODAY=${process.env.TODAY}` : ''}`;
/** A JPEG-from-JPEG section: its heading and text, the comparison's tables; printed instead when PHOTOS narrows the run. */
function resavedSection(key, intro, lines) {
  const section = [...intro, '', ...lines, '', `(${minutes()} min into the run.)`];
  if (process.env.PHOTOS) console.log(section.join('\n'));
  else writeDocSection(key, 'bench:quality', section);
}
/** The parts run alone, each into a section of its own: its marker, where its masters come from and when it is run. */
const ALONE_PARTS = {
  confirm: {
    key: 'quality-resaved-confirm',
    masters: 'the corpus',
    when: [
      'smooth gradients), from masters the development set does not use: its confirm part, made after its held-out part had been seen',
      'while tuning, and run only to confirm what tuning chose.',
    ],
  },
  fresh: {
    key: 'quality-resaved-fresh',
    masters: "photos, a render and a screenshot of Debian's wallpaper and manual packages",
    when: [
      'smooth gradients), from masters no other part uses: its fresh part, made while tuning went on and never seen by it, run only to',
      'confirm what tuning chose.',
    ],
  },
  unseen: {
    key: 'quality-resaved-unseen',
    masters: "photos, renders and a screenshot of Debian's wallpaper and handbook packages no other part uses",
    when: [
      'smooth gradients, phone-size photos of 9 to 12 MP): its unseen part, made after the fresh part had been looked at and never',
      'seen while tuning, run only to confirm what tuning chose.',
    ],
  },
  final: {
    key: 'quality-resaved-final',
    masters: "photos, renders and a screenshot of Debian's wallpaper, photo-manager and astronomy packages no other part uses",
    when: [
      'smooth gradients, weighted like traffic: mostly 4:2:0 phone and web JPEGs): its final part, made after every other part had',
      "been seen, run once on the session's final code.",
    ],
  },
  reserve: {
    key: 'quality-resaved-reserve',
    masters: "photos, satellite images and a scanned map of Debian's planetarium and globe packages no other part uses",
    when: [
      'smooth gradients): its reserve part, made after the final part had been seen, for what the round then changed (dense 4:4:4',
      "sources, sources saved at 70 to 75), run once on that round's final code.",
    ],
  },
};
/** The set's text: what the photos are and how they are compared; `part`: one of ALONE_PARTS. */
const resavedIntro = (part) => [
  `The photos (bench/resaved.mjs) are JPEGs made from ${ALONE_PARTS[part]?.masters ?? 'the corpus'} the way phones, web tools and editors write them (libjpeg-turbo`,
  'qualities 70 to 95, 4:2:0, 4:4:4 and grey, baseline and progressive, some downscaled, some saved twice, grainy dark photos and',
  ...(ALONE_PARTS[part]?.when ?? [
    "smooth gradients, and three of libjxl's test JPEGs as they are), split by master photo into a tuning part and a held-out part",
    'that tuning never looked at (and confirm, fresh, unseen, final and reserve parts, below).',
  ]),
  `Each is sent through the image path as the API runs it (\`compressImage\`, format auto, service quality ${RESAVED_SERVICE.join(' and ')})`,
  `by this checkout and by today's code (${today.label}), and scored against the input itself (decoded by djpeg). Its bytes are`,
  "compared at equal score with the former engine's curve (BASELINE at service qualities 50 to 95, and the original file, which its",
  'never-larger rule returned when re-encoding did not shrink it) and with `cjpeg -optimize -progressive` (libjpeg-turbo 2.1.5, qualities',
  "50 to 95), each curve kept to its points that no other beats on bytes and score; log-linear between them. '<' marks an output",
  "that looks better than cjpeg's best: the ratio to that file is an upper bound. CPU: this process's user + system time of the",
  'whole image path at service 80 (median of 3, the two codes alternating).',
];
if (!only || only === 'resaved') {
  const part = process.env.RESAVED_PART;
  const { lines } = await resavedComparison({ engines: { current, today, former: baseline }, ssimulacra2, work, cache, corpus, part, only: process.env.PHOTOS?.split(',') });
  resavedSection('quality-resaved', [
    '## Quality: JPEG from JPEG, the development set of already compressed photos (issue 24)',
    '',
    `${todayCommand('resaved')}${part ? ` and RESAVED_PART=${part} (that part alone)` : ''} ${at}. ${tools}`,
    '',
    ...resavedIntro(),
  ], lines);
}
if (ALONE_PARTS[only]) {
  const { lines } = await resavedComparison({ engines: { current, today, former: baseline }, ssimulacra2, work, cache, corpus, part: only, only: process.env.PHOTOS?.split(',') });
  resavedSection(ALONE_PARTS[only].key, [
    `## Quality: JPEG from JPEG, the ${only} part of the development set (issue 24)`,
    '',
    `${todayCommand(only)} ${at}. ${tools}`,
    '',
    ...resavedIntro(only),
  ], lines);
}
if (!only || only === 'masters') {
  // The corpus's JPEG photos through the same comparison: what JPEG from JPEG does must leave them as they were.
  const photos = photoNames().filter((name) => name.endsWith('.jpg')).map((name) => ({ name, file: join(corpus, 'photos', name), part: 'masters' }));
  const { lines } = await resavedComparison({ engines: { current, today, former: baseline }, ssimulacra2, work, cache, corpus, photos });
  resavedSection('quality-masters-path', [
    '## Quality: JPEG from JPEG on the corpus masters (issue 24)',
    '',
    `${todayCommand('masters')} ${at}. ${tools}`,
    '',
    "The corpus's JPEG photos (its PNG photos take no JPEG-from-JPEG path) measured as the development set is (above), this checkout",
    `beside today's code (${today.label}): the steps on the input's grid and the re-coding must keep their results.`,
  ], lines);
}
if (only === 'oracle') {
  const sweep = (process.env.RESAVED_SWEEP ?? '-6,-4,-2,2,4,6').split(',').map(Number);
  const part = process.env.RESAVED_PART ?? 'tuning';
  console.log((await resavedOracle({ engines: { current, former: baseline }, ssimulacra2, work, cache, corpus, part, only: process.env.PHOTOS?.split(','), sweep })).join('\n'));
}
if (only === 'variant') console.log([`variant ${process.argv[3] ?? '{}'} against ${baseline.label}`, ...(await jpegComparison())].join('\n'));
if (!only || only === 'scale') {
  const fit = await scaleFit(['jpeg', 'webp', 'png']);
  writeDocSection('quality-scale', 'bench:quality', [
    '## Quality: one scale for JPEG, WebP and lossy PNG, on both metrics',
    '',
    `${command('scale')} ${at}. ${tools}`,
    '',
    `Median scores over the corpus photos ${fit.photos.join(', ')}. The reference look of a service quality is the baseline`,
    "engine's JPEG at it (today's mozjpeg scale, so the same number keeps about the same look). For each encoder (the current",
    'JPEG, WebP, lossy PNG) the quality whose median score matches the reference is interpolated on each metric, and the fitted',
    'quality is the mean of the two: neither metric alone decides, since each is blind to some of the other\'s artefacts',
    "(butteraugli flatters encoders tuned for it, such as jpegli). Beyond an encoder's measured range its end is held (lossy PNG",
    'reaches 256 colours near 95). Proposed for src/image/quality-scale.ts (not applied by the bench):',
    '',
    ...fit.tables,
  ]);
}
if (!only || only === 'avif-scale') {
  const fit = await scaleFit(['avif']);
  writeDocSection('quality-scale-avif', 'bench:quality', [
    '## Quality: AVIF on the one scale, on both metrics',
    '',
    `${command('avif-scale')} ${at}. ${tools} avifdec is Debian bookworm's (libavif 0.11.1 with dav1d).`,
    '',
    `Median scores over the corpus photos ${fit.photos.join(', ')}, fitted as JPEG, WebP and lossy PNG are (the section above):`,
    "for each service quality, the AVIF quality (libaom at the plan's speed for these sizes, 6; 4:4:4, tune=iq) whose median score",
    "matches the reference look on each metric, and the mean of the two. avif-plan.ts raises the quality at faster speeds. Proposed",
    'for src/image/quality-scale.ts (not applied by the bench):',
    '',
    ...fit.tables,
  ]);
}
rmSync(work, { recursive: true, force: true });
console.log(`bench:quality took ${minutes()} min`);
