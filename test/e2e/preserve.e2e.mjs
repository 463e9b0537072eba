// `preserve` read back by exiftool (Debian's libimage-exiftool-perl) from JPEG, PNG, WebP and AVIF outputs: exactly
// the tags of the asked classes, nothing else (every tag exiftool finds outside the file's own structure is
// listed), and each output still decodes with its format's reference decoder (libjpeg-turbo's djpeg, libpng through
// netpbm's pngtopnm, libwebp's dwebp, libavif's avifdec) and in Chromium. The images go through the service's own
// pipeline (src/image/pipeline.ts, bundled for Node) as the API runs it; the fixtures are test/fixtures/metadata/.
// Run with `npm run test:e2e:preserve` (needs exiftool, djpeg, pngtopnm, dwebp, avifdec and /usr/bin/chromium:
// see .ci/run).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.mjs';
import { assert, test } from './harness.mjs';
import { decodeInPage } from './image-check.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'preserve-e2e-'));

/** The pipeline bundled for Node; a .wasm import becomes a compiled module, as wrangler makes it. */
async function load() {
  const outfile = join(work, 'pipeline.mjs');
  await build({
    stdin: { contents: "export { compressImage } from './src/image/pipeline';", resolveDir: root, loader: 'ts' },
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

const { compressImage } = await load();
const fixture = (name) => new Uint8Array(readFileSync(join(root, 'test/fixtures/metadata', name)));

/** What exiftool reports of a file's structure (the container, the image, the colour) rather than its metadata. */
const STRUCTURE = new Set(['ExifTool', 'System', 'File', 'JFIF', 'PNG', 'PNG-pHYs', 'RIFF', 'Meta', 'QuickTime', 'Composite', 'ICC-header', 'ICC_Profile']);

/** The tags of tags.args and iptc.args each class keeps, as exiftool names them (group:tag); IPTC in JPEG only. */
const KEPT = {
  copyright: {
    all: [
      'IFD0:Artist', 'IFD0:Copyright', 'XMP-dc:Creator', 'XMP-dc:Rights', 'XMP-dc:Contributor', 'XMP-dc:Publisher',
      'XMP-xmpRights:Marked', 'XMP-xmpRights:UsageTerms', 'XMP-xmpRights:WebStatement', 'XMP-photoshop:Credit',
      'XMP-plus:Licensor', 'XMP-cc:License', 'XMP-cc:AttributionName',
    ],
    jpeg: ['IPTC:By-line', 'IPTC:Credit', 'IPTC:CopyrightNotice'],
  },
  creation: {
    all: [
      'ExifIFD:DateTimeOriginal', 'ExifIFD:CreateDate', 'ExifIFD:OffsetTimeOriginal', 'ExifIFD:OffsetTimeDigitized',
      'ExifIFD:SubSecTimeOriginal', 'ExifIFD:SubSecTimeDigitized', 'XMP-xmp:CreateDate', 'XMP-photoshop:DateCreated',
      'XMP-exif:DateTimeOriginal',
    ],
    jpeg: ['IPTC:DateCreated', 'IPTC:TimeCreated'],
  },
  location: {
    all: [
      'GPS:GPSVersionID', 'GPS:GPSLatitudeRef', 'GPS:GPSLatitude', 'GPS:GPSLongitudeRef', 'GPS:GPSLongitude',
      'GPS:GPSAltitudeRef', 'GPS:GPSAltitude', 'XMP-exif:GPSLatitude', 'XMP-exif:GPSLongitude', 'XMP-photoshop:City',
      'XMP-photoshop:State', 'XMP-photoshop:Country', 'XMP-iptcCore:Location', 'XMP-iptcCore:CountryCode',
    ],
    jpeg: ['IPTC:City', 'IPTC:Sub-location', 'IPTC:Province-State', 'IPTC:Country-PrimaryLocationCode', 'IPTC:Country-PrimaryLocationName'],
  },
};

function expected(classes, format) {
  const tags = classes.flatMap((c) => [...KEPT[c].all, ...(format === 'jpeg' ? KEPT[c].jpeg : [])]);
  // The IIM's character set (1:90, UTF-8 in the fixtures) goes with what is kept of it, so its text reads the same.
  if (tags.some((t) => t.startsWith('IPTC:'))) tags.push('IPTC:CodedCharacterSet');
  return tags.sort();
}

/** Every metadata tag exiftool reads in `bytes`, as group:tag, and the values by tag. */
function exiftool(bytes, name) {
  const file = join(work, name);
  writeFileSync(file, bytes);
  const [found] = JSON.parse(execFileSync('exiftool', ['-j', '-G1', '-a', '-struct', file], { encoding: 'utf8' }));
  const tags = Object.keys(found).filter((key) => key.includes(':') && !STRUCTURE.has(key.split(':')[0]) && key !== 'SourceFile');
  return { tags: tags.sort(), values: found, file };
}

/** Decodes with the format's reference decoder (throws when it fails) and in Chromium; returns Chromium's size. */
async function decodes(file, format, bytes) {
  const tool = { jpeg: ['djpeg', [file]], png: ['pngtopnm', [file]], webp: ['dwebp', [file, '-ppm', '-o', '-']], avif: ['avifdec', ['-j', '1', file, `${file}.png`]] }[format];
  execFileSync(tool[0], tool[1], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  return decodeInPage(page, Buffer.from(bytes));
}

let browser;
let page;
beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setContent('<!doctype html><body></body>');
});
afterAll(async () => {
  await browser?.close().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

const CLASSES = [[], ['copyright'], ['creation'], ['location'], ['copyright', 'creation', 'location']];

for (const format of ['jpeg', 'png', 'webp', 'avif']) {
  test(`tagged.jpg (EXIF, XMP, IPTC) to ${format}: exiftool finds exactly the asked classes; the output decodes`, async () => {
    const input = fixture('tagged.jpg');
    for (const classes of CLASSES) {
      const result = await compressImage(input, { quality: 80, format, acceptsWebp: false, preserve: classes });
      assert(result.format === format, `format ${result.format}`);
      const name = `tagged-${classes.join('-') || 'none'}.${format}`;
      const { tags, values, file } = exiftool(result.bytes, name);
      const want = expected(classes, format);
      assert(JSON.stringify(tags) === JSON.stringify(want), `${name}: exiftool read\n  ${tags.join(' ')}\nnot\n  ${want.join(' ')}`);
      if (classes.includes('location')) assert(String(values['GPS:GPSLatitude']).startsWith('48 deg 51'), `${name}: latitude ${values['GPS:GPSLatitude']}`);
      if (classes.includes('copyright')) assert(values['IFD0:Artist'] === 'Ana Fotógrafa', `${name}: artist ${values['IFD0:Artist']}`);
      // Orientation 6 is applied: the pixels are 450x300 as displayed.
      const size = await decodes(file, format, result.bytes);
      assert(size.width === 450 && size.height === 300, `${name}: Chromium drew ${size.width}x${size.height}`);
    }
  });
}

for (const format of ['jpeg', 'avif']) {
  test(`tagged.avif (an Exif item, an XMP item, no IPTC) to ${format}: exiftool finds exactly the asked classes; the output decodes`, async () => {
    for (const classes of CLASSES) {
      const result = await compressImage(fixture('tagged.avif'), { quality: 80, format, acceptsWebp: false, preserve: classes });
      const name = `avif-tagged-${classes.join('-') || 'none'}.${format}`;
      const { tags, file } = exiftool(result.bytes, name);
      // The same EXIF and XMP as tagged.jpg, without its IPTC: what a PNG of tagged.jpg keeps.
      const want = expected(classes, 'png');
      assert(JSON.stringify(tags) === JSON.stringify(want), `${name}: exiftool read\n  ${tags.join(' ')}\nnot\n  ${want.join(' ')}`);
      // Upright by its irot: 450x300 as displayed.
      const size = await decodes(file, format, result.bytes);
      assert(size.width === 450 && size.height === 300, `${name}: Chromium drew ${size.width}x${size.height}`);
    }
  });
}

test('never-larger: tagged.avif comes back without its Exif and XMP items, or with what is asked', async () => {
  for (const classes of [[], ['creation']]) {
    const result = await compressImage(fixture('tagged.avif'), { quality: 100, format: 'avif', acceptsWebp: false, preserve: classes });
    assert(result.notes.includes('original-returned'), `notes ${result.notes}`);
    const name = `avif-original-${classes.join('-') || 'none'}.avif`;
    const { tags, file } = exiftool(result.bytes, name);
    const want = expected(classes, 'avif');
    assert(JSON.stringify(tags) === JSON.stringify(want), `${name}: exiftool read\n  ${tags.join(' ')}\nnot\n  ${want.join(' ')}`);
    const size = await decodes(file, 'avif', result.bytes);
    assert(size.width === 450 && size.height === 300, `${name}: Chromium drew ${size.width}x${size.height}`);
  }
});

test('tagged.png and tagged.webp keep their own EXIF and XMP in their own format', async () => {
  for (const [name, format] of [['tagged.png', 'png'], ['tagged.webp', 'webp']]) {
    const result = await compressImage(fixture(name), { quality: 100, format, acceptsWebp: false, preserve: ['copyright', 'creation', 'location'] });
    const { tags, file } = exiftool(result.bytes, `out-${name}`);
    const want = expected(['copyright', 'creation', 'location'], format);
    assert(JSON.stringify(tags) === JSON.stringify(want), `${name}: exiftool read\n  ${tags.join(' ')}\nnot\n  ${want.join(' ')}`);
    await decodes(file, format, result.bytes);
  }
});

test('never-larger: the original comes back with its orientation and the date, nothing else', async () => {
  const result = await compressImage(fixture('small-tagged-6.jpg'), { quality: 100, format: 'auto', acceptsWebp: false, preserve: ['creation'] });
  assert(result.notes.includes('metadata-kept'), `notes ${result.notes}`);
  const { tags, values, file } = exiftool(result.bytes, 'small-tagged-6.out.jpg');
  const original = result.notes.includes('original-returned');
  const want = ['ExifIFD:DateTimeOriginal', ...(original ? ['IFD0:Orientation'] : [])].sort();
  assert(JSON.stringify(tags) === JSON.stringify(want), `exiftool read ${tags.join(' ')}, not ${want.join(' ')} (${result.notes})`);
  if (original) assert(values['IFD0:Orientation'] === 'Rotate 90 CW', `orientation ${values['IFD0:Orientation']}`);
  await decodes(file, 'jpeg', result.bytes);
});
