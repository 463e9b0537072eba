// What handing the event loop back costs the engine, and the longest it still holds it, per path, in
// workerd (Miniflare, the runtime the Worker runs in: JSPI is there, not in the bench's Node 22). Each job
// runs on this checkout's engine as the service runs it (a timer at each hand-back), on the same engine
// handing back through a probe that reads workerd's CPU time, and on a BASELINE engine (bench/engine.mjs:
// a git revision, by default the merge base with main) given this checkout's encoder plan, which does the
// same codec work and holds the loop for the whole job; and, given a PREVIOUS engine (another revision that hands
// back), on that one paced by CPU time too, for its longest holds beside this one's. CPU time is the workerd process's, from
// /proc/<pid>/task/*/schedstat (nanoseconds; a loaded machine moves it far less than wall time): the cost
// of yielding is current / baseline CPU, and a hold in CPU time is the CPU between two probes, which no
// other process on the machine lengthens. Medians of alternating runs after a warm-up job each. Called by
// bench/run.mjs; `npm run bench -- yield` runs it alone.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';

/**
 * The worker: POST /run?engine=current|probed|baseline|previous&format=&quality=&width= with the image as the body;
 * GET /calibrate probes 21 times with no work between. The probe (env.PROBE, the bench's own HTTP server)
 * answers with workerd's CPU ms, which the probed engines' watches read as their clock: they learn how fast
 * work runs from CPU time, as they would on an idle machine with no other requests.
 */
const WORKER = `
import * as current from './current.mjs';
import * as baseline from './baseline.mjs';
import * as previous from './previous.mjs';
import currentWasm from './current.wasm';
import baselineWasm from './baseline.wasm';
import previousWasm from './previous.wasm';

let probeUrl;
let cpuMs = 0;
const probe = async () => { cpuMs = Number(await (await fetch(probeUrl)).text()); };
// The watch reads the clock where a job hands the loop back and where it resumes: a hold is from a resume to the next hand-back.
let stamps = [];
const clock = () => { const t = performance.now(); stamps.push(t); return t; };
const engines = {
  baseline: baseline.createWasmEngine(baselineWasm, { plan: current.planEncoder }),
  current: current.createWasmEngine(currentWasm, { clock }),
  probed: current.createWasmEngine(currentWasm, { clock: () => cpuMs, yieldToEventLoop: probe }),
  previous: previous.createWasmEngine(previousWasm, { clock: () => cpuMs, yieldToEventLoop: probe }),
};
// The bench measures; the service's budget would stop a job that a loaded machine slows past it.
const limits = { cpuBudgetMs: 1e9 };

export default {
  async fetch(request, env) {
    probeUrl = env.PROBE;
    const url = new URL(request.url);
    if (url.pathname === '/calibrate') {
      for (let i = 0; i < 21; i++) await probe();
      return new Response('ok');
    }
    const name = url.searchParams.get('engine');
    const side = { baseline, previous }[name] ?? current;
    const input = new Uint8Array(await request.arrayBuffer());
    const header = side.readHeader(input);
    const format = url.searchParams.get('format');
    const width = Math.min(header.width, Number(url.searchParams.get('width')) || header.width);
    const height = Math.max(1, Math.round((header.height * width) / header.width));
    const quality = format === 'png' && url.searchParams.get('quality') === '100' ? 100 : side.encoderQuality(format, Number(url.searchParams.get('quality')));
    const engine = engines[name];
    const probed = name === 'probed' || name === 'previous';
    if (probed) await probe();
    stamps = [];
    const start = performance.now();
    await engine.transcode(input, header, { format, quality, width, height }, limits);
    const end = performance.now();
    if (probed) await probe();
    const points = [start, ...stamps.slice(1), end];
    let longest = 0;
    for (let i = 1; i < points.length; i += 2) longest = Math.max(longest, points[i] - points[i - 1]);
    return Response.json({ ms: end - start, longestHoldMs: name === 'baseline' ? end - start : longest, yields: engine.lastJob().yields ?? 0, mp: (header.width * header.height) / 1e6 });
  },
};
`;

async function bundle(from, nodeModules) {
  const result = await build({
    stdin: {
      contents: [
        "export { createWasmEngine } from './src/image/wasm/wasm-engine';",
        "export { planEncoder } from './src/image/wasm/memory-model';",
        "export { readHeader } from './src/image/header/read-header';",
        "export { encoderQuality } from './src/image/quality-scale';",
      ].join('\n'),
      resolveDir: from,
      loader: 'ts',
    },
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    write: false,
    nodePaths: [nodeModules],
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

const MIN_CPU_MS = 3000;
const MAX_RUNS = 25;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The workerd processes Miniflare started: children of this process. */
function workerdPids() {
  return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('workerd'))
    .map((line) => line.trim().split(/\s+/)[0]);
}

/** CPU ms of those processes, every thread: the first field of each thread's schedstat, in nanoseconds. */
function cpuMs(pids) {
  let ns = 0;
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return ns / 1e6;
}

/** The probe: records workerd's CPU time each time the probed engine hands back, and tells it. */
async function startProbe(pids) {
  const readings = [];
  const server = createServer((request, response) => {
    const now = cpuMs(pids());
    readings.push(now);
    response.end(String(now));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, readings, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** CPU ms between consecutive readings. */
const gaps = (readings) => readings.slice(1).map((r, i) => r - readings[i]);

/**
 * Lines of the table: per path (label, input file, format, quality, maxWidth), the CPU time of the job on
 * the baseline and current engines (medians of `runs` or more), the cost of counting work and yielding (current /
 * baseline), the hand-backs of the current engine and of the one paced by CPU time (probed), and the longest
 * hold of the event loop, before (the baseline's whole job) and after, in CPU time (probed) and in wall
 * time (current, on this machine); with a `previous` engine, its hand-backs and longest hold paced by CPU time.
 */
export async function yieldTable(root, current, baseline, paths, runs = 3, previous = undefined) {
  const nodeModules = join(root, 'node_modules');
  let pids = [];
  const probe = await startProbe(() => pids);
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      compatibilityDate: '2026-11-01',
      bindings: { PROBE: probe.url },
      modules: [
        { type: 'ESModule', path: 'worker.mjs', contents: WORKER },
        { type: 'ESModule', path: 'current.mjs', contents: await bundle(current.from, nodeModules) },
        { type: 'ESModule', path: 'baseline.mjs', contents: await bundle(baseline.from, nodeModules) },
        { type: 'ESModule', path: 'previous.mjs', contents: await bundle((previous ?? current).from, nodeModules) },
        { type: 'CompiledWasm', path: 'current.wasm', contents: current.wasmBytes },
        { type: 'CompiledWasm', path: 'baseline.wasm', contents: baseline.wasmBytes },
        { type: 'CompiledWasm', path: 'previous.wasm', contents: (previous ?? current).wasmBytes },
      ],
    }),
  );
  const columns = [
    'path',
    'MP',
    'baseline CPU-ms',
    'current CPU-ms',
    'current / baseline CPU',
    'hand-backs',
    'hand-backs paced by CPU time',
    ...(previous ? ['PREVIOUS hand-backs paced by CPU time'] : []),
    'longest hold before, CPU-ms',
    ...(previous ? ['longest hold on PREVIOUS, CPU-ms'] : []),
    'longest hold after, CPU-ms',
    'longest hold before, wall ms',
    'longest hold after, wall ms',
  ];
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---|').join('')}`];
  try {
    await mf.ready;
    pids = workerdPids();
    // What one probe costs workerd (its fetch out and back): taken off each hold.
    probe.readings.length = 0;
    await (await mf.dispatchFetch('http://bench/calibrate')).text();
    const probeCostMs = median(gaps(probe.readings));
    console.log(`one probe: ${probeCostMs.toFixed(3)} CPU-ms of workerd`);
    for (const [label, file, format, quality, width] of paths) {
      const body = readFileSync(file);
      const results = { baseline: [], current: [], probed: [], ...(previous ? { previous: [] } : {}) };
      const run = async (name) => {
        probe.readings.length = 0;
        const before = cpuMs(pids);
        const response = await mf.dispatchFetch(`http://bench/run?engine=${name}&format=${format}&quality=${quality}&width=${width ?? ''}`, { method: 'POST', body });
        if (!response.ok) throw new Error(`${label} on ${name}: ${response.status} ${await response.text()}`);
        const result = { ...(await response.json()), cpu: cpuMs(pids) - before };
        if (name === 'probed' || name === 'previous') result.longestHoldCpuMs = Math.max(...gaps(probe.readings)) - probeCostMs;
        return result;
      };
      // A warm-up job each: V8 compiles WASM lazily, and the first job pays. Short jobs run more times,
      // so that each engine spends about MIN_CPU_MS in all and a few ms of noise stay under a percent.
      const warm = {};
      for (const name of Object.keys(results)) warm[name] = await run(name);
      const times = Math.max(runs, Math.min(MAX_RUNS, Math.ceil(MIN_CPU_MS / warm.baseline.cpu)));
      for (let i = 0; i < times; i++) {
        for (const name of Object.keys(results)) results[name].push(await run(name));
      }
      const of = (name, key) => median(results[name].map((r) => r[key]));
      const cells = [
        results.current[0].mp.toFixed(1),
        of('baseline', 'cpu').toFixed(0),
        of('current', 'cpu').toFixed(0),
        (of('current', 'cpu') / of('baseline', 'cpu')).toFixed(3),
        of('current', 'yields'),
        of('probed', 'yields'),
        ...(previous ? [of('previous', 'yields')] : []),
        of('baseline', 'cpu').toFixed(0),
        ...(previous ? [of('previous', 'longestHoldCpuMs').toFixed(1)] : []),
        of('probed', 'longestHoldCpuMs').toFixed(1),
        of('baseline', 'longestHoldMs').toFixed(0),
        of('current', 'longestHoldMs').toFixed(0),
      ];
      lines.push(`| ${label} | ${cells.join(' | ')} |`);
      console.log(lines.at(-1));
    }
    lines.push('', `One probe cost workerd ${probeCostMs.toFixed(2)} CPU-ms (median of 20 in a row), taken off each hold.`);
  } finally {
    await mf.dispose();
    await probe.close();
  }
  return lines;
}
