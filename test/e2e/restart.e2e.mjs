// npm run test:restart: keys, usage and limiter state survive a restart of `npm start`.
// Runs two dev servers one after the other on one local state, on loopback only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { startWranglerDev, stopAllWranglerDev } from '../../scripts/dev-server.mjs';
import { assert, test } from './harness.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-restart-'));
const png = readFileSync(join(root, 'test/fixtures/api/chelsea.png'));
// The demo counts by CF-Connecting-IP, which `wrangler dev` takes from the client (Cloudflare's edge overwrites it).
const ip = '198.51.100.200';

function upload(field) {
  const body = new FormData();
  body.append(field, new Blob([png]), 'chelsea.png');
  return body;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => stopAllWranglerDev().finally(() => process.exit(130)));
}
afterAll(async () => {
  await stopAllWranglerDev();
  rmSync(state, { recursive: true, force: true });
});

let key;
let size;
test('before the restart: a key, a compression, and the demo used up from one address', async () => {
  const server = await startWranglerDev({ state, preferredPort: 8791 });
  try {
    const out = execFileSync(process.execPath, [join(root, 'scripts/key.mjs'), 'create', '--plan', 'free'], {
      env: { ...process.env, SQUEEZE_STATE: state },
      encoding: 'utf8',
    });
    key = out.trim().split('\n').at(-1);
    const compressed = await fetch(`${server.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key }, body: upload('file') });
    assert(compressed.status === 200, `compress ${compressed.status}`);
    size = Number(compressed.headers.get('X-Compressed-Size'));
    await compressed.arrayBuffer();
    for (let i = 0; i < 5; i++) {
      await (await fetch(`${server.url}/v1/demo-compress`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: upload('image') })).arrayBuffer();
    }
  } finally {
    await server.stop();
  }
});

test('after the restart: the key works, and its usage, its minute window and the demo window survived', async () => {
  const server = await startWranglerDev({ state, preferredPort: 8791 });
  try {
    const usage = await fetch(`${server.url}/v1/usage`, { headers: { 'X-API-Key': key } });
    assert(usage.status === 200, `the key after the restart: ${usage.status}`);
    const body = await usage.json();
    assert(body.usage?.current === 1 && body.totals?.bytesIn === png.length && body.totals?.bytesOut === size, `usage: ${JSON.stringify(body)}`);
    assert(usage.headers.get('RateLimit-Remaining') === '58', `the minute window (2 of 60 used): ${usage.headers.get('RateLimit-Remaining')}`);
    const demo = await fetch(`${server.url}/v1/demo-compress`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: upload('image') });
    assert(demo.status === 429, `the demo window (6th request in the hour): ${demo.status}`);
  } finally {
    await server.stop();
  }
});
