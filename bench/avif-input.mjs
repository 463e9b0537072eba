// npm run bench:avif-input (issue 38): CPU per megapixel of the engine's AVIF decode (libaom's AV1 decoder in
// WASM, codecs/src/avif-decode.c) beside Debian bookworm's avifdec run natively on the same files, one thread, with
// libaom (aom 3.6) and with dav1d (1.0.0). The files are made here by avifenc from the corpus's 4 MP photos: 8-bit
// 4:2:0, 10-bit 4:4:4, and a 2x2 grid. The engine decodes each to a JPEG of an eighth of its width (its rows pass the
// resampler; the JPEG costs little), avifdec to y4m (no RGB conversion, none written to compress). CPU time, user +
// system, of this process around a job and of the waited-for children around avifdec.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nativeCpuMs, ownCpuMs } from './avif-cost.mjs';
import { median } from './curves.mjs';
import { BENCH_LIMITS, loadEngine } from './engine.mjs';

const root = resolve(import.meta.dirname, '..');
const corpus = process.env.CORPUS ?? resolve(root, '../../shared/corpus');
const work = mkdtempSync(join(tmpdir(), 'avif-input-'));
const RUNS = 3;
const PHOTOS = ['plasma-Kite-2560x1600.jpg', 'plasma-Autumn-2560x1600.jpg'];
const VARIANTS = [
  ['8-bit 4:2:0', '-d 8 -y 420'],
  ['10-bit 4:4:4', '-d 10 -y 444'],
  ['8-bit 4:2:0, 2x2 grid', '-d 8 -y 420 -g 2x2'],
];

const current = await loadEngine(root, join(root, 'bench/.cache'));
const module = new WebAssembly.Module(current.wasmBytes);
const engine = current.createWasmEngine(module);
const lines = ['| photo | AVIF | MP | engine CPU-ms/MP | avifdec (aom) CPU-ms/MP | avifdec (dav1d) CPU-ms/MP | engine / aom | engine / dav1d |', '|---|---|---|---|---|---|---|---|'];
for (const photo of PHOTOS) {
  for (const [label, flags] of VARIANTS) {
    const file = join(work, 'in.avif');
    nativeCpuMs(`avifenc -j 1 -s 8 ${flags} ${join(corpus, 'photos', photo)} ${file}`);
    const input = new Uint8Array(readFileSync(file));
    const header = current.readHeader(input);
    const mp = (header.width * header.height) / 1e6;
    const out = { format: 'jpeg', quality: 80, width: Math.round(header.width / 8), height: Math.round(header.height / 8) };
    const times = [];
    for (let i = 0; i <= RUNS; i++) {
      const start = ownCpuMs();
      await engine.transcode(input, header, out, BENCH_LIMITS);
      if (i > 0) times.push(ownCpuMs() - start);
    }
    const native = (codec) => median(Array.from({ length: RUNS }, () => nativeCpuMs(`avifdec -j 1 -c ${codec} ${file} ${work}/out.y4m`)));
    const [ms, aom, dav1d] = [median(times), native('aom'), native('dav1d')];
    lines.push(`| ${photo} | ${label} | ${mp.toFixed(1)} | ${(ms / mp).toFixed(0)} | ${(aom / mp).toFixed(0)} | ${(dav1d / mp).toFixed(0)} | ${(ms / aom).toFixed(2)}x | ${(ms / dav1d).toFixed(2)}x |`);
    console.log(lines.at(-1));
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`\n${lines.join('\n')}`);
