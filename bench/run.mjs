// npm run bench: memory, speed, bytes and cold start of the WASM engine (codecs/dist/engine.wasm),
// beside the native tools on the same images in the same run, and CPU per megapixel of every path
// beside a BASELINE engine (bench/engine.mjs), and what yielding costs with the longest holds per path
// (bench/yield-cost.mjs, in workerd), AVIF's rows (bench/avif-cost.mjs), and thumbnails beside sharp (bench/thumbnail.mjs). Writes the Engine, CPU, AVIF, thumbnail and yield sections
// of docs/benchmarks.md; `npm run bench -- cpu` runs and writes the CPU section alone, `npm run bench -- yield` the yield one,
// `npm run bench -- avif` AVIF's, `npm run bench -- thumbnail` the thumbnails', `npm run bench -- smartcrop` the smart crop's. Needs the shared
// corpus (CORPUS, default ../shared/corpus).
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BENCH_LIMITS, loadBaseline, loadEngine } from './engine.mjs';
import { AVIF_COST_NOTE, avifCostTable } from './avif-cost.mjs';
import { cpuTable, CPU_NOTE } from './cpu.mjs';
import { largeImages } from './images.mjs';
import { ensureTools, timeShell, butteraugli } from './tools.mjs';
import { jsquashMozjpeg, timeJsquashMozjpeg } from './mozjpeg.mjs';
import { writeDocSection } from './doc-section.mjs';
import { yieldTable } from './yield-cost.mjs';
import { thumbnailTable } from './thumbnail.mjs';
import { smartCropTable } from './smart-crop.mjs';
import sharp from 'sharp';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const corpus = resolve(process.env.CORPUS ?? join(root, '../shared/corpus'));
const work = mkdtempSync(join(tmpdir(), 'engine-bench-'));
const MiB = 1024 * 1024;
const mib = (n) => (n / MiB).toFixed(1);

ensureTools();
const current = await loadEngine(root, cache);
const { createWasmEngine, readHeader, wasmBytes } = current;
const module = new WebAssembly.Module(wasmBytes);

/** One job on a fresh instance, so its memory is this job's alone; `quality` is the encoder's own. */
async function job(file, format, quality, maxWidth) {
  const input = new Uint8Array(readFileSync(file));
  const header = readHeader(input);
  const scale = maxWidth && maxWidth < header.width ? maxWidth / header.width : 1;
  const out = { format, quality, width: Math.round(header.width * scale), height: Math.max(1, Math.round(header.height * scale)) };
  const engine = createWasmEngine(module);
  const start = performance.now();
  const bytes = await engine.transcode(input, header, out, BENCH_LIMITS);
  const ms = performance.now() - start;
  const { wasmBytes: wasm, outputBufferBytes: js } = engine.lastJob();
  return { header, out, bytes, ms, wasm, js, estimate: engine.estimatePeakBytes(header, out), cpu: engine.estimateCpuMs(header, out), mp: (header.width * header.height) / 1e6 };
}

/** The encoder quality the API uses for a service quality (PNG rows ask 100: the lossless path). */
const serviceQuality = (format, quality) => current.encoderQuality(format, quality);

/**
 * V8 compiles WASM lazily, so compiling the module is nearly free and the first job pays:
 * the first transcode of a small JPEG on a fresh module, against the same job warm.
 */
async function coldStart() {
  const small = join(corpus, 'jpeg/libjpeg-turbo-testorig.jpg');
  const input = new Uint8Array(readFileSync(small));
  const header = readHeader(input);
  const out = { format: 'jpeg', quality: 80, width: header.width, height: header.height };
  const t0 = performance.now();
  const fresh = createWasmEngine(new WebAssembly.Module(wasmBytes));
  const t1 = performance.now();
  await fresh.transcode(input, header, out);
  const t2 = performance.now();
  await fresh.transcode(input, header, out);
  const t3 = performance.now();
  return { compile: t1 - t0, firstJob: t2 - t1, warmJob: t3 - t2, size: wasmBytes.length, gzip: gzipSync(wasmBytes, { level: 9 }).length };
}

async function memoryTable(images) {
  const rows = [
    ['24 MP baseline JPEG -> JPEG q80, full size', images.jpeg24, 'jpeg', undefined, 96],
    ['24 MP baseline JPEG -> JPEG q80, maxWidth 2560', images.jpeg24, 'jpeg', 2560, 32],
    ['24 MP progressive 4:2:0 JPEG -> JPEG q80, maxWidth 2560', images.jpeg24progressive, 'jpeg', 2560, 96],
    ['24 MP PNG -> PNG (lossless)', images.png24, 'png', undefined, 96],
    ['24 MP PNG -> JPEG q80', images.png24, 'jpeg', undefined, 96],
    ['24 MP RGB PNG -> WebP q80, maxWidth 6000 (16 MP)', images.png24, 'webp', 6000, 96],
    ['24 MP RGBA PNG -> WebP q80, maxWidth 4000 (own alpha coder, 7 MP)', images.png24alpha, 'webp', 4000, 96],
    ['48 MP baseline JPEG -> JPEG q80, maxWidth 4096', images.jpeg48, 'jpeg', 4096, 64],
    ['24 MP lossy WebP (bryce.webp, 11158x2156) -> WebP q80, maxWidth 8000', join(corpus, 'webp/bryce.webp'), 'webp', 8000, 96],
  ];
  const lines = ['| path | WASM MiB | JS output MiB | peak MiB | model MiB | target MiB | ok | ms | CPU model ms |', '|---|---|---|---|---|---|---|---|---|'];
  for (const [name, file, format, maxWidth, target] of rows) {
    const r = await job(file, format, serviceQuality(format, format === 'png' ? 100 : 80), maxWidth); // PNG rows are the lossless path
    const peak = r.wasm + r.js;
    const ok = peak <= target * MiB && peak <= r.estimate && r.estimate <= 96 * MiB;
    lines.push(`| ${name} | ${mib(r.wasm)} | ${mib(r.js)} | ${mib(peak)} | ${mib(r.estimate)} | ${target} | ${ok ? 'yes' : '**no**'} | ${r.ms.toFixed(0)} | ${r.cpu} |`);
    console.log(lines.at(-1));
  }
  return lines;
}

/** ms per input megapixel of the engine beside the native tool doing the same job. */
async function speedTable(images) {
  const photo = join(corpus, 'photos/plasma-Kite-2560x1600.jpg');
  const png = join(corpus, 'graphics/plasma-FlyingKonqui-2560x1600.png');
  const logo = join(corpus, 'graphics/skimage-logo.png');
  const ppm = join(work, 'photo.ppm');
  timeShell(`djpeg ${photo} > ${ppm}`);
  // avifenc (bookworm: libavif 0.11, libaom 3.6, no tune=iq) at the engine's quantiser, speed and 4:4:4, one thread.
  const cq = Math.floor(((100 - serviceQuality('avif', 80)) * 63) / 100);
  const avifenc = (speed, input) => `avifenc -j 1 -s ${speed} -y 444 --min ${cq} --max ${cq} ${input} ${work}/o.avif > /dev/null`;
  const rows = [
    ['JPEG -> JPEG q80 (4 MP, jpegli progressive)', photo, 'jpeg', undefined, `djpeg ${photo} | cjpeg -quality 80 -progressive > /dev/null`],
    ['JPEG -> JPEG q80 (4 MP, jpegli progressive)', photo, 'jpeg', undefined, { label: 'jSquash mozjpeg (WASM)', run: () => timeJsquashMozjpeg(photo, 80) }],
    ['24 MP JPEG -> JPEG q80 (jpegli, standard tables)', images.jpeg24, 'jpeg', undefined, `djpeg ${images.jpeg24} | cjpeg -quality 80 -progressive > /dev/null`],
    ['24 MP JPEG -> maxWidth 2560 JPEG', images.jpeg24, 'jpeg', 2560, `djpeg -scale 1/2 ${images.jpeg24} | pamscale -width 2560 -filter sinc | cjpeg -quality 80 -progressive > /dev/null`],
    ['JPEG -> WebP q80 (4 MP)', photo, 'webp', undefined, `cwebp -quiet -q 80 ${ppm} -o /dev/null`],
    ['24 MP PNG -> WebP q80 (low_memory)', images.png24, 'webp', undefined, `cwebp -quiet -q 80 ${images.png24} -o /dev/null`],
    ['JPEG -> AVIF q80 (4 MP, speed 6)', photo, 'avif', undefined, avifenc(6, photo)],
    ['24 MP PNG -> AVIF q80 (speed 9, grid)', images.png24, 'avif', undefined, avifenc(9, images.png24)],
    ['PNG -> PNG lossless (4 MP graphic)', png, 'png', undefined, `optipng -quiet -o2 -out ${work}/o.png -clobber ${png}`],
    // Up to 1 MP the engine counts four zlib strategies before writing (codecs/src/engine.c).
    ['PNG -> PNG lossless (0.25 MP graphic, strategy trials)', logo, 'png', undefined, `optipng -quiet -o2 -out ${work}/o.png -clobber ${logo}`],
    ['WebP -> WebP q80 (24 MP bryce.webp, low_memory)', join(corpus, 'webp/bryce.webp'), 'webp', undefined, `dwebp -quiet ${join(corpus, 'webp/bryce.webp')} -ppm -o ${work}/b.ppm && cwebp -quiet -q 80 ${work}/b.ppm -o /dev/null`],
  ];
  const lines = ['| path | engine ms/MP | other ms/MP | other | ratio |', '|---|---|---|---|---|'];
  for (const [name, file, format, maxWidth, native] of rows) {
    const r = await job(file, format, serviceQuality(format, format === 'png' ? 100 : 80), maxWidth); // PNG rows are the lossless path
    const nativeMs = typeof native === 'string' ? timeShell(native) : await native.run();
    const tool = typeof native === 'string' ? native.split('|').map((part) => part.trim().split(' ')[0]).join(' \\| ') : native.label;
    lines.push(`| ${name} | ${(r.ms / r.mp).toFixed(0)} | ${(nativeMs / r.mp).toFixed(0)} | ${tool} | ${(r.ms / nativeMs).toFixed(2)}x |`);
    console.log(lines.at(-1));
  }
  return lines;
}

/** Bytes of mozjpeg at the engine's butteraugli distance, interpolated between qualities. */
function bytesAtDistance(points, distance) {
  const sorted = [...points].sort((a, b) => a.distance - b.distance);
  for (let i = 1; i < sorted.length; i++) {
    const [lo, hi] = [sorted[i - 1], sorted[i]];
    if (distance >= lo.distance && distance <= hi.distance) {
      const t = (distance - lo.distance) / (hi.distance - lo.distance);
      return Math.exp(Math.log(lo.bytes) * (1 - t) + Math.log(hi.bytes) * t);
    }
  }
  return undefined;
}

async function jpegBytesTable() {
  const photos = ['plasma-Autumn-2560x1600.jpg', 'plasma-ColorfulCups-2560x1600.jpg', 'plasma-Kite-2560x1600.jpg', 'skimage-astronaut.png', 'skimage-chelsea.png', 'skimage-coffee.png', 'skimage-motorcycle_left.png', 'skimage-hubble_deep_field.jpg', 'skimage-retina.jpg', 'skimage-rocket.jpg'];
  const lines = ['| photo | engine bytes at service quality 80 | engine butteraugli | mozjpeg 4:2:0 bytes at that distance | engine / mozjpeg |', '|---|---|---|---|---|'];
  const ratios = [];
  for (const name of photos) {
    const file = join(corpus, 'photos', name);
    const ours = await job(file, 'jpeg', serviceQuality('jpeg', 80));
    const oursFile = join(work, 'ours.jpg');
    writeFileSync(oursFile, ours.bytes);
    const distance = butteraugli(file, oursFile);
    const points = [];
    for (const quality of [60, 70, 75, 80, 85, 90, 95]) {
      const moz = await jsquashMozjpeg(file, quality);
      const mozFile = join(work, 'moz.jpg');
      writeFileSync(mozFile, moz);
      points.push({ quality, bytes: moz.length, distance: butteraugli(file, mozFile) });
    }
    const mozBytes = bytesAtDistance(points, distance);
    const ratio = mozBytes ? ours.bytes.length / mozBytes : undefined;
    if (ratio) ratios.push(ratio);
    lines.push(`| ${name} | ${ours.bytes.length} | ${distance.toFixed(3)} | ${mozBytes ? Math.round(mozBytes) : 'out of range'} | ${ratio ? ratio.toFixed(3) : '-'} |`);
    console.log(lines.at(-1));
  }
  const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  lines.push(`| **median** | | | | **${median.toFixed(3)}** |`);
  return lines;
}

async function webpPngBytesTable() {
  const lines = ['| image | engine bytes | native bytes | native | engine / native |', '|---|---|---|---|---|'];
  const webpInputs = ['photos/plasma-Kite-2560x1600.jpg', 'photos/skimage-astronaut.png', 'photos/skimage-coffee.png', 'graphics/skimage-logo.png'];
  for (const name of webpInputs) {
    const file = join(corpus, name);
    const ours = await job(file, 'webp', 80);
    let input = file;
    if (file.endsWith('.jpg')) timeShell(`djpeg ${file} > ${(input = join(work, 'in.ppm'))}`);
    timeShell(`cwebp -quiet -q 80 ${input} -o ${work}/ref.webp`);
    const native = readFileSync(`${work}/ref.webp`).length;
    lines.push(`| ${basename(name)} -> WebP q80 | ${ours.bytes.length} | ${native} | cwebp -q 80 | ${(ours.bytes.length / native).toFixed(3)} |`);
    console.log(lines.at(-1));
  }
  const pngInputs = ['graphics/plasma-Elarun-2560x1600.png', 'graphics/skimage-camera.png', 'graphics/skimage-horse.png', 'graphics/skimage-logo.png', 'graphics/skimage-page.png', 'graphics/skimage-text.png', 'graphics/skimage-palette_color.png', 'photos/skimage-astronaut.png', 'photos/skimage-coffee.png'];
  for (const name of pngInputs) {
    const file = join(corpus, name);
    const ours = await job(file, 'png', 100);
    timeShell(`optipng -quiet -o2 -out ${work}/ref.png -clobber ${file}`);
    const native = readFileSync(`${work}/ref.png`).length;
    lines.push(`| ${basename(name)} -> PNG lossless | ${ours.bytes.length} | ${native} | optipng -o2 | ${(ours.bytes.length / native).toFixed(3)} |`);
    console.log(lines.at(-1));
  }
  return lines;
}


const started = new Date().toISOString();
const load = loadavg().map((n) => n.toFixed(1)).join(', ');
const images = largeImages(cache, corpus);
const baseline = await loadBaseline(root, cache);
if (!['yield', 'avif', 'thumbnail', 'smartcrop'].includes(process.argv[2])) {
  const cpu = await cpuTable({ ...current, module }, { ...baseline, module: new WebAssembly.Module(baseline.wasmBytes) }, join(corpus, 'photos/plasma-Kite-2560x1600.jpg'), images.jpeg24, cache);
  writeDocSection('cpu', 'bench', [
    '## Engine: CPU per megapixel of every path, and what 1,000 images cost',
    '',
    `\`${process.argv[2] === 'cpu' ? 'npm run bench -- cpu' : 'npm run bench'}\`${process.env.BASELINE ? ` with BASELINE=${process.env.BASELINE}` : ''} on ${started} (Node ${process.version}, load average ${load}; engine sha256 ${current.sha256.slice(0, 16)}...,`,
    `baseline ${baseline.label}, sha256 ${baseline.sha256.slice(0, 16)}...), on plasma-Kite-2560x1600.jpg (4.1 MP) and the 24 MP JPEG below.`,
    ...CPU_NOTE,
    '',
    ...cpu,
  ]);
}
if (process.argv[2] === 'cpu') process.exit(0);
if (!process.argv[2] || process.argv[2] === 'avif') {
  const kite = join(corpus, 'photos/plasma-Kite-2560x1600.jpg');
  const photos = [['plasma-Kite-2560x1600.jpg', kite], ['skimage-hubble_deep_field.jpg', join(corpus, 'photos/skimage-hubble_deep_field.jpg')]];
  const cost = await avifCostTable({ ...current, module }, photos, work, cache);
  writeDocSection('cpu-avif', 'bench', [
    '## Engine: AVIF CPU per megapixel by speed, beside avifenc and cwebp, and its longest holds (issue 22)',
    '',
    `\`${process.argv[2] === 'avif' ? 'npm run bench -- avif' : 'npm run bench'}\` on ${started} (Node ${process.version}; engine sha256 ${current.sha256.slice(0, 16)}...), on a machine shared`,
    `with other work (load average ${load}): ratios from this one run.`,
    ...AVIF_COST_NOTE,
    '',
    ...cost,
    '',
    "AVIF's longest holds of the event loop are in the yield section (`npm run bench -- yield`).",
  ]);
}
if (process.argv[2] === 'avif') process.exit(0);
if (!process.argv[2] || process.argv[2] === 'thumbnail') {
  const thumbnails = await thumbnailTable(current, images);
  writeDocSection('thumbnail', 'bench', [
    '## Thumbnails: 24 MP and 48 MP JPEG to a 400x400 cover, beside sharp (issue 37)',
    '',
    `\`${process.argv[2] === 'thumbnail' ? 'npm run bench -- thumbnail' : 'npm run bench'}\` on ${started} (Node ${process.version}, load average ${load}; engine sha256 ${current.sha256.slice(0, 16)}...,`,
    `sharp ${sharp.versions.sharp} with libvips ${sharp.versions.vips}, sharp.concurrency(1)), on a machine shared with other work: ratios from this one run.`,
    'CPU-ms: the Node process\'s CPU time (user + system, all threads) around one job, the median of 3 runs alternating with',
    "sharp's after a warm-up of each. Ours is the whole image path as the API runs it (compressImage: header, plan, budgets, the",
    "engine's job; for auto its attention job first), JPEG at service quality 80; sharp's is resize(400, 400, cover, centre or",
    'strategy.attention) then jpeg({ quality: 80 }). Bytes: each output\'s size.',
    '',
    ...thumbnails,
  ]);
}
if (process.argv[2] === 'thumbnail') process.exit(0);
if (!process.argv[2] || process.argv[2] === 'smartcrop') {
  writeDocSection('smart-crop', 'bench', [
    "## Smart crop: gravity=auto beside sharp's attention on marked photos (issue 37)",
    '',
    `\`${process.argv[2] === 'smartcrop' ? 'npm run bench -- smartcrop' : 'npm run bench'}\` on ${started} (engine sha256 ${current.sha256.slice(0, 16)}..., sharp ${sharp.versions.sharp}).`,
    'The photos and their marked subjects are in bench/smart-crop.mjs; a cut keeps the subject when the centre of its marked box',
    "is inside the window (ours from X-Crop, sharp's from its crop offsets, both in the photo's pixels). The rules were chosen on",
    'synthetic scenes before these photos were looked at: all of them are held out.',
    '',
    ...(await smartCropTable(current, corpus)),
  ]);
}
if (process.argv[2] === 'smartcrop') process.exit(0);

// PREVIOUS (a revision or checkout, optional): an engine that hands back too, whose longest holds are measured beside.
const previous = process.env.PREVIOUS ? await loadBaseline(root, cache, process.env.PREVIOUS, 'PREVIOUS') : undefined;
const yields = await yieldTable(root, { ...current, from: root }, baseline, [
  ['JPEG -> JPEG q80 (4 MP photo)', join(corpus, 'photos/plasma-Kite-2560x1600.jpg'), 'jpeg', 80],
  ['JPEG -> WebP q80 (4 MP photo)', join(corpus, 'photos/plasma-Kite-2560x1600.jpg'), 'webp', 80],
  ['PNG -> PNG lossless (4 MP graphic)', join(corpus, 'graphics/plasma-FlyingKonqui-2560x1600.png'), 'png', 100],
  ['PNG -> PNG lossless (0.25 MP graphic, strategy trials)', join(corpus, 'graphics/skimage-logo.png'), 'png', 100],
  ['PNG -> PNG q80 (4 MP graphic, lossy)', join(corpus, 'graphics/plasma-FlyingKonqui-2560x1600.png'), 'png', 80],
  ['24 MP JPEG -> JPEG q80', images.jpeg24, 'jpeg', 80],
  ['24 MP progressive JPEG -> JPEG q80, maxWidth 2560', images.jpeg24progressive, 'jpeg', 80, 2560],
  ['24 MP JPEG -> WebP q80 (low_memory)', images.jpeg24, 'webp', 80],
  ['WebP -> WebP q80 (24 MP bryce.webp, low_memory)', join(corpus, 'webp/bryce.webp'), 'webp', 80],
], 3, previous);
// AVIF's paths: the baseline predates AVIF, so their "before" columns are this engine's whole job, as if it never handed back.
const kite = join(corpus, 'photos/plasma-Kite-2560x1600.jpg');
const avifYields = await yieldTable(root, { ...current, from: root }, { ...current, from: root }, [
  ['JPEG -> AVIF q80 (4 MP photo, speed 6, cells of 1024)', kite, 'avif', 80],
  ['24 MP RGBA PNG -> AVIF q80, maxWidth 4000 (3.1 MP, speed 6, lossless alpha)', images.png24alpha, 'avif', 80, 4000],
  ['24 MP JPEG -> AVIF q80 (speed 9, cells of 512)', images.jpeg24, 'avif', 80],
], 3, previous);
writeDocSection('yield', 'bench', [
  '## Engine: what handing the event loop back costs, and the longest hold per path (issue 19)',
  '',
  `\`${process.argv[2] === 'yield' ? 'npm run bench -- yield' : 'npm run bench'}\`${process.env.BASELINE ? ` with BASELINE=${process.env.BASELINE}` : ''}${process.env.PREVIOUS ? ` PREVIOUS=${process.env.PREVIOUS}` : ''} on ${started}, in workerd (Miniflare, JSPI;`,
  `baseline ${baseline.label}), on a machine shared with other work (load average ${load}): ratios from this one run.`,
  "CPU-ms: the workerd process's CPU time around one job, from /proc/<pid>/task/*/schedstat (medians of alternating runs after a",
  "warm-up job each, 3 or more so that each engine spends at least 3 s; the request's parsing included). The baseline holds the event",
  'loop for its whole job; it is given the current encoder plans, so both do the same codec work and current / baseline is what',
  'counting the work and handing back cost. "current" is the engine as the service runs it (a timer at each hand-back; its watch',
  "reads the wall clock, which on this loaded machine moves two to four times faster than the job's CPU time, so it hands back more",
  'often than on an idle one). "Paced by CPU time": the same engine handing back through a probe that reads workerd\'s CPU time and',
  'gives it to the watch as its clock, as on an idle machine without other requests. Longest hold after, CPU-ms: the median over the',
  "runs of the longest CPU time that engine spent between two hand-backs, the probe's calibrated cost taken off (inside a job a probe",
  'costs about 0.7 ms more, so these err long by that): holds no other process lengthens. Wall ms: from a',
  "resume to the next hand-back of the current engine (local workerd's clock moves while code runs; in production it moves only",
  'across I/O, which is why the engine counts work to decide when to hand back), lengthened here by the load.',
  ...(previous ? ['', `PREVIOUS: ${previous.label}, paced by CPU time as "paced by CPU time" is: its hand-backs and longest hold.`] : []),
  '',
  ...yields,
  '',
  'AVIF (the baseline has none: "before" is this engine\'s whole job, which it held before AVIF handed back inside a cell; its',
  '"baseline" engine is this one, handing back too, so current / baseline is not a cost here: the table above has it):',
  '',
  ...avifYields,
]);
if (process.argv[2] === 'yield') process.exit(0);

const cold = await coldStart();
console.log(cold);
const memory = await memoryTable(images);
const speed = await speedTable(images);
const jpegBytes = await jpegBytesTable();
const otherBytes = await webpPngBytesTable();

writeDocSection('engine', 'bench', [
  '## Engine: how these numbers were made',
  '',
  `\`npm run bench\` on ${started} (Node ${process.version}, ${process.arch}, one process, load average ${load}; the engine is codecs/dist/engine.wasm,`,
  `sha256 ${JSON.parse(readFileSync(join(root, 'codecs/dist/manifest.json'), 'utf8')).sha256.slice(0, 16)}...). The 24 MP photo is the corpus's`,
  'bryce.webp (11158x2156) re-encoded by cjpeg -quality 90 and pnmtopng (RGBA: with a ramp alpha), the 48 MP one the same upscaled to',
  '15780x3049 by pamscale, cjpeg -quality 80 (bench/images.mjs); they fit the API\'s 10 MB upload limit. Peak memory is the',
  'heap top of a fresh instance after the job (the WASM memory it needed) plus its JS output buffer; the model column is',
  '`estimatePeakBytes` from the header alone (ok: peak <= model <= the 96 MiB budget, and within the target); the CPU model',
  "column is `estimateCpuMs`, which the service's CPU budgets are checked against. Times are wall-clock, single-threaded on",
  'both sides, on a machine shared with other work while these ran: compare the ratios of one run. The 24 MP PNG is 40 MB, four',
  "times the upload limit: the model counts the copy of it that the never-larger path may make, hence that row's no.",
  '',
  '## Engine: cold start',
  '',
  'V8 compiles WASM lazily (Liftoff, then TurboFan for hot functions): `new WebAssembly.Module` is nearly free and the first job',
  'pays for compiling what it runs. First job: instantiate + re-encode of the 227x149 libjpeg-turbo test JPEG on a fresh module.',
  '',
  '| module bytes | gzip -9 bytes | new WebAssembly.Module ms | first job ms | same job warm ms |',
  '|---|---|---|---|---|',
  `| ${cold.size} | ${cold.gzip} | ${cold.compile.toFixed(1)} | ${cold.firstJob.toFixed(1)} | ${cold.warmJob.toFixed(1)} |`,
  '',
  '## Engine: memory (targets of issue 3)',
  '',
  ...memory,
  '',
  '## Engine: speed beside the native tools',
  '',
  ...speed,
  '',
  '## Engine: JPEG bytes at equal butteraugli (3-norm) against jSquash mozjpeg 4:2:0',
  '',
  'mozjpeg bytes are interpolated (log-linear) between the jSquash qualities 60, 70, 75, 80, 85, 90, 95 that bracket the',
  "engine's distance at service quality 80 (jpegli at the quality the scale maps it to). Reference: the corpus file itself.",
  "butteraugli_main reads the files itself here (bench:quality scores PPMs): it scores skimage-rocket 4.1 where from PPMs it is 1.2, so that row is off the curve; issue 15's comparison is the section \"Quality: JPEG bytes against the baseline engine\".",
  '',
  ...jpegBytes,
  '',
  '## Engine: WebP and PNG bytes against the native tools',
  '',
  ...otherBytes,
]);
