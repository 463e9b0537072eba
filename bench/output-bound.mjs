// npm run bench:output-bound: the engine's planned output (the memory model's realistic bound, which the
// output may not pass: past it the job is stopped with a 413) against what honest photos really make.
// Runs every phone-like photo of bench/phone-photos.mjs (MP=6 by default; MP=12,24,48 for phone sizes)
// to JPEG and WebP at the service qualities of Q (default 80; e.g. Q=50,80,95), full size, and prints per
// input kind and output format the largest output per pixel, its share of the worst case, and the least
// headroom of the plan (planned / output): under 1 is an honest photo refused. The holdout photos are
// printed apart: they were not looked at while the bound was tuned. ONLY=<regex> picks photos.
import { mkdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSources } from './import-sources.mjs';
import { phonePhotos } from './phone-photos.mjs';
import { ensureTools } from './tools.mjs';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const corpus = resolve(process.env.CORPUS ?? join(root, '../shared/corpus'));
mkdirSync(cache, { recursive: true });
ensureTools();

const m = await importSources(cache, 'output-bound', [
  "export { createWasmEngine } from './src/image/wasm/wasm-engine';",
  "export { readHeader } from './src/image/header/read-header';",
  "export { encoderQuality } from './src/image/quality-scale';",
  "export { planEncoder, plannedOutputBytes, worstOutputBytes } from './src/image/wasm/memory-model';",
]);
const module = new WebAssembly.Module(readFileSync(join(root, 'codecs/dist/engine.wasm')));
// The plan is what the engine stops at: outputs are measured with plans for the worst case instead.
const engine = m.createWasmEngine(module, { plan: (header, out) => ({ ...m.planEncoder(header, out), worstCaseOutput: true }) });
const qualities = (process.env.Q ?? '80').split(',').map(Number);
const megapixels = (process.env.MP ?? '6').split(',').map(Number);
/** ONLY=<regex>: the photos whose name, look and encoding match it (a quick look at a few). */
const only = new RegExp(process.env.ONLY ?? '');

const rows = new Map();
for (const mp of megapixels) {
  for (const photo of phonePhotos(cache, corpus, mp).filter((p) => only.test(`${p.name} ${p.look} ${p.encoding}`))) {
    const input = new Uint8Array(readFileSync(photo.file));
    const header = m.readHeader(input);
    for (const quality of qualities) {
      for (const format of ['jpeg', 'webp']) {
        const out = { format, quality: m.encoderQuality(format, quality), width: header.width, height: header.height };
        const plan = m.planEncoder(header, out);
        const planned = m.plannedOutputBytes(header, out, plan);
        const worst = m.worstOutputBytes(header, out, plan);
        const bytes = (await engine.transcode(input, header, out)).length;
        const key = `${photo.holdout ? 'holdout' : 'tuning'} | ${photo.encoding} | ${format} q${quality}`;
        const pixels = header.width * header.height;
        const row = rows.get(key) ?? { n: 0, bpp: 0, worstShare: 0, headroom: Infinity, inBpp: 0, worst: '' };
        row.n++;
        row.bpp = Math.max(row.bpp, bytes / pixels);
        row.inBpp = Math.max(row.inBpp, input.length / pixels);
        row.worstShare = Math.max(row.worstShare, bytes / worst);
        if (planned / bytes < row.headroom) {
          row.headroom = planned / bytes;
          row.worst = `${photo.name} ${photo.look} ${mp} MP`;
        }
        rows.set(key, row);
        console.error(`${key} | ${photo.name} ${photo.look} ${mp} MP: in ${(input.length / pixels).toFixed(3)} B/px, out ${(bytes / pixels).toFixed(3)}, planned ${(planned / pixels).toFixed(3)}`);
      }
    }
  }
}
const settings = `MP=${megapixels.join(',')} Q=${qualities.join(',')}${process.env.ONLY ? ` ONLY='${process.env.ONLY}'` : ''}`;
const table = [
  '| set | input | output | photos | largest input B/px | largest output B/px | largest share of the worst case | least headroom (planned / output) | on |',
  '|---|---|---|---|---|---|---|---|---|',
  ...[...rows].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, row]) => `| ${key} | ${row.n} | ${row.inBpp.toFixed(3)} | ${row.bpp.toFixed(3)} | ${row.worstShare.toFixed(2)} | ${row.headroom.toFixed(2)} | ${row.worst} |`),
];
console.log(table.join('\n'));
writeDocSection(`output-bound-${megapixels.join('-')}mp`, 'bench:output-bound', [
  `## Output planned for photos: ${megapixels.join(', ')} MP phone-like photos (issue 19)`,
  '',
  `\`${settings} npm run bench:output-bound\` on ${new Date().toISOString()}: every photo of bench/phone-photos.mjs (the corpus photos scaled to`,
  'a phone\'s size as they are, with grain, and dark with grain, and a smooth gradient; written as baseline JPEG at 92, 95 and 40,',
  'progressive 4:2:0 JPEG at 90, RGB PNG and lossy WebP at 85; none over the 10 MB upload limit) to JPEG and WebP at full size.',
  'Headroom: the output the memory model plans (`plannedOutputBytes`, which the job may not pass) over the output made; under 1',
  'would be an honest photo refused. The holdout photos were not looked at while the shares were tuned.',
  '',
  ...table,
]);
