// npm run load: a bounded load run against a dev server of its own, on loopback only.
// Mixes real images across formats and sizes, every endpoint and several keys, then checks that no
// response was a 5xx, that every 429 is well formed, and that the usage in D1 equals what the
// responses reported. Prints a Markdown report for docs/benchmarks.md.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWranglerDev } from '../scripts/dev-server.mjs';
import { treeCpuMs } from './process-cpu.mjs';

const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 1500);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 8);
const MAX_SECONDS = Number(process.env.LOAD_MAX_SECONDS ?? 300);
const root = fileURLToPath(new URL('..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-load-'));
// The key command acts on the state named here, the server's.
process.env.SQUEEZE_STATE = state;
const { runWrangler, d1Target } = await import('../scripts/wrangler.mjs');

/** Seeded, so two runs send the same mix. */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = (list) => list[Math.floor(random() * list.length)];

/** The API tests' images, one of each kind (test/fixtures); then the shared corpus's photos and WebP files when it is there. */
const FIXTURES = ['api/chelsea.png', 'engine/testorig.jpg', 'engine/test.webp', 'engine/lossy_alpha4.webp', 'engine/pngsuite/basn6a08.png', 'engine/pngsuite/basn0g08.png', 'engine/pngsuite/z00n2c08.png'];

function images() {
  const fixtures = FIXTURES.map((name) => ({ name, bytes: readFileSync(join(root, 'test/fixtures', name)) }));
  const dirs = [join(root, '../shared/corpus/photos'), join(root, '../shared/corpus/webp')];
  const files = fixtures.concat(
    dirs.filter(existsSync).flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => /\.(jpe?g|png|webp)$/.test(f) && !f.startsWith('bryce'))
        .map((f) => ({ name: f, bytes: readFileSync(join(dir, f)) })),
    ),
  );
  const bad = readdirSync(join(root, 'test/fixtures/bad'))
    .filter((f) => !f.endsWith('.md'))
    .map((f) => ({ name: f, bytes: readFileSync(join(root, 'test/fixtures/bad', f)) }));
  return { good: files.filter((f) => f.bytes.length <= 5 * 1_048_576), bad };
}

function multipart(field, file, fields = {}) {
  const boundary = `----squeeze${Math.floor(random() * 1e12)}`;
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return { body: Buffer.concat([...parts, head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

function createKey(plan) {
  const out = execFileSync(process.execPath, [join(root, 'scripts/key.mjs'), 'create', '--plan', plan], { env: process.env, encoding: 'utf8' });
  return out.trim().split('\n').at(-1);
}

/** The mix: mostly compressions on business keys, a free key that hits its minute limit, demo, usage, bad files. */
function makeJob(keys, set) {
  const r = random();
  if (r < 0.6) {
    const file = pick(set.good);
    const form = multipart('file', file, { quality: String(pick([50, 75, 80, 90])), format: pick(['auto', 'auto', 'jpeg', 'webp', 'png']), ...(random() < 0.3 ? { maxWidth: '800' } : {}) });
    return { kind: 'compress', method: 'POST', path: '/v1/compress', headers: { 'X-API-Key': pick(keys.business), 'Content-Type': form.type, Accept: 'image/webp,*/*' }, body: form.body, key: 'business' };
  }
  if (r < 0.7) {
    const form = multipart('file', pick(set.good.filter((f) => f.bytes.length < 100_000)));
    return { kind: 'compress', method: 'POST', path: '/v1/compress', headers: { 'X-API-Key': keys.free, 'Content-Type': form.type }, body: form.body, key: 'free' };
  }
  if (r < 0.8) {
    const form = multipart('image', pick(set.good.filter((f) => f.bytes.length < 300_000)));
    // 20 clients, each in a /24 of its own (the demo also limits a network); `wrangler dev` passes the header through.
    return { kind: 'demo', method: 'POST', path: '/v1/demo-compress', headers: { 'Content-Type': form.type, 'CF-Connecting-IP': `198.18.${Math.floor(random() * 20)}.1` }, body: form.body };
  }
  if (r < 0.85) {
    const form = multipart('file', pick(set.bad));
    return { kind: 'bad', method: 'POST', path: '/v1/compress', headers: { 'X-API-Key': pick(keys.business), 'Content-Type': form.type }, body: form.body };
  }
  // Usage calls land on the free key too, so its 60-a-minute window runs out and 429s are exercised.
  return { kind: 'usage', method: 'GET', path: '/v1/usage', headers: { 'X-API-Key': random() < 0.7 ? keys.free : pick(keys.business) } };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const server = await startWranglerDev({ state, preferredPort: 8788 });
const serverCpuMs = () => treeCpuMs(server.pid);
try {
  const keys = { business: [createKey('business'), createKey('business'), createKey('business')], free: createKey('free') };
  const set = images();
  const jobs = Array.from({ length: REQUESTS }, () => makeJob(keys, set));
  const reported = new Map();
  const problems = [];
  const statuses = {};
  const latencies = [];
  let next = 0;
  let imagesDone = 0;

  const cpuBefore = serverCpuMs();
  const started = Date.now();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    amount: REQUESTS,
    duration: MAX_SECONDS,
    timeout: 60,
    requests: [
      {
        setupRequest(req, context) {
          const job = jobs[next++ % jobs.length];
          context.job = job;
          context.sentAt = performance.now();
          return { ...req, method: job.method, path: job.path, headers: job.headers, body: job.body };
        },
        onResponse(status, body, context, headers) {
          latencies.push(performance.now() - context.sentAt);
          const job = context.job;
          statuses[status] = (statuses[status] ?? 0) + 1;
          // autocannon keeps the header names as the server spelt them.
          const header = (name) => Object.entries(headers).find(([n]) => n.toLowerCase() === name)?.[1];
          if (status >= 500) problems.push(`${job.kind} ${job.path}: ${status} ${body}`);
          if (status === 429) {
            const parsed = JSON.parse(body);
            if (!['rate_limited', 'quota_exceeded'].includes(parsed.error) || !parsed.resetAt || !header('retry-after')) {
              problems.push(`malformed 429: ${body}`);
            }
          }
          if (status === 200 && job.kind !== 'usage') imagesDone++;
          if (status === 200 && job.kind === 'compress') {
            const key = job.headers['X-API-Key'];
            const sums = reported.get(key) ?? { requests: 0, bytesIn: 0, bytesOut: 0 };
            sums.requests++;
            sums.bytesIn += Number(header('x-original-size'));
            sums.bytesOut += Number(header('x-compressed-size'));
            reported.set(key, sums);
          }
        },
      },
    ],
  });
  const seconds = (Date.now() - started) / 1000;
  const cpuMs = serverCpuMs() - cpuBefore;

  const rows = JSON.parse(runWrangler(['d1', 'execute', 'DB', ...d1Target(false, state), '--json', '--command',
    'SELECT k.prefix, u.requests, u.bytes_in, u.bytes_out FROM monthly_usage u JOIN api_keys k ON k.id = u.key_id']));
  const inD1 = new Map(rows[0].results.map((r) => [r.prefix, r]));
  for (const [key, sums] of reported) {
    const row = inD1.get(key.slice(0, 12));
    if (!row || row.requests !== sums.requests || row.bytes_in !== sums.bytesIn || row.bytes_out !== sums.bytesOut) {
      problems.push(`usage of ${key.slice(0, 12)}: responses said ${JSON.stringify(sums)}, D1 has ${JSON.stringify(row)}`);
    }
  }

  latencies.sort((a, b) => a - b);
  const fivexx = Object.entries(statuses).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(`\n## Load (\`npm run load\`, ${new Date().toISOString().slice(0, 10)})\n`);
  console.log(`${result.requests.total} requests, ${CONNECTIONS} connections, ${set.good.length} images (+${set.bad.length} hostile), one wrangler dev on loopback.\n`);
  console.log('| measure | value |\n|---|---|');
  console.log(`| throughput | ${(result.requests.total / seconds).toFixed(1)} requests/s over ${seconds.toFixed(1)} s |`);
  console.log(`| latency p50 / p95 / p99 | ${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${percentile(latencies, 99).toFixed(0)} ms |`);
  console.log(`| images compressed (200) | ${imagesDone} |`);
  console.log(`| CPU per image (workerd + wrangler, all requests' CPU / images) | ${(cpuMs / Math.max(1, imagesDone)).toFixed(1)} ms |`);
  console.log(`| statuses | ${Object.entries(statuses).map(([s, c]) => `${s}: ${c}`).join(', ')} |`);
  console.log(`| 5xx | ${fivexx} |`);
  console.log(`| transport errors / timeouts | ${result.errors} / ${result.timeouts} |`);
  console.log(`| usage in D1 = sum of responses | ${problems.some((p) => p.startsWith('usage')) ? 'NO' : 'yes'} (${reported.size} keys) |`);
  if (problems.length) {
    console.log(`\nProblems:\n${problems.slice(0, 20).map((p) => `- ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
  if (result.errors || result.timeouts) process.exitCode = 1;
} finally {
  await server.stop();
  rmSync(state, { recursive: true, force: true });
}
