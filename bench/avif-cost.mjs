// npm run bench's AVIF rows (issue 22): CPU per megapixel of the engine's AVIF at each libaom speed it uses (6 to
// 9, which avif-plan.ts picks by output size), beside native avifenc at the same speed, quantiser and 4:4:4 (Debian
// bookworm's libavif 0.11 with libaom 3.6, one thread, no tune=iq) and beside WebP (the engine's and cwebp's) on
// the same photos in the same run, with the price of 1,000 images. CPU time, user + system: this process's around
// an engine job, the waited-for children's around a native one (/proc/self/stat), which a loaded machine moves far
// less than wall time. `node bench/run.mjs avif` runs it alone.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { usd } from './cpu.mjs';
import { median } from './curves.mjs';
import { BENCH_LIMITS } from './engine.mjs';
import { importSources } from './import-sources.mjs';

const SERVICE_QUALITY = 80;
const SPEEDS = [6, 7, 8, 9];
const RUNS = 3;

export const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** User + system CPU of this process's children that were waited for (fields cutime and cstime), in ms. */
function childrenCpuMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

export function nativeCpuMs(command) {
  const before = childrenCpuMs();
  const result = spawnSync('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return childrenCpuMs() - before;
}

/**
 * The table's lines. `current` is a loaded engine with `module` (bench/engine.mjs); `photos` are [label, file]
 * (JPEG photos: both sides decode them); `work` a scratch folder, `cache` bench/.cache.
 */
export async function avifCostTable(current, photos, work, cache) {
  const { avifQualityAt } = await importSources(cache, 'avif-plan', ["export { avifQualityAt } from './src/image/wasm/avif-plan';"], current.from);
  const lines = [
    `| photo | MP | path (service quality ${SERVICE_QUALITY}) | engine CPU-ms/MP | $ per 1,000 images (engine) | native CPU-ms/MP | native | engine / native |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [label, file] of photos) {
    const input = new Uint8Array(readFileSync(file));
    const header = current.readHeader(input);
    const mp = (header.width * header.height) / 1e6;
    const out = { width: header.width, height: header.height };
    const engineMs = async (spec, options = {}) => {
      const engine = current.createWasmEngine(current.module, options);
      const times = [];
      for (let i = 0; i <= RUNS; i++) {
        const start = ownCpuMs();
        await engine.transcode(input, header, { ...out, ...spec }, BENCH_LIMITS);
        if (i > 0) times.push(ownCpuMs() - start);
      }
      return median(times);
    };
    const nativeMs = (command) => median(Array.from({ length: RUNS }, () => nativeCpuMs(command)));
    const row = (path, ms, native, tool) =>
      `| ${label} | ${mp.toFixed(1)} | ${path} | ${(ms / mp).toFixed(0)} | ${usd(ms, 1000)} | ${(native / mp).toFixed(0)} | ${tool} | ${(ms / native).toFixed(2)}x |`;

    const asked = current.encoderQuality('avif', SERVICE_QUALITY);
    for (const speed of SPEEDS) {
      // The plan's quality at that speed (raised at faster ones to keep the look), and libavif's quantiser for it.
      const quality = avifQualityAt(speed, asked);
      const cq = Math.floor(((100 - quality) * 63) / 100);
      const ms = await engineMs({ format: 'avif', quality }, { avif: { speed, quality } });
      const native = nativeMs(`avifenc -j 1 -s ${speed} -y 444 --min ${cq} --max ${cq} ${file} ${work}/cost.avif`);
      lines.push(row(`AVIF, speed ${speed} (quality ${quality}, cq ${cq})`, ms, native, `avifenc -s ${speed} -y 444`));
      console.log(lines.at(-1));
    }
    const webp = current.encoderQuality('webp', SERVICE_QUALITY);
    const ms = await engineMs({ format: 'webp', quality: webp });
    const native = nativeMs(`cwebp -quiet -q ${webp} ${file} -o ${work}/cost.webp`);
    lines.push(row(`WebP (quality ${webp})`, ms, native, `cwebp -q ${webp}`));
    console.log(lines.at(-1));
  }
  return lines;
}

export const AVIF_COST_NOTE = [
  'Each row: one photo decoded and encoded, median of 3 after a warm-up job (engine) or of 3 runs (native). The engine is',
  "forced to each speed at the quality its plan gives that speed (src/image/wasm/avif-plan.ts: the service's quality raised",
  'by 0, 5, 10 and 12 at speeds 6 to 9); the service uses speed 6 up to 4 MP of output, 7 up to 16 and 9 above.',
  'avifenc gets the same speed, quantiser and 4:4:4 but is libaom 3.6 with its default tune (no tune=iq, which 3.12 adds) and',
  'reads the JPEG with libjpeg-turbo; cwebp gets the engine\'s WebP quality. $ per 1,000 images: 1,000 x (CPU-ms x $0.02 per',
  'million + $0.30 per million requests), Workers Paid, the engine\'s CPU only.',
];
