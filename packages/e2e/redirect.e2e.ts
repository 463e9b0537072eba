// Issue 20, item 4, against the real Worker: a server in front of it that redirects every request to it (the
// other origin). fetch's own rules would re-send X-API-Key and the image there (they strip only Authorization
// and cookies); the client and the CLI must not, so the Worker never sees the key.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isSqueezeError, Squeeze } from '@squeeze-edge/client';
import { fixture, imageTree } from './helpers/fixtures';
import { createKey } from './helpers/keys';
import { runCli } from './helpers/run-cli';

let front: Server;
let frontUrl: string;
const seen: { path: string; key: boolean }[] = [];

beforeAll(async () => {
  // Answers everything with a 307 to the same path on the Worker, as a misconfigured proxy or an attacker would.
  front = createServer((req, res) => {
    seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] !== undefined });
    req.resume();
    res.writeHead(307, { Location: new URL(req.url ?? '/', inject('baseUrl')).href }).end();
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => front.close(resolve)));

/**
 * What the Worker saw of the key, asked directly (not through the front): its compressions this month, and
 * its requests this minute, which count every request that carried it (this usage call is one).
 */
async function seenByWorker(apiKey: string): Promise<{ compressions: number; requestsThisMinute: number }> {
  const { usage, rateLimit } = await new Squeeze({ apiKey, baseUrl: inject('baseUrl') }).usage();
  return { compressions: usage.current, requestsThisMinute: rateLimit.minute!.limit! - rateLimit.minute!.remaining };
}

describe('a redirect to another origin', () => {
  it('the client stops at it: invalid_response naming the Location, and the Worker never gets the key', async () => {
    const apiKey = createKey('free');
    const err = await new Squeeze({ apiKey, baseUrl: frontUrl }).compress(fixture('api/chelsea.png')).catch((e: unknown) => e);
    expect(isSqueezeError(err, 'invalid_response')).toBe(true);
    expect((err as Error).message).toContain(`redirect to ${inject('baseUrl')}/v1/compress`);
    expect(seen.at(-1)).toEqual({ path: '/v1/compress', key: true });
    expect(await seenByWorker(apiKey)).toEqual({ compressions: 0, requestsThisMinute: 1 });
  });

  it('the CLI fails each file, writes nothing, and the Worker never gets the key', async () => {
    const apiKey = createKey('free');
    const dir = imageTree({ 'img/a.png': 'api/chelsea.png', 'img/b.jpg': 'engine/testorig.jpg' });
    try {
      const run = await runCli(['img', '--json'], { cwd: dir, env: { SQUEEZE_API_KEY: apiKey, SQUEEZE_BASE_URL: frontUrl } });
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout);
      expect(report.summary).toMatchObject({ compressed: 0, failed: 2 });
      for (const file of report.files) expect(file.error).toMatchObject({ code: 'invalid_response', message: expect.stringContaining('redirect') });
      expect(readdirSync(join(dir, 'img')).sort()).toEqual(['a.png', 'b.jpg']);
      expect(existsSync(join(dir, 'img/squeeze-manifest.json'))).toBe(false);
      expect(await seenByWorker(apiKey)).toEqual({ compressions: 0, requestsThisMinute: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
