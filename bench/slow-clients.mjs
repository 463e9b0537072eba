// npm run bench:slow-clients: honest uploads answered while slow connections trickle (issue 35, item 2),
// against a real `wrangler dev` on loopback, beside a BASELINE checkout (a git revision; default: this one
// alone). Each scenario runs on a fresh dev server of each checkout: the slow connections announce large
// bodies (Content-Length) and send their part's head, then 16 bytes every 2 s; meanwhile one honest client
// uploads a real 9.2 MiB image (a 64x64 PNG carrying a private chunk, so the engine's work is negligible),
// one after the other, for WINDOW_S seconds. Every loop is bounded in count and time; at the end every
// connection still open is closed. Prints a Markdown table for docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCheckouts, largePng, multipart } from './uploads.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const WINDOW_S = Number(process.env.WINDOW_S ?? 20);
const MAX_HONEST = 200;
const image = largePng(Math.round(9.2 * 1_048_576));
const honestBody = multipart(image);

const scenarios = [
  {
    name: 'three slow keyed uploads announcing 14,000,000, 14,000,000 and 3,700,000 bytes (one free account)',
    slow: (key) => [14_000_000, 14_000_000, 3_700_000].map((declared) => ({ path: '/v1/compress', field: 'file', headers: { 'X-API-Key': key }, declared })),
  },
  {
    name: 'five slow demo uploads announcing 7,000,000 bytes (one address)',
    slow: () => Array.from({ length: 5 }, () => ({ path: '/v1/demo-compress', field: 'image', headers: { 'CF-Connecting-IP': '198.51.100.7' }, declared: 7_000_000 })),
  },
];

/** A connection that announces `declared` bytes and sends 16 every 2 s; `close()` ends it if still open. */
function slowConnection(url, { path, field, headers, declared }) {
  const { body, type } = multipart(Buffer.alloc(0), field);
  const head = body.subarray(0, body.indexOf('\r\n\r\n') + 4);
  const started = performance.now();
  let trickle;
  let req;
  const answered = new Promise((resolve) => {
    const end = (status) => {
      clearInterval(trickle);
      resolve({ status, seconds: (performance.now() - started) / 1000 });
    };
    req = request(`${url}${path}`, { method: 'POST', headers: { ...headers, 'Content-Type': type, 'Content-Length': declared } }, (res) => {
      res.resume();
      res.on('end', () => end(res.statusCode));
    });
    req.on('error', () => end('closed'));
    req.write(head);
    trickle = setInterval(() => req.write(Buffer.alloc(16)), 2000);
  });
  return { answered, close: () => req.destroy() };
}

async function runScenario(checkout, scenario) {
  const state = mkdtempSync(join(tmpdir(), 'squeeze-slow-clients-'));
  const { startWranglerDev } = await import(join(checkout, 'scripts/dev-server.mjs'));
  const server = await startWranglerDev({ state, preferredPort: 8796 });
  const createKey = (plan) =>
    execFileSync(process.execPath, [join(checkout, 'scripts/key.mjs'), 'create', '--plan', plan], { cwd: checkout, env: { ...process.env, SQUEEZE_STATE: state }, encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1);
  try {
    const [attacker, honest] = [createKey('free'), createKey('business')];
    // A warm Worker before the clock starts.
    await (await fetch(`${server.url}/v1/usage`, { headers: { 'X-API-Key': honest } })).arrayBuffer();
    const slow = scenario.slow(attacker).map((connection) => slowConnection(server.url, connection));
    // The slow connections are in before the first honest upload.
    await new Promise((r) => setTimeout(r, 500));
    const statuses = {};
    const seconds = [];
    let lengthless = 0;
    const started = performance.now();
    for (let i = 0; i < MAX_HONEST && performance.now() - started < WINDOW_S * 1000; i++) {
      const sent = performance.now();
      const response = await fetch(`${server.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': honest, 'Content-Type': honestBody.type }, body: honestBody.body });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 200) seconds.push((performance.now() - sent) / 1000);
      // An answer is streamed to the client (src/routes/image-response.ts): its length must still be on the wire.
      if (response.status === 200 && response.headers.get('content-length') !== response.headers.get('x-compressed-size')) lengthless += 1;
    }
    for (const connection of slow) connection.close();
    const slowResults = await Promise.all(slow.map((connection) => connection.answered));
    seconds.sort((a, b) => a - b);
    return { statuses, medianSeconds: seconds[Math.floor(seconds.length / 2)], lengthless, slow: slowResults };
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
      const result = await runScenario(checkout.dir, scenario);
      console.error(`${scenario.name} / ${checkout.label}: ${JSON.stringify(result)}`);
      rows.push({ scenario: scenario.name, checkout: checkout.label, ...result });
    }
  }
} finally {
  removeBaseline();
}

const counts = (statuses) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');
const slowly = (results) => results.map((r) => `${r.status} at ${r.seconds.toFixed(1)} s`).join('; ');
console.log(`\n## Slow clients: honest uploads answered while slow connections trickle (\`${baselineRevision ? `BASELINE=${baselineRevision} ` : ''}npm run bench:slow-clients\`, ${new Date().toISOString().slice(0, 10)})\n`);
console.log(`| scenario | checkout | honest 9.2 MiB uploads in ${WINDOW_S} s | median seconds of a 200 | 200s without Content-Length | the slow connections |\n|---|---|---|---|---|---|`);
for (const r of rows) {
  console.log(`| ${r.scenario} | ${r.checkout} | ${counts(r.statuses)} | ${r.medianSeconds?.toFixed(2) ?? '-'} | ${r.lengthless} | ${slowly(r.slow)} |`);
}
