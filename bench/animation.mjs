// node bench/animation.mjs: an animated GIF to animated WebP (issue 38), the engine beside gif2webp on the same files,
// one run side by side. Two 800x600 GIFs of 100 frames (4 cs, loop forever) made here from test/fixtures/api/chelsea.png
// with netpbm and gifsicle -O2: `patch`, the photo in 128 colours with a 200x150 patch of it sliding across (each
// frame stored as its changed rectangle, as most GIFs are), and `pan`, a window panning over the photo (every frame
// changed whole, 256 colours of its own). For each: the engine's CPU, heap top and output at q80 beside its models'
// predictions, and gif2webp -lossy -q 80's CPU, peak RSS and output with no key frames inserted (-kmax 0, the
// engine's settings: the same bytes), with its own (kmin 3, kmax 5) and with -mixed (lossy or lossless per frame).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_LIMITS, loadEngine } from './engine.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const { createWasmEngine, readHeader, wasmBytes, sha256 } = await loadEngine(root, cache);
const module = new WebAssembly.Module(wasmBytes);
const dir = mkdtempSync(join(tmpdir(), 'anim-bench-'));
const sh = (command) => execFileSync('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
const MiB = 1024 * 1024;

function makeGifs() {
  sh(`cd '${dir}' && convert '${root}/test/fixtures/api/chelsea.png' ppm:- | pamscale -xsize 1000 -ysize 750 > big.ppm`);
  sh(`cd '${dir}' && pamscale -xsize 800 -ysize 600 big.ppm | pnmquant 128 > q.ppm && pamcut -left 300 -top 200 -width 200 -height 150 q.ppm | pamflip -tb > patch.ppm`);
  for (let i = 0; i < 100; i++) {
    const n = String(i).padStart(3, '0');
    sh(`cd '${dir}' && pnmpaste patch.ppm ${i * 6} ${Math.floor((i * 9) / 2)} q.ppm | ppmtogif -map=q.ppm > p${n}.gif`);
    sh(`cd '${dir}' && pamcut -left ${Math.floor((i * 200) / 100)} -top ${Math.floor((i * 150) / 100)} -width 800 -height 600 big.ppm | pnmquant 256 | ppmtogif > w${n}.gif`);
  }
  sh(`cd '${dir}' && gifsicle --loopcount=forever --delay 4 -O2 p*.gif -o patch.gif && gifsicle --loopcount=forever --delay 4 -O2 w*.gif -o pan.gif`);
  return { patch: join(dir, 'patch.gif'), pan: join(dir, 'pan.gif') };
}

/** CPU ms (user + system) and peak RSS (KiB) of a native command, and its output's bytes. */
function native(args, output) {
  const [user, system, rss] = sh(`/usr/bin/time -f '%U %S %M' gif2webp ${args} -o '${output}' 2>&1 >/dev/null | tail -1`).toString().trim().split(' ').map(Number);
  return { ms: (user + system) * 1000, rssMiB: rss / 1024, bytes: statSync(output).size };
}

async function engineRun(input) {
  const engine = createWasmEngine(module, { retireAfterBytes: 0 });
  const header = readHeader(input);
  const out = { format: 'webp', quality: 80, width: header.width, height: header.height, animated: true };
  const before = process.cpuUsage();
  const bytes = await engine.transcode(input, header, out, BENCH_LIMITS);
  const used = process.cpuUsage(before);
  const job = engine.lastJob();
  return {
    ms: (used.user + used.system) / 1000,
    heapMiB: job.wasmBytes / MiB,
    measuredMiB: (job.wasmBytes + job.outputBufferBytes) / MiB,
    predictedMiB: engine.estimatePeakBytes(header, out) / MiB,
    predictedMs: engine.estimateCpuMs(header, out),
    bytes: bytes.length,
    frames: header.gif.frameCount,
  };
}

console.log(`engine sha256 ${sha256.slice(0, 16)}..., Node ${process.version}; one run of each, side by side\n`);
console.log('| GIF (800x600, 100 frames) | GIF bytes | engine q80: CPU ms (ms/frame) | heap top + output MiB (model) | CPU model ms | bytes | gif2webp -lossy -q 80 -kmax 0: CPU ms, RSS MiB, bytes | engine / gif2webp CPU | gif2webp -lossy -q 80 (key frames): CPU ms, bytes | -mixed: CPU ms, bytes |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
try {
  for (const [name, file] of Object.entries(makeGifs())) {
    const input = new Uint8Array(readFileSync(file));
    const ours = await engineRun(input);
    const lossy = native(`-lossy -q 80 '${file}'`, join(dir, `${name}.webp`));
    const noKeys = native(`-lossy -q 80 -kmax 0 '${file}'`, join(dir, `${name}-k0.webp`));
    const mixed = native(`-mixed -q 80 '${file}'`, join(dir, `${name}-mixed.webp`));
    console.log(
      `| ${name} | ${input.length} | ${ours.ms.toFixed(0)} (${(ours.ms / ours.frames).toFixed(1)}) | ${ours.measuredMiB.toFixed(1)} (${ours.predictedMiB.toFixed(1)}) | ${ours.predictedMs} | ${ours.bytes} | ` +
        `${noKeys.ms.toFixed(0)}, ${noKeys.rssMiB.toFixed(1)}, ${noKeys.bytes} | ${(ours.ms / noKeys.ms).toFixed(2)} | ${lossy.ms.toFixed(0)}, ${lossy.bytes} | ${mixed.ms.toFixed(0)}, ${mixed.bytes} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true });
}
