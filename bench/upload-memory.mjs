// npm run bench:uploads: what large uploads cost the isolate while they are read and parsed, as workerd's
// resident memory under a real `wrangler dev`, beside a BASELINE checkout (a git revision; default: this
// one alone). Each scenario runs on a fresh dev server of each checkout, one after the other: the resident
// memory is sampled every 5 ms from before the first request to the last answer, and the table gives its
// rise (peak minus the idle server's), so two checkouts compare on one machine in one run. The images are
// real 64x64 PNGs carrying a 9.2 MiB private chunk: large bodies the engine spends almost nothing on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCheckouts, largePng, multipart } from './uploads.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1_048_576;

/** Resident memory of the workerd processes under `rootPid`, in bytes. */
function workerdRss(rootPid) {
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name) => status.match(new RegExp(`^${name}:\\s*(\\S+)`, 'm'))?.[1];
      procs.push({ pid: Number(entry), ppid: Number(field('PPid')), name: field('Name'), rssKb: Number(field('VmRSS') ?? 0) });
    } catch {
      // exited meanwhile
    }
  }
  const inTree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) grew = inTree.add(p.pid) !== undefined;
  }
  return procs.filter((p) => inTree.has(p.pid) && p.name?.startsWith('workerd')).reduce((sum, p) => sum + p.rssKb * 1024, 0);
}

const image = largePng(Math.round(9.2 * MiB));
const form = multipart(image);
const json = Buffer.from(JSON.stringify({ image: image.toString('base64') }));

/** One upload measures what one costs (the median of `runs` fresh servers); the burst is issue 19's. */
const scenarios = [
  { name: 'one multipart upload of 9.2 MiB', plan: 'business', count: 1, runs: 3, body: form.body, type: form.type },
  { name: 'one base64 JSON upload of 9.2 MiB', plan: 'business', count: 1, runs: 3, body: json, type: 'application/json' },
  { name: "30 concurrent multipart uploads of 9.2 MiB, one free account (issue 19's burst)", plan: 'free', count: 30, runs: 1, body: form.body, type: form.type },
];

async function runScenario(checkout, scenario) {
  const state = mkdtempSync(join(tmpdir(), 'squeeze-uploads-'));
  const { startWranglerDev } = await import(join(checkout, 'scripts/dev-server.mjs'));
  const server = await startWranglerDev({ state, preferredPort: 8797 });
  try {
    const out = execFileSync(process.execPath, [join(checkout, 'scripts/key.mjs'), 'create', '--plan', scenario.plan], {
      cwd: checkout,
      env: { ...process.env, SQUEEZE_STATE: state },
      encoding: 'utf8',
    });
    const key = out.trim().split('\n').at(-1);
    // One small request first, so the idle reading includes a warm Worker.
    await (await fetch(`${server.url}/v1/usage`, { headers: { 'X-API-Key': key } })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 1000));
    const idle = workerdRss(server.pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, workerdRss(server.pid))), 5);
    const statuses = {};
    const send = async () => {
      const response = await fetch(`${server.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': scenario.type }, body: scenario.body });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: scenario.count }, send));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, workerdRss(server.pid));
    return { idle, peak, statuses, seconds };
  } finally {
    await server.stop();
    rmSync(state, { recursive: true, force: true });
  }
}

const { revision: baselineRevision, list: checkouts, remove: removeBaseline } = benchCheckouts(root);
const rows = [];
try {
  for (const scenario of scenarios) {
    for (const checkout of checkouts) {
      const results = [];
      for (let run = 0; run < scenario.runs; run++) {
        results.push(await runScenario(checkout.dir, scenario));
        console.error(`${scenario.name} / ${checkout.label}: ${JSON.stringify(results.at(-1))}`);
      }
      results.sort((a, b) => a.peak - a.idle - (b.peak - b.idle));
      rows.push({ scenario: scenario.name, checkout: checkout.label, ...results[Math.floor(results.length / 2)] });
    }
  }
} finally {
  removeBaseline();
}

const mib = (bytes) => (bytes / MiB).toFixed(0);
console.log(`\n## Uploads: workerd's memory while bodies are read and parsed (\`${baselineRevision ? `BASELINE=${baselineRevision} ` : ''}npm run bench:uploads\`, ${new Date().toISOString().slice(0, 10)})\n`);
console.log('| scenario | checkout | idle RSS (MiB) | peak RSS (MiB) | rise (MiB) | answers | seconds |\n|---|---|---|---|---|---|---|');
for (const r of rows) {
  const answers = Object.entries(r.statuses).map(([status, n]) => `${n} x ${status}`).join(', ');
  console.log(`| ${r.scenario} | ${r.checkout} | ${mib(r.idle)} | ${mib(r.peak)} | ${mib(r.peak - r.idle)} | ${answers} | ${r.seconds.toFixed(1)} |`);
}
