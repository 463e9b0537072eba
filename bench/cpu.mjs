// CPU-ms per megapixel of every engine path (each input format to each output format, each JPEG encoder
// plan), what 1,000 images cost at Workers Paid prices, and the JPEG paths beside a baseline engine in
// the same run. CPU time is this process's user + system time around the job (the engine runs on the
// main thread), which on a shared machine moves far less than wall time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_LIMITS } from './engine.mjs';
import { timeShell } from './tools.mjs';

/** Workers Paid: $0.02 per million CPU-ms, $0.30 per million requests. */
const USD_PER_CPU_MS = 0.02 / 1e6;
const USD_PER_REQUEST = 0.3 / 1e6;
const SERVICE_QUALITY = 80;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Median CPU-ms of `runs` runs of `job` after one warm-up (V8 compiles WASM lazily: the first job pays), and its last result. */
async function medianCpuMs(runs, job) {
  const times = [];
  let result;
  for (let i = 0; i <= runs; i++) {
    const start = cpuMs();
    result = await job();
    if (i > 0 || runs === 0) times.push(cpuMs() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], result };
}

async function measure(side, file, format, quality, plan, runs) {
  const input = new Uint8Array(readFileSync(file));
  const header = side.readHeader(input);
  const out = { format, quality, width: header.width, height: header.height };
  const engine = side.createWasmEngine(side.module, plan ? { plan: () => plan } : {});
  const { ms } = await medianCpuMs(runs, () => engine.transcode(input, header, out, BENCH_LIMITS));
  return { ms, mp: (header.width * header.height) / 1e6 };
}

/** The Accept headers of `auto`'s rows: what a browser sends that takes WebP, and AVIF and WebP. */
const AUTO_ACCEPTS = [
  ['image/webp,*/*', { acceptsWebp: true, acceptsAvif: false }],
  ['image/avif,image/webp,*/*', { acceptsWebp: true, acceptsAvif: true }],
];

/**
 * `auto` as the API runs it (compressImage: every candidate it makes, the one look across formats deciding at which
 * quality or whether), on each input and Accept, beside the baseline's `auto` in the same run: the lines of its table.
 */
async function autoTable(current, baseline, inputs) {
  const lines = [
    `| input (service quality ${SERVICE_QUALITY}, \`auto\`) | Accept | MP | answer: format, bytes | CPU-ms | CPU-ms/MP | $ per 1,000 images | baseline: answer | baseline CPU-ms/MP | current / baseline |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const run = async (side, input, accepts) =>
    medianCpuMs(3, () => side.compressImage(input, { quality: SERVICE_QUALITY, format: 'auto', ...accepts, ...BENCH_LIMITS }));
  for (const [name, file] of Object.entries(inputs)) {
    const input = new Uint8Array(readFileSync(file));
    const header = current.readHeader(input);
    const mp = (header.width * header.height) / 1e6;
    for (const [label, accepts] of AUTO_ACCEPTS) {
      const now = await run(current, input, accepts);
      const before = await run(baseline, input, accepts);
      const answer = ({ result }) => `${result.format} ${result.bytes.length}`;
      lines.push(
        `| ${name} | ${label} | ${mp.toFixed(1)} | ${answer(now)} | ${now.ms.toFixed(0)} | ${(now.ms / mp).toFixed(0)} | ${usd(now.ms, 1000)} | ${answer(before)} | ${(before.ms / mp).toFixed(0)} | **${(now.ms / before.ms).toFixed(2)}** |`,
      );
      console.log(lines.at(-1));
    }
  }
  return lines;
}

/**
 * The distinct JPEG plans the engine's planner picks as a photo of `header`'s kind grows from 1 to 100
 * MP (the engine takes a forced plan through createWasmEngine's `plan` option), named by their fields
 * that are set, with the size each starts at.
 */
function jpegPlans(side, header) {
  const plans = new Map();
  for (let mp = 1; mp <= 100; mp++) {
    const width = Math.round(Math.sqrt((mp * 1e6 * header.width) / header.height));
    const height = Math.round((width * header.height) / header.width);
    const scaled = { ...header, width, height, fileBytes: Math.round((header.fileBytes * width * height) / (header.width * header.height)) };
    const plan = side.planEncoder(scaled, { format: 'jpeg', quality: SERVICE_QUALITY, width, height });
    const key = JSON.stringify(plan);
    if (!plans.has(key)) {
      // Fields naming WebP do not touch a JPEG job.
      const set = Object.entries(plan)
        .filter(([k, v]) => v !== false && !/webp/i.test(k))
        .map(([k, v]) => (v === true ? k : `${k}=${v}`));
      plans.set(key, { plan, name: set.join(', ') || 'no option set', fromMp: mp });
    }
  }
  return [...plans.values()];
}

export const usd = (ms, count) => (count * (ms * USD_PER_CPU_MS + USD_PER_REQUEST)).toFixed(4);

/**
 * The table's lines. `photo` is a JPEG photo (the same picture is made into PNG and WebP inputs under
 * `cache`), `large` the bench's 24 MP JPEG; `current` and `baseline` are loaded engines with `module`.
 */
export async function cpuTable(current, baseline, photo, large, cache) {
  const ppm = join(cache, 'cpu-photo.ppm');
  const inputs = { JPEG: photo, PNG: join(cache, 'cpu-photo.png'), WebP: join(cache, 'cpu-photo.webp') };
  timeShell(`djpeg -ppm ${photo} > ${ppm} && pnmtopng ${ppm} > ${inputs.PNG} && cwebp -quiet -q 90 ${ppm} -o ${inputs.WebP}`);
  const outputs = [
    ['JPEG', 'jpeg', (side) => side.encoderQuality('jpeg', SERVICE_QUALITY)],
    ['WebP', 'webp', (side) => side.encoderQuality('webp', SERVICE_QUALITY)],
    ['AVIF', 'avif', (side) => side.encoderQuality('avif', SERVICE_QUALITY)],
    ['lossy PNG', 'png', (side) => side.encoderQuality('png', SERVICE_QUALITY)],
    ['lossless PNG', 'png', () => 100],
  ];
  // Lossless PNG of a 4 MP photo takes seconds: one job, its code already compiled by the lossy PNG row.
  const runsFor = (outName) => (outName === 'lossless PNG' ? 0 : 3);
  const lines = [
    `| path (service quality ${SERVICE_QUALITY}) | MP | plan | CPU-ms | CPU-ms/MP | $ per 1,000 images | baseline CPU-ms/MP | current / baseline |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  const row = async (name, file, format, quality, plan, planName, runs, compare) => {
    const r = await measure(current, file, format, quality(current), plan, runs);
    let base = ['', ''];
    if (compare) {
      const b = await measure(baseline, file, format, quality(baseline), undefined, runs);
      base = [(b.ms / b.mp).toFixed(0), `**${(r.ms / b.ms).toFixed(2)}**`];
    }
    lines.push(`| ${name} | ${r.mp.toFixed(1)} | ${planName} | ${r.ms.toFixed(0)} | ${(r.ms / r.mp).toFixed(0)} | ${usd(r.ms, 1000)} | ${base.join(' | ')} |`);
    console.log(lines.at(-1));
  };
  for (const [inputName, file] of Object.entries(inputs)) {
    for (const [outName, format, quality] of outputs) {
      await row(`${inputName} → ${outName}`, file, format, quality, undefined, 'planned', runsFor(outName), format === 'jpeg');
    }
  }
  const header = current.readHeader(new Uint8Array(readFileSync(photo)));
  for (const { plan, name, fromMp } of jpegPlans(current, header)) {
    await row('JPEG → JPEG, plan forced', photo, 'jpeg', outputs[0][2], plan, `${name} (planned from ${fromMp} MP)`, 3, false);
  }
  await row('24 MP JPEG → JPEG', large, 'jpeg', outputs[0][2], undefined, 'planned', 1, true);
  await row('24 MP JPEG → AVIF', large, 'avif', outputs[2][2], undefined, 'planned', 0, false);
  return [...lines, '', ...AUTO_NOTE, '', ...(await autoTable(current, baseline, inputs))];
}

export const CPU_NOTE = [
  "CPU-ms: this Node process's user + system time around one transcode (median of 3 after a warm-up job; lossless PNG and",
  `24 MP: one job), at service quality ${SERVICE_QUALITY} mapped by each engine's own quality scale. Rows include decoding the input, so`,
  'the ratio to the baseline understates a faster JPEG encoder a little. $ per 1,000 images: 1,000 x (CPU-ms x $0.02 per million',
  '+ $0.30 per million requests), the Workers Paid prices beyond the included monthly usage; a request also spends the',
  "Worker's own CPU (parsing, D1, the limiter), not counted here. The same picture is the input in every format: the photo,",
  'decoded by djpeg, written by pnmtopng and by cwebp -q 90. "plan forced" rows force each JPEG encoder plan that the planner',
  'picks as photos grow on the 4 MP photo.',
];

const AUTO_NOTE = [
  "`auto` on the same three inputs, each request as the API runs it (compressImage, every candidate it makes: the input's",
  "format, then WebP and AVIF where Accept lists them; CPU-ms median of 3 after a warm-up), beside the baseline's `auto`",
  "in the same run. Issue 36's one look across formats decides from the header alone (src/image/steps/one-look.ts: a",
  "few comparisons, and for a lossy WebP its VP8 frame header's quantisers read without decoding: 3.6 µs of CPU on this",
  "WebP, timed once over 100,000 reads), so its own CPU is nothing beside a job; what it changes is which candidates are",
  "made and at which quality: from this JPEG (saved at 90, 4:4:4: 10 above the quality asked) no WebP (the scale's 81",
  "before) and AVIF at 55 (53); from the PNG (5.7 bits a pixel: a photo by that rule) the scale's WebP 81 and AVIF 53, as",
  "before; from the lossy WebP (cwebp -q 90, read as 88, 7 above our WebP's 81) AVIF at the scale's 53.",
];
