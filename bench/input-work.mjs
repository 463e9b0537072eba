// node bench/input-work.mjs: what reading costs the engine where it makes no rows (issue 35, decisions.md
// "Reading is work"), the figures behind the CPU model's input terms (src/image/wasm/cpu-model.ts). Each
// crafted input is timed beside the same image without the extra work, on fresh instances, the fastest of
// ROUNDS (default 5); the difference over the bytes read (or the Huffman units counted) is the cost a unit.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBaseline, loadEngine } from './engine.mjs';
import { importSources } from './import-sources.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const rounds = Number(process.env.ROUNDS ?? 5);
const current = await loadEngine(root, cache);
const { createWasmEngine, readHeader, wasmBytes } = current;
const inputs = await importSources(cache, 'input-work-inputs', [
  "export { zlibAfterEmptyBlocks } from './test/helpers/deflate-work';",
  "export { craftedJpeg, huffmanGroupsWebp, flatLosslessWebp } from './test/helpers/crafted';",
  "export { pngFile } from './test/helpers/png';",
  "export { pngChunk, text } from './test/container/synth';",
]);
const module = new WebAssembly.Module(wasmBytes);
const PROGRESS_INPUT = 9;
const PROGRESS_HUFFMAN_TABLE = 10;

/** The fastest of `rounds` jobs to a small JPEG, with the units it reported. */
async function fastest(input) {
  let best = { ms: Infinity, units: {} };
  for (let i = 0; i < rounds; i++) {
    const engine = createWasmEngine(module, { retireAfterBytes: 0 });
    const header = readHeader(input);
    const started = performance.now();
    await engine.transcode(input, header, { format: 'jpeg', quality: 80, width: header.width, height: header.height }, { cpuBudgetMs: Infinity });
    const ms = performance.now() - started;
    if (ms < best.ms) best = { ms, units: engine.lastJob().units };
  }
  return best;
}

async function perUnit(name, plain, crafted, kind) {
  const [a, b] = [await fastest(plain), await fastest(crafted)];
  const units = (b.units[kind] ?? 0) - (a.units[kind] ?? 0);
  const ns = ((b.ms - a.ms) * 1e6) / units;
  console.log(`| ${name} | ${units} | ${a.ms.toFixed(1)} | ${b.ms.toFixed(1)} | ${ns.toFixed(1)} |`);
}

const rows = (width, height) => new Uint8Array(height * (1 + 3 * width));
const stored = (data, blocks) => inputs.zlibAfterEmptyBlocks(data, blocks);
const png = (width, height, blocks, chunks = []) => inputs.pngFile({ width, height, colourType: 2 }, stored(rows(width, height), blocks), chunks);
const chunkAfterBlocks = (type, blocks) => inputs.pngChunk(type, new Uint8Array([...inputs.text('x\0'), 0, ...stored(new Uint8Array(200), blocks)]));
/** A JPEG with `fill` 0xFF fill bytes before its SOS marker (T.81 B.1.1.2 allows any number). */
function filledJpeg(fill) {
  const jpeg = inputs.craftedJpeg({ width: 64, height: 64, components: [{ h: 1, v: 1 }] });
  let sos = 2;
  while (!(jpeg[sos] === 0xff && jpeg[sos + 1] === 0xda)) sos += 2 + ((jpeg[sos + 2] << 8) | jpeg[sos + 3]);
  return new Uint8Array([...jpeg.subarray(0, sos), ...new Uint8Array(fill).fill(0xff), ...jpeg.subarray(sos)]);
}

console.log(`engine ${wasmBytes.length} bytes, Node ${process.version}, fastest of ${rounds}\n`);
console.log('| input | units | plain ms | crafted ms | ns a unit |');
console.log('|---|---|---|---|---|');
await perUnit('PNG 512x512, IDAT after 1.7 MB of empty deflate blocks (bytes)', png(512, 512, 0), png(512, 512, 150_000), PROGRESS_INPUT);
await perUnit('PNG 16x16, iCCP of 1.1 MB of empty blocks (bytes)', png(16, 16, 0), png(16, 16, 0, [chunkAfterBlocks('iCCP', 96_000)]), PROGRESS_INPUT);
await perUnit('PNG 16x16, zTXt of 2 MB of empty blocks (bytes)', png(16, 16, 0), png(16, 16, 0, [chunkAfterBlocks('zTXt', 176_000)]), PROGRESS_INPUT);
await perUnit('JPEG 64x64, 8 MB of fill bytes (bytes)', filledJpeg(0), filledJpeg(8_000_000), PROGRESS_INPUT);

/** The image path as the API runs it (compressImage) on one input: the process's CPU ms (the fastest of ROUNDS) and the answer. */
async function request(engine, input) {
  let best = { ms: Infinity, answer: '' };
  for (let i = 0; i < rounds; i++) {
    const before = process.cpuUsage();
    let answer;
    try {
      answer = `200 ${(await engine.compressImage(input, { quality: 80, format: 'jpeg', acceptsWebp: false, cpuBudgetMs: Infinity })).format}`;
    } catch (error) {
      answer = error.code ?? String(error);
    }
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    if (ms < best.ms) best = { ms, answer };
  }
  return best;
}

// The whole request on text chunks of empty blocks (the review's 9.9 MB zTXt, and one under the header's 2 MiB + 64 KiB
// for text): this checkout beside BASELINE (bench/engine.mjs; the merge base with main by default).
const baseline = await loadBaseline(root, cache);
const ztxt = (blocks) => png(16, 16, 0, [inputs.pngChunk('zTXt', new Uint8Array([...inputs.text('Comment\0'), 0, ...stored(inputs.text('a comment'), blocks)]))]);
console.log(`\nThe request path (compressImage to JPEG, process CPU ms, fastest of ${rounds}): ${baseline.label} beside this checkout\n`);
console.log('| input | bytes | before: CPU ms, answer | now: CPU ms, answer |');
console.log('|---|---|---|---|');
for (const [name, input] of [['PNG 16x16, zTXt of 860,000 empty blocks', ztxt(860_000)], ['PNG 16x16, zTXt of 176,000 empty blocks', ztxt(176_000)]]) {
  const [a, b] = [await request(baseline, input), await request(current, input)];
  console.log(`| ${name} | ${input.length} | ${a.ms.toFixed(0)}, ${a.answer} | ${b.ms.toFixed(0)}, ${b.answer} |`);
}

await perUnit('WebP 16x16 lossless, 65,536 Huffman groups (table units)', inputs.flatLosslessWebp(16, 16), inputs.huffmanGroupsWebp(16, 16), PROGRESS_HUFFMAN_TABLE);
await perUnit('WebP 16x16 lossless, 65,536 Huffman groups (bytes)', inputs.flatLosslessWebp(16, 16), inputs.huffmanGroupsWebp(16, 16), PROGRESS_INPUT);
