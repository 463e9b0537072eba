// What walking a HEIC or AVIF header costs (issue 38): `node --expose-gc bench/heif-walk.mjs`. For each file, the
// median time of readInputHeader and the refusal (src/image/steps/refuse-undecoded.ts) over 300 runs, and the JS
// heap the header it returns holds (20 kept at once, over 20); the fixtures of test/fixtures/heif/, an iPhone 48 MP layout (16x12 cells of
// 512x512 named over 8064x6048), the largest walk the caps allow, and files refused at each cap, 10 MB each.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSources } from './import-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'heif-walk-'));
const { readInputHeader, refuseUndecoded, buildHeif, ispe, config, gridData, auxC, box } = await importSources(tmp, 'walk', [
  "export { readInputHeader } from './src/image/header/read-header';",
  "export { refuseUndecoded } from './src/image/steps/refuse-undecoded';",
  "export { buildHeif, ispe, config, gridData, auxC, box } from './test/helpers/heif-builder';",
]);
if (!globalThis.gc) throw new Error('run with node --expose-gc');

const fixtures = join(root, 'test/fixtures/heif');
const grid = readFileSync(join(fixtures, 'grid.heic'));
const cell = readInputHeader(grid).heif.primary;
const cellData = grid.subarray(cell.tiles[0].extents[0].offset, cell.tiles[0].extents[0].offset + cell.tiles[0].extents[0].length);
const alphaFile = readFileSync(join(fixtures, 'alpha.heic'));
const alpha = readInputHeader(alphaFile).heif.alpha;
const MB = 1_048_576;
/** A 10 MB file: the walk never reads an mdat's bytes, so a large one costs what a small one does. */
const padded = (bytes) => Buffer.concat([bytes, box('free', new Uint8Array(Math.max(0, 10 * MB - bytes.length - 8)))]);

/** A grid of `columns` x `rows` cells of `size` (the fixture's one cell's bytes), named over width x height, with an alpha grid if asked. */
function layout({ columns, rows, size, width, height, withAlpha = false }) {
  const cellItem = (id, part, hidden = true) => ({ id, type: 'hvc1', hidden, data: part.data, properties: [{ box: config('hvcC', part.config), essential: true }, { box: ispe(size, size) }] });
  const count = columns * rows;
  const colour = { config: cell.config, data: cellData };
  const mono = { config: alpha.config, data: alphaFile.subarray(alpha.tiles[0].extents[0].offset, alpha.tiles[0].extents[0].offset + alpha.tiles[0].extents[0].length) };
  const ids = Array.from({ length: count }, (_, i) => 10 + i);
  const alphaIds = Array.from({ length: count }, (_, i) => 10 + count + i);
  return buildHeif({
    brands: ['heic', 'mif1', 'miaf'],
    primary: 1,
    items: [
      { id: 1, type: 'grid', data: gridData(rows, columns, width, height), inIdat: true, properties: [{ box: ispe(width, height) }] },
      ...ids.map((id) => cellItem(id, colour)),
      ...(withAlpha
        ? [
            { id: 2, type: 'grid', hidden: true, data: gridData(rows, columns, width, height), inIdat: true, properties: [{ box: ispe(width, height) }, { box: auxC('urn:mpeg:hevc:2015:auxid:1') }] },
            ...alphaIds.map((id) => cellItem(id, mono)),
          ]
        : []),
    ],
    references: [{ type: 'dimg', from: 1, to: ids }, ...(withAlpha ? [{ type: 'dimg', from: 2, to: alphaIds }, { type: 'auxl', from: 2, to: [1] }] : [])],
  });
}

/** 70 items of 256 one-byte extents (17,920: past the cap), or 4,096 items of one extent (iinf's most). */
const manyItems = (count, extentBytes) =>
  buildHeif({ brands: ['heic', 'mif1'], primary: 1, items: Array.from({ length: count }, (_, i) => ({ id: i + 1, type: 'hvc1', hidden: i > 0, data: cellData.subarray(0, 256), extentBytes })) });

const cases = [
  ...readdirSync(fixtures)
    .filter((f) => /\.(heic|avif)$/.test(f))
    .map((f) => [f, readFileSync(join(fixtures, f))]),
  ['iPhone 48 MP layout: 16x12 cells of 512x512 over 8064x6048, 10 MB', padded(layout({ columns: 16, rows: 12, size: 512, width: 8064, height: 6048 }))],
  ['largest walk: 32x32 cells of 64x64 over 2048x2048 and an alpha grid alike (2,050 items), 10 MB', padded(layout({ columns: 32, rows: 32, size: 64, width: 2048, height: 2048, withAlpha: true }))],
  ['refused: 4,096 items (iinf\'s most) of one extent, the primary without ispe: all of meta read first', padded(manyItems(4096, 256))],
  ['refused: 17,920 extents (past 16,384)', padded(manyItems(70, 1))],
];

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('| file | bytes | outcome | median walk | heap the header holds |');
console.log('|---|---|---|---|---|');
for (const [name, bytes] of cases) {
  const walk = () => {
    const header = readInputHeader(bytes);
    refuseUndecoded(header, { heic: true });
  };
  let outcome = '';
  try {
    walk();
  } catch (error) {
    outcome = `${error.status} ${error.code}: ${error.message.slice(0, 70)}`;
  }
  const runs = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    try {
      walk();
    } catch {}
    runs.push(performance.now() - started);
  }
  // The heap of 20 headers kept at once, over 20: one header's, the collector's noise divided.
  let held = 'none (refused)';
  if (!outcome.includes('corrupt')) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 20 }, () => readInputHeader(bytes));
    gc();
    held = `${((process.memoryUsage().heapUsed - before) / 20 / 1024).toFixed(1)} KiB`;
    if (kept.length !== 20) throw new Error('unreachable');
  }
  console.log(`| ${name} | ${bytes.length.toLocaleString('en')} | ${outcome} | ${median(runs).toFixed(3)} ms | ${held} |`);
}
