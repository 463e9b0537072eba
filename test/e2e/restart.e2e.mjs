// npm run test:restart: keys, usage and limiter state survive a restart of `npm start`.
// Runs two dev servers one after the other on one local state, on loopback only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWranglerDev } from '../../scripts/dev-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-restart-'));
const png = readFileSync(join(root, 'test/fixtures/api/chelsea.png'));
// The demo counts by CF-Connecting-IP, which `wrangler dev` takes from the client (Cloudflare's edge overwrites it).
const ip = '198.51.100.200';
let passed = 0;
let failed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ` ${detail}`}`);
}

function upload(field) {
  const body = new FormData();
  body.append(field, new Blob([png]), 'chelsea.png');
  return body;
}

try {
  let server = await startWranglerDev({ state, preferredPort: 8791 });
  const out = execFileSync(process.execPath, [join(root, 'scripts/key.mjs'), 'create', '--plan', 'free'], {
    env: { ...process.env, SQUEEZE_STATE: state },
    encoding: 'utf8',
  });
  const key = out.trim().split('\n').at(-1);
  const compressed = await fetch(`${server.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key }, body: upload('file') });
  check('a compression before the restart', compressed.status === 200, String(compressed.status));
  const size = Number(compressed.headers.get('X-Compressed-Size'));
  for (let i = 0; i < 5; i++) {
    await (await fetch(`${server.url}/v1/demo-compress`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: upload('image') })).arrayBuffer();
  }
  await server.stop();

  server = await startWranglerDev({ state, preferredPort: 8791 });
  try {
    const usage = await fetch(`${server.url}/v1/usage`, { headers: { 'X-API-Key': key } });
    check('the key still works after the restart', usage.status === 200, String(usage.status));
    const body = await usage.json();
    check('usage survived', body.usage?.current === 1 && body.totals?.bytesIn === png.length && body.totals?.bytesOut === size, JSON.stringify(body));
    check('the per-minute window survived (2 of 60 used)', usage.headers.get('RateLimit-Remaining') === '58', usage.headers.get('RateLimit-Remaining'));
    const demo = await fetch(`${server.url}/v1/demo-compress`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: upload('image') });
    check('the demo window survived (6th request in the hour is 429)', demo.status === 429, String(demo.status));
  } finally {
    await server.stop();
  }
} catch (err) {
  failed++;
  console.log(`FAIL ${err.stack ?? err}`);
} finally {
  rmSync(state, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
