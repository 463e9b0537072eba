// Every kind of AVIF the service writes decodes with Debian's avifdec (libavif 0.11 with dav1d) and in Chromium,
// with the pixels checked: one cell and grids, alpha (one cell and a grid), grey, grey with alpha, tiny and odd
// sizes, each EXIF orientation, an ICC profile, a 12 MP photo. The images go through the service's own pipeline
// (src/image/pipeline.ts, bundled for Node) as the API runs it; the reference is the same job as lossless PNG.
// Run with `npm run test:e2e:avif` (vitest, test/e2e/vitest.config.ts) (needs avifdec and /usr/bin/chromium: scripts/install-apt-tool.sh avifdec libavif-bin and
// scripts/install-chromium.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.mjs';
import { assert, test } from './harness.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'avif-e2e-'));

/** The pipeline and the tests' image makers, bundled for Node; a .wasm import becomes a compiled module, as wrangler makes it. */
async function load() {
  const outfile = join(work, 'pipeline.mjs');
  await build({
    stdin: {
      contents: [
        "export { compressImage } from './src/image/pipeline';",
        "export { pixelPng, syntheticPng } from './test/helpers/png';",
        "export { withChunks } from './test/container/synth';",
        "export { avifLayout } from './test/helpers/avif-layout';",
        "export { default as decodePng, init as initPng } from '@jsquash/png/decode.js';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
    plugins: [
      {
        name: 'wasm-module',
        setup(b) {
          b.onLoad({ filter: /\.wasm$/ }, (args) => ({
            contents: `import { readFileSync } from 'node:fs'; export default new WebAssembly.Module(readFileSync(${JSON.stringify(args.path)}));`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  return import(outfile);
}

const m = await load();
await m.initPng(new WebAssembly.Module(readFileSync(join(root, 'node_modules/@jsquash/png/codec/pkg/squoosh_png_bg.wasm'))));
const fixture = (name) => new Uint8Array(readFileSync(join(root, 'test/fixtures', name)));
const pixelsOfPng = async (bytes) => (await m.decodePng(bytes.slice().buffer)).data;

/** The job as AVIF and as lossless PNG (the reference: orientation, alpha and colours as the service does them). */
async function encode(input, fields = {}) {
  const request = { quality: 80, acceptsWebp: false, ...fields };
  const avif = await m.compressImage(input, { ...request, format: 'avif' });
  const png = await m.compressImage(input, { ...request, quality: 100, format: 'png' });
  assert(avif.format === 'avif', `format ${avif.format}`);
  // The original comes back when it is smallest: its gAMA or profile would then not be applied in the reference.
  assert(!png.notes.includes('original-returned'), 'the lossless reference is the original file');
  return { avif: avif.bytes, notes: avif.notes, referencePng: png.bytes, reference: await pixelsOfPng(png.bytes) };
}

/** avifdec's decoding of `bytes` as RGBA (the profile left out: libpng refuses some), and what it reported. */
async function avifdec(bytes, name) {
  const file = join(work, `${name}.avif`);
  const png = join(work, `${name}.png`);
  writeFileSync(file, bytes);
  const report = execFileSync('avifdec', ['--info', file], { encoding: 'utf8' });
  execFileSync('avifdec', ['-j', '1', '--depth', '8', '--ignore-icc', file, png], { encoding: 'utf8' });
  return { pixels: await pixelsOfPng(new Uint8Array(readFileSync(png))), report };
}

/**
 * The alpha Chromium draws for avifenc's own AVIF of the reference (libavif 0.11, lossless alpha). Chromium 156
 * (Debian, headless) expands every AVIF's alpha as if it were limited range (16 to 235), avifenc's as ours, while
 * avifdec and libavif's reader take it as full range: so Chromium's alpha is checked against what it does with
 * libavif's own file.
 */
async function avifencAlphaRows(reference, width, height, step, name) {
  const png = join(work, `${name}-reference.png`);
  const avif = join(work, `${name}-avifenc.avif`);
  writeFileSync(png, reference);
  execFileSync('avifenc', ['-j', '1', '-s', '10', png, avif], { stdio: 'ignore' });
  return chromiumRows(new Uint8Array(readFileSync(avif)), width, height, step);
}

/** Largest difference of colour samples (where alpha >= minAlpha) and of alpha, and the mean colour difference. */
function compare(a, b, minAlpha = 0) {
  assert(a.length === b.length, `sizes differ: ${a.length / 4} and ${b.length / 4} pixels`);
  let colour = 0;
  let alpha = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    alpha = Math.max(alpha, Math.abs(a[i + 3] - b[i + 3]));
    if (a[i + 3] < minAlpha) continue;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a[i + c] - b[i + c]);
      colour = Math.max(colour, d);
      sum += d;
      count++;
    }
  }
  return { colour, alpha, mean: count ? sum / count : 0 };
}

let browser;
let page;
/** Rows `step` apart (every row of a small image) of RGBA pixels. */
function sampledRows(pixels, width, height, step) {
  const out = new Uint8ClampedArray(Math.ceil(height / step) * width * 4);
  for (let y = 0, at = 0; y < height; y += step, at += width * 4) out.set(pixels.subarray(y * width * 4, (y + 1) * width * 4), at);
  return out;
}

/** Chromium's pixels of the AVIF drawn into a canvas on a page: rows `step` apart. */
async function chromiumRows(bytes, width, height, step) {
  const base64 = await page.evaluate(
    async ({ data, width, height, step }) => {
      const blob = new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))]);
      const image = new Image();
      image.src = URL.createObjectURL(blob);
      await image.decode();
      if (image.naturalWidth !== width || image.naturalHeight !== height) throw new Error(`Chromium: ${image.naturalWidth}x${image.naturalHeight}`);
      const canvas = document.createElement('canvas');
      Object.assign(canvas, { width, height });
      document.body.replaceChildren(canvas);
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      let binary = '';
      for (let y = 0; y < height; y += step) {
        const row = context.getImageData(0, y, width, 1).data;
        for (let i = 0; i < row.length; i += 8192) binary += String.fromCharCode(...row.subarray(i, i + 8192));
      }
      return btoa(binary);
    },
    { data: Buffer.from(bytes).toString('base64'), width, height, step },
  );
  return new Uint8ClampedArray(Buffer.from(base64, 'base64'));
}

/**
 * One case: the AVIF decodes with avifdec close to the lossless reference (mean colour difference under
 * `meanLimit`, alpha within 8), and Chromium draws the same pixels as avifdec (its YUV conversion may round
 * differently by a level or two; colour compared where alpha is at least half, as a canvas premultiplies).
 */
function check(name, make, { meanLimit = 4, grid, alpha = false, icc = false } = {}) {
  test(`${name}: avifdec and Chromium decode it, pixels checked`, async () => {
    const { avif, notes, reference, referencePng } = await make();
    const layout = m.avifLayout(avif);
    if (grid !== undefined) assert(layout.grid === grid, `grid ${layout.grid}`);
    assert(layout.alpha === alpha, `alpha item ${layout.alpha}`);
    assert((layout.icc !== null) === icc && notes.includes('icc-kept') === icc, `icc ${layout.icc !== null}, notes ${notes}`);
    const decoded = await avifdec(avif, name.replace(/\W+/g, '-'));
    assert(/Resolution\s*:\s*(\d+)x(\d+)/.exec(decoded.report)?.slice(1).join('x') === `${layout.width}x${layout.height}`, decoded.report);
    assert(/ICC Profile\s*:\s*Present/.test(decoded.report) === icc, 'avifdec: ICC profile');
    const againstReference = compare(decoded.pixels, reference);
    assert(againstReference.mean < meanLimit, `mean colour difference ${againstReference.mean.toFixed(2)} from the reference`);
    assert(againstReference.alpha <= 8, `alpha off by ${againstReference.alpha}`);
    const step = Math.ceil((layout.width * layout.height) / 1e6);
    const drawn = await chromiumRows(avif, layout.width, layout.height, step);
    if (alpha) {
      const libavifs = await avifencAlphaRows(referencePng, layout.width, layout.height, step, name.replace(/\W+/g, '-'));
      let worst = 0;
      for (let i = 3; i < drawn.length; i += 4) worst = Math.max(worst, Math.abs(drawn[i] - libavifs[i]));
      assert(worst <= 1, `Chromium's alpha of ours and of avifenc's file differ by ${worst}`);
    }
    if (icc) {
      // Chromium converts from the profile, avifdec (--ignore-icc) does not: compare with Chromium's drawing of
      // the reference PNG, which carries the same profile.
      const reference = compare(drawn, await chromiumRows(referencePng, layout.width, layout.height, step));
      assert(reference.mean < meanLimit, `Chromium: mean colour difference ${reference.mean.toFixed(2)} from the reference`);
      return;
    }
    // Colour where avifdec's alpha is at least half: a canvas premultiplies, so fainter pixels lose their colour.
    const against = sampledRows(decoded.pixels, layout.width, layout.height, step);
    for (let i = 3; i < drawn.length; i += 4) drawn[i] = against[i] = against[i] >= 128 ? 255 : 0;
    const againstAvifdec = compare(drawn, against, 255);
    assert(againstAvifdec.colour <= 3, `Chromium and avifdec differ: ${JSON.stringify(againstAvifdec)}`);
  });
}

const gradient = (w, h) => m.pixelPng(w, h, 3, (x, y) => [(x * 255) / w, (y * 255) / h, ((x + y) * 127) / (w + h)]);
const withAlpha = (w, h) => m.pixelPng(w, h, 4, (x, y) => [(x * 255) / w, (y * 255) / h, 90, x < w / 8 ? 0 : (x * 7 + y * 3) % 256]);

check('a photo, one cell', () => encode(fixture('api/chelsea.png')), { grid: false });
check('a grid of cells', () => encode(gradient(2300, 1300)), { grid: true, meanLimit: 1.5 });
check('alpha in one cell', () => encode(withAlpha(300, 200)), { grid: false, alpha: true });
check('alpha in a grid', () => encode(withAlpha(1300, 700)), { grid: true, alpha: true });
check('grey', () => encode(m.pixelPng(300, 200, 1, (x, y) => [(x + y) % 256])), { alpha: false });
check('grey with alpha', () => encode(m.pixelPng(300, 200, 2, (x, y) => [(x * 3) % 256, y])), { alpha: true });
check('RGBA, 32x32', () => encode(m.pixelPng(32, 32, 4, (x, y) => [x * 8, y * 8, 128, (x + y) * 4])), { alpha: true });
check('lossy WebP with alpha', () => encode(fixture('engine/lossy_alpha4.webp')), { alpha: true });
check('13x1', () => encode(fixture('engine/small_13x1.webp')), { meanLimit: 12 });
for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
  check(`EXIF orientation ${orientation}`, () => encode(fixture(`orientation/Landscape_${orientation}.jpg`), { quality: 90 }));
}
check('a P3 ICC profile', () => encode(m.withChunks(m.syntheticPng(300, 200, false), fixture('container/p3-iccp-chunk.bin')), { quality: 70 }), {
  icc: true,
  meanLimit: 12,
});
check('a 12 MP photo', () => encode(m.syntheticPng(4000, 3000, false)), { grid: true, meanLimit: 12 });

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setContent('<!doctype html><body></body>');
});
afterAll(async () => {
  await browser?.close().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});
