// npm run bench:health: GET /health's latency while two senders upload crafted PNGs of empty deflate blocks
// (issue 35 item 1), against a `wrangler dev` of its own (fresh local state, loopback, PORT or a free one).
// Each scenario runs SECONDS (default 25): the senders post one upload after another on one key, and a
// poller sends GET /health every 50 ms; its latencies' p50, p90 and max are the figures. Writes its section
// of docs/benchmarks.md (WRITE=0 prints it only).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWranglerDev } from '../scripts/dev-server.mjs';
import { writeDocSection } from './doc-section.mjs';
import { importSources } from './import-sources.mjs';

const SECONDS = Number(process.env.SECONDS ?? 25);
const root = fileURLToPath(new URL('..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-health-'));
// The key command acts on the state named here, the server's.
process.env.SQUEEZE_STATE = state;
const crafted = await importSources(join(root, 'bench/.cache'), 'health-during-upload-inputs', [
  "export { zlibAfterEmptyBlocks } from './test/helpers/deflate-work';",
  "export { pngFile } from './test/helpers/png';",
  "export { pngChunk, text } from './test/container/synth';",
]);

/** 16x16 RGB rows (filter byte 0, black), the image every crafted file carries. */
const ROWS = new Uint8Array(16 * 49);
const IDAT_BLOCKS = crafted.pngFile({ width: 16, height: 16, colourType: 2 }, crafted.zlibAfterEmptyBlocks(ROWS, 860_000));
const ZTXT_BLOCKS = crafted.pngFile({ width: 16, height: 16, colourType: 2 }, crafted.zlibAfterEmptyBlocks(ROWS, 0), [
  crafted.pngChunk('zTXt', new Uint8Array([...crafted.text('Comment\0'), 0, ...crafted.zlibAfterEmptyBlocks(crafted.text('a comment'), 860_000)])),
]);

function createKey(plan) {
  const out = execFileSync(process.execPath, [join(root, 'scripts/key.mjs'), 'create', '--plan', plan], { env: process.env, encoding: 'utf8' });
  return out.trim().split('\n').at(-1);
}

function multipart(bytes) {
  const boundary = '----squeezehealth';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\njpeg\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crafted.png"\r\nContent-Type: image/png\r\n\r\n`);
  return { body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `senders` uploads of `input` at a time on `key` for SECONDS, /health polled beside them. */
async function scenario(url, { input, key, senders }) {
  const deadline = Date.now() + SECONDS * 1000;
  const statuses = {};
  const uploads = [];
  const { body, type } = input ? multipart(input) : {};
  const send = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': type }, body });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      uploads.push(performance.now() - started);
    }
  };
  const health = [];
  const poll = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
      health.push(performance.now() - started);
      await sleep(50);
    }
  };
  await Promise.all([poll(), ...Array.from({ length: input ? senders : 0 }, send)]);
  health.sort((a, b) => a - b);
  uploads.sort((a, b) => a - b);
  return { health, uploads, statuses };
}

const ms = (value) => value.toFixed(0);
const loadBefore = loadavg()[0];
const server = await startWranglerDev({ state, preferredPort: Number(process.env.PORT ?? 8795) });
const rows = [];
try {
  const free = createKey('free');
  const business = createKey('business');
  // Warm: the engine's instance and both keys' state, so the first upload measures the upload, not the start.
  for (const key of [free, business]) {
    const { body, type } = multipart(crafted.pngFile({ width: 16, height: 16, colourType: 2 }, crafted.zlibAfterEmptyBlocks(ROWS, 0)));
    const response = await fetch(`${server.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': type }, body });
    if (response.status !== 200) throw new Error(`the warm-up compression answered ${response.status}: ${await response.text()}`);
  }
  const scenarios = [
    ['no upload', { input: null, key: free, senders: 0 }],
    [`two senders, one free key: a 16x16 PNG whose IDAT holds 860,000 empty blocks (${IDAT_BLOCKS.length} bytes; the issue's)`, { input: IDAT_BLOCKS, key: free, senders: 2 }],
    [`two senders, one business key: the same blocks in a zTXt chunk (${ZTXT_BLOCKS.length} bytes; past the header's text limit)`, { input: ZTXT_BLOCKS, key: business, senders: 2 }],
  ];
  for (const [name, options] of scenarios) {
    const { health, uploads, statuses } = await scenario(server.url, options);
    const answers = Object.entries(statuses).map(([status, n]) => `${n} x ${status}`).join(', ') || '-';
    const upload = uploads.length ? `${ms(quantile(uploads, 0.5))} / ${ms(uploads.at(-1))}` : '-';
    rows.push(`| ${name} | ${health.length} | ${ms(quantile(health, 0.5))} | ${ms(quantile(health, 0.9))} | ${ms(health.at(-1))} | ${answers} | ${upload} |`);
    console.log(rows.at(-1));
  }
} finally {
  await server.stop();
  rmSync(state, { recursive: true, force: true });
}

const section = [
  '## /health during the empty-block upload (`npm run bench:health`, issue 35)',
  '',
  `\`npm run bench:health\` (bench/health-during-upload.mjs) on ${new Date().toISOString().slice(0, 10)}: a \`wrangler dev\` of its own (fresh`,
  `local state), ${SECONDS} s a scenario; two senders post one upload after another (multipart, format=jpeg) while a`,
  'poller sends `GET /health` every 50 ms and times each answer. Before issue 35 item 1 the IDAT upload held `/health`',
  'at p50 1.24 s, p90 2.8 s (the review); the bar is 500 ms. The machine has 2 cores shared with the senders and other work',
  `(load average ${loadBefore.toFixed(1)} before the run, ${loadavg()[0].toFixed(1)} after).`,
  '',
  '| scenario | /health answers | p50 ms | p90 ms | max ms | uploads answered | upload p50 / max ms |',
  '|---|--:|--:|--:|--:|---|---|',
  ...rows,
];
if (process.env.WRITE === '0') console.log(section.join('\n'));
else writeDocSection('health-during-upload', 'bench:health', section);
