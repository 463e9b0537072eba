// What handing the event loop back costs the engine, and the longest it still holds it, per path, in
// workerd (Miniflare, the runtime the Worker runs in: JSPI is there, not in the bench's Node 22). Each job
// runs on this checkout's engine as the service runs it (a timer at each hand-back), on the same engine
// with a hand-back that resumes at once (the stack switch without the timer's wait), and on a BASELINE
// engine (bench/engine.mjs: a git revision, by default the merge base with main), which holds the loop for
// the whole job. CPU time is the workerd process's (user + system, /proc), which a loaded machine moves far
// less than wall time; holds are wall time (local workerd's clock moves while code runs; production's only
// across I/O). Medians of alternating runs after a warm-up job each. Called by bench/run.mjs; `node bench/yield-cost.mjs` runs it alone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';

/** The worker: POST /run?engine=current|instant|baseline&format=&quality=&width= with the image as the body. */
const WORKER = `
import * as current from './current.mjs';
import * as baseline from './baseline.mjs';
import currentWasm from './current.wasm';
import baselineWasm from './baseline.wasm';

const instant = () => Promise.resolve();
// The watch reads the clock where a job hands the loop back and where it resumes: a hold is from a resume to the next hand-back.
let stamps = [];
const clock = () => { const t = performance.now(); stamps.push(t); return t; };
const engines = {
  baseline: baseline.createWasmEngine(baselineWasm),
  current: current.createWasmEngine(currentWasm, { clock }),
  instant: current.createWasmEngine(currentWasm, { clock, yieldToEventLoop: instant }),
};

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const name = url.searchParams.get('engine');
    const side = name === 'baseline' ? baseline : current;
    const input = new Uint8Array(await request.arrayBuffer());
    const header = side.readHeader(input);
    const format = url.searchParams.get('format');
    const width = Math.min(header.width, Number(url.searchParams.get('width')) || header.width);
    const height = Math.max(1, Math.round((header.height * width) / header.width));
    const quality = format === 'png' && url.searchParams.get('quality') === '100' ? 100 : side.encoderQuality(format, Number(url.searchParams.get('quality')));
    const engine = engines[name];
    stamps = [];
    const start = performance.now();
    await engine.transcode(input, header, { format, quality, width, height });
    const end = performance.now();
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU ms (user + system) of the workerd processes Miniflare started: children of this process. */
function workerdCpuMs() {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const pids = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('workerd'))
    .map((line) => line.trim().split(/\s+/)[0]);
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  }, 0);
}

/**
 * Lines of the table: per path (label, input file, format, quality, maxWidth), the wall time of the job on
 * each engine (median of `runs`), the cost of yielding (current / baseline, and current / instant hand-backs),
 * its hand-backs and the longest hold of the event loop, before (the whole job) and after.
 */
export async function yieldTable(root, current, baseline, paths, runs = 3) {
  const nodeModules = join(root, 'node_modules');
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      compatibilityDate: '2026-11-01',
      modules: [
        { type: 'ESModule', path: 'worker.mjs', contents: WORKER },
        { type: 'ESModule', path: 'current.mjs', contents: await bundle(current.from, nodeModules) },
        { type: 'ESModule', path: 'baseline.mjs', contents: await bundle(baseline.from, nodeModules) },
        { type: 'CompiledWasm', path: 'current.wasm', contents: current.wasmBytes },
        { type: 'CompiledWasm', path: 'baseline.wasm', contents: baseline.wasmBytes },
      ],
    }),
  );
  const lines = [
    '| path | MP | baseline CPU-ms | current CPU-ms | current / baseline CPU | current / instant CPU | current / baseline wall | hand-backs | longest hold before ms | longest hold after ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  try {
    for (const [label, file, format, quality, width] of paths) {
      const body = readFileSync(file);
      const results = { baseline: [], current: [], instant: [] };
      const run = async (name) => {
        const before = workerdCpuMs();
        const response = await mf.dispatchFetch(`http://bench/run?engine=${name}&format=${format}&quality=${quality}&width=${width ?? ''}`, { method: 'POST', body });
        if (!response.ok) throw new Error(`${label} on ${name}: ${response.status} ${await response.text()}`);
        return { ...(await response.json()), cpu: workerdCpuMs() - before };
      };
      // A warm-up job each: V8 compiles WASM lazily, and the first job pays.
      for (const name of Object.keys(results)) await run(name);
      for (let i = 0; i < runs; i++) {
        for (const name of Object.keys(results)) results[name].push(await run(name));
      }
      const of = (name, key) => median(results[name].map((r) => r[key]));
      lines.push(
        `| ${label} | ${results.current[0].mp.toFixed(1)} | ${of('baseline', 'cpu').toFixed(0)} | ${of('current', 'cpu').toFixed(0)} | ${(of('current', 'cpu') / of('baseline', 'cpu')).toFixed(3)} | ${(of('current', 'cpu') / of('instant', 'cpu')).toFixed(3)} | ${(of('current', 'ms') / of('baseline', 'ms')).toFixed(3)} | ${of('current', 'yields')} | ${of('baseline', 'longestHoldMs').toFixed(0)} | ${of('current', 'longestHoldMs').toFixed(0)} |`,
      );
      console.log(lines.at(-1));
    }
  } finally {
    await mf.dispose();
  }
  return lines;
}
