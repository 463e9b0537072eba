// node bench/gif-decode.mjs: GIF input's CPU (issue 38), the engine beside native tools on the same files. Each
// corpus photo is made a 256-colour GIF by netpbm (pnmquant, ppmtogif), plain and interlaced (gifsicle --interlace);
// then, the fastest of ROUNDS (default 5) CPU times: the engine's GIF to WebP q80 at full size and to a 16x16 JPEG
// (decode, and the resampler's pass over every pixel), beside gif2webp -lossy -q 80 and giftopnm (decode alone) natively.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_LIMITS, loadEngine } from './engine.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const rounds = Number(process.env.ROUNDS ?? 5);
const PHOTOS = ['photos/plasma-Kite-2560x1600.jpg', 'photos/plasma-Autumn-2560x1600.jpg', 'photos/plasma-ColorfulCups-2560x1600.jpg'];
const corpus = resolve(root, process.env.CORPUS ?? '../../shared/corpus');
const { createWasmEngine, readHeader, wasmBytes } = await loadEngine(root, cache);
const module = new WebAssembly.Module(wasmBytes);
const dir = mkdtempSync(join(tmpdir(), 'gif-bench-'));

const sh = (command) => execFileSync('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
const cpuMs = (before) => {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

/** The fastest of `rounds` runs of a native command, in CPU ms of its children (user + system). */
function nativeMs(command) {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const out = sh(`/usr/bin/time -f '%U %S' sh -c '${command}' 2>&1 >/dev/null | tail -1`).toString().trim().split(' ');
    best = Math.min(best, (Number(out[0]) + Number(out[1])) * 1000);
  }
  return best;
}

async function engineMs(input, out) {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const engine = createWasmEngine(module, { retireAfterBytes: 0 });
    const header = readHeader(input);
    const before = process.cpuUsage();
    await engine.transcode(input, header, { quality: 80, ...out(header) }, BENCH_LIMITS);
    best = Math.min(best, cpuMs(before));
  }
  return best;
}

console.log(`engine ${wasmBytes.length} bytes, Node ${process.version}, fastest of ${rounds}, CPU ms per MP\n`);
console.log('| GIF | MP | engine to WebP q80 | gif2webp -lossy -q 80 | ratio | engine to 16x16 JPEG | giftopnm | ratio |');
console.log('|---|---|---|---|---|---|---|---|');
try {
  for (const photo of PHOTOS) {
    const source = join(corpus, photo);
    const name = photo.split('/').pop().replace(/\.\w+$/, '');
    const plain = join(dir, `${name}.gif`);
    sh(`djpeg -pnm '${source}' | pnmquant 256 | ppmtogif > '${plain}'`);
    const interlaced = join(dir, `${name}-interlaced.gif`);
    sh(`gifsicle --interlace '${plain}' -o '${interlaced}'`);
    for (const file of [plain, interlaced]) {
      const input = new Uint8Array(readFileSync(file));
      const { width, height } = readHeader(input);
      const mp = (width * height) / 1e6;
      const webp = (await engineMs(input, (h) => ({ format: 'webp', width: h.width, height: h.height }))) / mp;
      const nativeWebp = nativeMs(`gif2webp -lossy -q 80 ${file} -o /dev/null`) / mp;
      const small = (await engineMs(input, () => ({ format: 'jpeg', width: 16, height: 16 }))) / mp;
      const nativeDecode = nativeMs(`giftopnm ${file}`) / mp;
      const label = `${name}${file === interlaced ? ' (interlaced)' : ''} ${width}x${height}`;
      console.log(`| ${label} | ${mp.toFixed(1)} | ${webp.toFixed(0)} | ${nativeWebp.toFixed(0)} | ${(webp / nativeWebp).toFixed(2)} | ${small.toFixed(1)} | ${nativeDecode.toFixed(1)} | ${(small / nativeDecode).toFixed(2)} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true });
}
