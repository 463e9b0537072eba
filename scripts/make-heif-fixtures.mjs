// Makes the HEIF and AVIF fixtures of test/fixtures/heif/ (their LICENSES.md says what each is) from the
// CC0 photo test/fixtures/api/chelsea.png with Debian's tools: heif-enc (libheif-examples, x265), avifenc
// (libavif-bin) and netpbm; the grid HEICs are assembled from heif-enc's tiles as iPhones lay them out, by
// test/helpers/heif-builder.ts, and libheif's heif-convert must decode each to its size. Run it again after
// a change: `node scripts/make-heif-fixtures.mjs` (sh scripts/install-apt-tool.sh heif-enc libheif-examples,
// and avifenc libavif-bin, first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSources } from '../bench/import-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test/fixtures/heif');
const tmp = mkdtempSync(join(tmpdir(), 'heif-fixtures-'));
const { readHeifHeader, buildHeif, ispe, pixi, irot, imir, auxC, nclx, clap, config, gridData } = await importSources(tmp, 'heif', [
  "export { readHeifHeader } from './src/image/header/heif-header';",
  "export { buildHeif, ispe, pixi, irot, imir, auxC, nclx, clap, config, gridData } from './test/helpers/heif-builder';",
]);

const at = (name) => join(tmp, name);
const run = (command, args, input) => execFileSync(command, args, { input, maxBuffer: 1 << 26 });
const sh = (script) => execFileSync('sh', ['-c', script], { cwd: tmp, maxBuffer: 1 << 26 });

// The photo at 96x64, as PPM and PNG; with a left-to-right alpha ramp; a 16-bit copy (3 added: pnmtopng
// writes 8 bits where every sample is a multiple of 257).
sh(`pngtopnm ${join(root, 'test/fixtures/api/chelsea.png')} | pamscale -width 96 -height 64 > base.ppm && pnmtopng base.ppm > base.png`);
sh('pgmramp -lr 96 64 > ramp.pgm && pnmtopng -alpha=ramp.pgm base.ppm > rgba.png && pamdepth 65535 base.ppm | pamfunc -adder 3 | pnmtopng > base16.png');
// AVIF's grid cells are at least 64x64 (MIAF 7.3.11.4.2): a 128x128 copy in 2x2.
sh('pamscale -width 128 -height 128 base.ppm | pnmtopng > square.png');

const heifEnc = (png, file, ...args) => run('heif-enc', ['-q', '50', ...args, at(png), '-o', at(file)]);
const keep = (file) => writeFileSync(join(out, file), readFileSync(at(file)));

heifEnc('base.png', 'photo.heic', '-t', '24');
heifEnc('rgba.png', 'alpha.heic');
heifEnc('base16.png', 'ten-bit.heic', '-b', '10');
run('avifenc', ['-s', '10', '--min', '25', '--max', '35', at('base.png'), at('photo.avif')]);
run('avifenc', ['-s', '10', '--min', '25', '--max', '35', '-d', '10', at('rgba.png'), at('ten-bit-alpha.avif')]);
run('avifenc', ['-s', '10', '--min', '25', '--max', '35', '--grid', '2x2', at('square.png'), at('grid.avif')]);
run('avifenc', ['-s', '10', '--min', '25', '--max', '35', '--irot', '1', '--imir', '1', '--clap', '80,1,48,1,0,1,0,1', at('base.png'), at('oriented.avif')]);
for (const file of ['photo.heic', 'alpha.heic', 'ten-bit.heic', 'photo.avif', 'ten-bit-alpha.avif', 'grid.avif', 'oriented.avif']) keep(file);

/** The coded item heif-enc wrote: configuration, bytes and size. */
function coded(file) {
  const bytes = readFileSync(at(file));
  const picture = readHeifHeader(bytes).heif.primary;
  const data = Buffer.concat(picture.tiles[0].extents.map((e) => bytes.subarray(e.offset, e.offset + e.length)));
  return { config: picture.config, data, width: picture.width, height: picture.height };
}
const hvcItem = (id, part, more = {}) => ({
  id,
  type: 'hvc1',
  data: part.data,
  ...more,
  properties: [{ box: config('hvcC', part.config), essential: true }, { box: ispe(part.width, part.height) }, ...(more.properties ?? [])],
});

// A 90x60 picture in 3x2 cells of 32x32 (the last column and row cut, as an iPhone's 4032x3024 in 512x512
// cells), hidden, with a thumbnail (thmb), a depth map and a gain map (auxl, half size, as Apple's), and an
// Exif item (cdsc). No alpha plane: iPhones write none, and libheif 1.15 cannot decode one beside a grid
// ("Unsupported color conversion"); the tests add one to the walker's grids.
const tiles = [];
for (let row = 0; row < 2; row++) {
  for (let column = 0; column < 3; column++) {
    const name = `tile-${row}-${column}`;
    sh(`pamcut -left ${column * 32} -top ${row * 32} -width 32 -height 32 base.ppm | pnmtopng > ${name}.png`);
    heifEnc(`${name}.png`, `${name}.heic`);
    tiles.push(coded(`${name}.heic`));
  }
}
sh('pamscale -width 24 -height 16 base.ppm | pnmtopng > thumb.png');
sh('pgmramp -tb 45 30 | pnmtopng > depth.png');
heifEnc('thumb.png', 'thumb.heic');
heifEnc('depth.png', 'depth.heic');
const exif = Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.from('MM\0*\0\0\0\x08\0\0\0\0\0\0', 'latin1')]);

function iphoneGrid({ transforms = [], iloc }) {
  const ids = tiles.map((_, i) => 2 + i);
  return buildHeif({
    brands: ['heic', 'mif1', 'MiHE', 'MiPr', 'miaf', 'MiHB', 'heic'],
    primary: 1,
    iloc,
    items: [
      { id: 1, type: 'grid', data: gridData(2, 3, 90, 60), inIdat: true, properties: [{ box: ispe(90, 60) }, { box: nclx(1, 13, 6, true) }, { box: pixi(8, 8, 8) }, ...transforms] },
      ...tiles.map((tile, i) => hvcItem(ids[i], tile, { hidden: true })),
      hvcItem(20, coded('thumb.heic')),
      hvcItem(21, coded('depth.heic'), { hidden: true, properties: [{ box: auxC('urn:mpeg:hevc:2015:auxid:2') }] }),
      hvcItem(22, coded('depth.heic'), { hidden: true, properties: [{ box: auxC('urn:com:apple:photo:2020:aux:hdrgainmap') }] }),
      { id: 23, type: 'Exif', hidden: true, data: exif },
    ],
    references: [
      { type: 'dimg', from: 1, to: ids },
      { type: 'thmb', from: 20, to: [1] },
      { type: 'auxl', from: 21, to: [1] },
      { type: 'auxl', from: 22, to: [1] },
      { type: 'cdsc', from: 23, to: [1] },
    ],
  });
}
writeFileSync(join(out, 'grid.heic'), iphoneGrid({ iloc: { version: 1, baseOffsetSize: 4 } }));
// The same turned a quarter anticlockwise and flipped (irot, imir), cut to 80x48 (clap), its iloc of version 2 with 8-byte fields.
writeFileSync(
  join(out, 'grid-oriented.heic'),
  iphoneGrid({ transforms: [{ box: clap(80, 1, 48, 1, 0, 1, 0, 1) }, { box: irot(1), essential: true }, { box: imir(0), essential: true }], iloc: { version: 2, offsetSize: 8, lengthSize: 8 } }),
);

/** libheif's reading: heif-convert decodes the file (with its alpha) to a PNG of `width` x `height`. */
function decodesTo(file, width, height) {
  const png = at(`${file}.png`);
  run('heif-convert', ['--quiet', join(out, file), png]);
  const ihdr = readFileSync(png);
  const size = [ihdr.readUInt32BE(16), ihdr.readUInt32BE(20)];
  if (size[0] !== width || size[1] !== height) throw new Error(`${file}: heif-convert made ${size.join('x')}, not ${width}x${height}`);
  console.log(`${file}: ${readFileSync(join(out, file)).length} bytes, heif-convert decodes ${width}x${height}`);
}
decodesTo('grid.heic', 90, 60);
decodesTo('grid-oriented.heic', 48, 80);
for (const [file, w, h] of [['photo.heic', 96, 64], ['alpha.heic', 96, 64], ['ten-bit.heic', 96, 64], ['photo.avif', 96, 64], ['ten-bit-alpha.avif', 96, 64], ['grid.avif', 128, 128], ['oriented.avif', 48, 80]]) decodesTo(file, w, h);

// libheif's reading of imir, on which heif-header.ts's orientation rests: axis 0 exchanges top and bottom.
const mirrored = buildHeif({ brands: ['heic', 'mif1'], primary: 1, items: [hvcItem(1, coded('photo.heic'), { properties: [{ box: imir(0), essential: true }] })] });
writeFileSync(at('mirrored.heic'), mirrored);
const luma = (file) => {
  run('heif-convert', ['--quiet', at(file), at(`${file}.y4m`)]);
  const y4m = readFileSync(at(`${file}.y4m`));
  const frame = y4m.indexOf('FRAME\n') + 6;
  return y4m.subarray(frame, frame + 96 * 64);
};
const [plain, flipped] = [luma('photo.heic'), luma('mirrored.heic')];
if (!plain.every((v, i) => v === flipped[(63 - Math.floor(i / 96)) * 96 + (i % 96)])) throw new Error('heif-convert does not read imir axis 0 as exchanging top and bottom');
console.log('imir axis 0: heif-convert exchanges top and bottom');
