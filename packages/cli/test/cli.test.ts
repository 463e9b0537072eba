import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError, avifBytes, fakeApiPerTest, image, jpegBytes, pngBytes, TEST_KEY, until } from '../../client/test/fake-api';
import { files, squeeze, tree } from './run';

/** What the fake API answers by default: a valid (tiny) PNG, so that outputs are images too. */
const OUT = pngBytes({ padding: 1 });
const fake = fakeApiPerTest(image({ bytes: OUT }));
let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  env = { SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: fake.api.url };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('usage and configuration errors: exit 2, nothing sent', () => {
  it.each([
    [['--quality', '0', 'a.png'], /--quality must be an integer from 1 to 100/],
    [['--format', 'gif', 'a.png'], /--format must be/],
    [['--preserve', 'copyright,gps', 'a.png'], /--preserve takes a comma-separated list of copyright, creation, location, not "gps"/],
    [['--concurrency', '99', 'a.png'], /--concurrency/],
    [['--width', '0', 'a.png'], /--width must be an integer from 1 to 12000/],
    [['--fit', 'stretch', 'a.png'], /--fit must be scale-down, contain, cover, crop, aspect-crop, pad, not "stretch"/],
    [['--gravity', '1.5x0.5', 'a.png'], /--gravity must be/],
    [['--background', 'red', 'a.png'], /--background must be/],
    [['--width', '10', '--max-width', '10', 'a.png'], /exclude each other/],
    [['--width', '10', '--fit', 'cover', 'a.png'], /--fit cover needs both --width and --height/],
    [['--bogus', 'a.png'], /Unknown option/],
    [[], /Name the files or folders/],
    [['--in-place', '-o', 'out', 'a.png'], /exclude each other/],
    [['--in-place', '--format', 'webp', 'a.png'], /cannot change its format/],
    [['--in-place', '--allow-avif', 'a.png'], /cannot change its format/],
    [['--allow-avif', '--format', 'jpeg', 'a.png'], /--allow-avif goes with --format auto/],
    [['--backup', 'a.png'], /--backup goes with --in-place/],
    [['missing.png'], /No such file or folder: missing.png/],
    [['-', '--json'], /stdin/],
  ])('squeeze %j', async (argv, message) => {
    dir = await tree({ 'a.png': pngBytes() });
    const run = await squeeze(argv, { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(fake.api.requests).toHaveLength(0);
  });

  it('needs a key and an endpoint, and refuses plain http beyond loopback', async () => {
    dir = await tree({ 'a.png': pngBytes() });
    expect((await squeeze(['a.png'], { cwd: dir, env: { SQUEEZE_BASE_URL: fake.api.url } })).stderr).toMatch(/No API key: set SQUEEZE_API_KEY/);
    expect((await squeeze(['a.png'], { cwd: dir, env: { SQUEEZE_API_KEY: TEST_KEY } })).stderr).toMatch(/set SQUEEZE_BASE_URL/);
    const insecure = await squeeze(['a.png'], { cwd: dir, env: { SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: 'http://api.example.com' } });
    expect(insecure).toMatchObject({ code: 2 });
    expect(insecure.stderr).toMatch(/https \(plain http only for loopback/);
    expect(fake.api.requests).toHaveLength(0);
  });

  it('reads the key from --key-file, else $SQUEEZE_API_KEY, else $SQUEEZE_API_KEY_FILE, else ~/.config/squeeze/api-key', async () => {
    const [fromFile, fromEnv, fromDefault] = ['sqz_fromfile', 'sqz_fromenv', 'sqz_default'].map((k) => k.padEnd(36, '0'));
    dir = await tree({ 'a.png': pngBytes(), 'key.txt': `${fromFile}\n`, '.config/squeeze/api-key': `${fromDefault}\n` });
    const base = { SQUEEZE_BASE_URL: fake.api.url };
    await squeeze(['usage', '--key-file', 'key.txt'], { cwd: dir, env: { ...base, SQUEEZE_API_KEY: fromEnv! } });
    await squeeze(['usage'], { cwd: dir, env: { ...base, SQUEEZE_API_KEY: fromEnv!, SQUEEZE_API_KEY_FILE: join(dir, 'key.txt') } });
    await squeeze(['usage'], { cwd: dir, env: { ...base, SQUEEZE_API_KEY_FILE: join(dir, 'key.txt') } });
    await squeeze(['usage'], { cwd: dir, env: base });
    expect(fake.api.requests.map((r) => r.headers['x-api-key'])).toEqual([fromFile, fromEnv, fromFile, fromDefault]);
  });

  it('--json prints exactly one JSON document, also for a usage error', async () => {
    dir = await tree({ 'a.png': pngBytes() });
    const run = await squeeze(['--json', '--quality', 'x', 'a.png'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ exitCode: 2, error: { code: 'usage' } });
  });
});

describe('outputs', () => {
  it('refuses, before any upload, outputs that collide or exist; --force overwrites', async () => {
    dir = await tree({ 'a/x.png': pngBytes(), 'a/x.min.png': 'mine', 'b/y.jpg': jpegBytes(), 'b/y.jpeg': jpegBytes() });
    const run = await squeeze(['a', 'b/y.jpg', 'b/y.jpeg', '--format', 'webp'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Nothing was sent/);
    expect(run.stderr).toMatch(/b\/y.jpg and b\/y.jpeg would both write b\/y.min.webp/);

    const existing = await squeeze(['a'], { cwd: dir, env });
    expect(existing.code).toBe(2);
    expect(existing.stderr).toMatch(/a\/x.min.png exists \(from a\/x.png\); --force overwrites it/);
    expect(fake.api.requests).toHaveLength(0);
    expect(await readFile(join(dir, 'a/x.min.png'), 'utf8')).toBe('mine');

    expect((await squeeze(['a', '--force'], { cwd: dir, env })).code).toBe(0);
    expect(await readFile(join(dir, 'a/x.min.png'))).toEqual(Buffer.from(OUT));
  });

  it('--format avif asks for AVIF and writes NAME.min.avif', async () => {
    dir = await tree({ 'a.png': pngBytes() });
    const avif = Uint8Array.from([0, 0, 0, 20, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66, 0, 0, 0, 0, 0x61, 0x76, 0x69, 0x66]);
    fake.api.answer(image({ bytes: avif, format: 'avif' }));
    const run = await squeeze(['a.png', '--format', 'avif'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(await files(dir)).toContain('a.min.avif');
    expect(fake.api.requests[0]!.body.includes(Buffer.from('name="format"\r\n\r\navif'))).toBe(true);
    expect(await readFile(join(dir, 'a.min.avif'))).toEqual(Buffer.from(avif));
  });

  it('--in-place --backup replaces each input atomically and keeps NAME.orig.EXT; a second run skips them', async () => {
    const original = pngBytes({ padding: 50 });
    dir = await tree({ 'img/p.png': original });
    const first = await squeeze(['img', '--in-place', '--backup'], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(await readFile(join(dir, 'img/p.png'))).toEqual(Buffer.from(OUT));
    expect(await readFile(join(dir, 'img/p.orig.png'))).toEqual(Buffer.from(original));
    expect(await files(dir)).toEqual(['img/p.orig.png', 'img/p.png', 'img/squeeze-manifest.json']);
    const second = await squeeze(['img', '--in-place', '--backup'], { cwd: dir, env });
    expect(second.stderr).toMatch(/0 compressed; 1 skipped/);
    expect(fake.api.requests).toHaveLength(1);
  });

  it('walks .avif and .gif inputs too (not .heic: the API does not decode it yet), naming outputs by their format', async () => {
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
    dir = await tree({ 'img/a.gif': gif, 'img/b.avif': avifBytes(), 'img/c.heic': avifBytes().fill(0, 8, 12) });
    fake.api.answer(image({ format: 'gif', bytes: new TextEncoder().encode('GIF89a\x01\x00') }), image({ format: 'jpeg' }));
    const run = await squeeze(['img', '-o', 'out', '--concurrency', '1'], { cwd: dir, env });
    expect([run.code, run.stderr]).toEqual([0, expect.stringMatching(/2 compressed/)]);
    expect(fake.api.requests).toHaveLength(2);
    expect(await files(join(dir, 'out'))).toEqual(['a.gif', 'b.jpg', 'squeeze-manifest.json']);
  });

  it('an animated GIF with --allow-webp: the animated WebP answered is written as NAME.min.webp, byte for byte', async () => {
    const animated = await readFile(join(import.meta.dirname, '../../../test/fixtures/gif/dispose.gif2webp.webp'));
    dir = await tree({ 'a.gif': await readFile(join(import.meta.dirname, '../../../test/fixtures/gif/dispose.gif')) });
    fake.api.answer(image({ format: 'webp', bytes: new Uint8Array(animated) }));
    expect((await squeeze(['a.gif', '--allow-webp'], { cwd: dir, env })).code).toBe(0);
    expect(await readFile(join(dir, 'a.min.webp'))).toEqual(animated);
  });

  it('with --allow-webp, an answer in WebP is written as NAME.min.webp', async () => {
    dir = await tree({ 'p.png': pngBytes() });
    fake.api.answer(image({ format: 'webp' }));
    expect((await squeeze(['p.png', '--allow-webp'], { cwd: dir, env })).code).toBe(0);
    expect(await files(dir)).toEqual(['p.min.webp', 'p.png', 'squeeze-manifest.json']);
  });

  it('with --allow-avif, Accept names image/avif and an answer in AVIF is written as NAME.min.avif; with both flags, both are named', async () => {
    dir = await tree({ 'p.png': pngBytes(), 'q.png': pngBytes({ padding: 3 }) });
    fake.api.answer(image({ format: 'avif' }), image({ format: 'avif' }));
    expect((await squeeze(['p.png', '--allow-avif'], { cwd: dir, env })).code).toBe(0);
    expect(await files(dir)).toEqual(['p.min.avif', 'p.png', 'q.png', 'squeeze-manifest.json']);
    expect(fake.api.requests[0]!.headers.accept).toMatch(/^image\/avif, image\/\*;q=0\.8$/);
    expect((await squeeze(['q.png', '--allow-avif', '--allow-webp'], { cwd: dir, env })).code).toBe(0);
    expect(fake.api.requests[1]!.headers.accept).toMatch(/^image\/avif, image\/webp, image\/\*;q=0\.8$/);
  });
});

describe('outcomes and exit codes', () => {
  it('exit 1 when some files fail; the others are done; a local refusal costs no request', async () => {
    dir = await tree({ 'a.png': pngBytes(), 'b.png': pngBytes({ padding: 9 }), 'fake.png': 'not an image' });
    fake.api.answer(apiError(400, 'unsupported_image'));
    const run = await squeeze(['.', '--concurrency', '1', '--json'], { cwd: dir, env });
    expect(run.code).toBe(1);
    const report = run.json();
    expect(report.summary).toMatchObject({ files: 3, compressed: 1, failed: 2 });
    expect(report.files.find((f: { input: string }) => f.input === 'fake.png')).toMatchObject({ status: 'failed', error: { code: 'unsupported_image' } });
    expect(fake.api.requests).toHaveLength(2);
  });

  it.each([
    ['quota_exceeded', 429],
    ['unauthorized', 401],
  ])('exit 3 on %s: no new upload starts, the rest is reported not done', async (code, status) => {
    dir = await tree(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}.png`, pngBytes({ padding: i })])));
    fake.api.answer(image(), apiError(status, code, { retryAfter: 99999, resetAt: '2026-12-01T00:00:00.000Z' }));
    const run = await squeeze(['.', '--concurrency', '1', '--json'], { cwd: dir, env });
    expect(run.code).toBe(3);
    expect(run.json()).toMatchObject({ exitCode: 3, stoppedBy: code, summary: { compressed: 1, notDone: 4 } });
    expect(fake.api.requests).toHaveLength(2);
  });

  it('exit 130 when interrupted: in-flight uploads are aborted, nothing half-written', async () => {
    dir = await tree({ 'a.png': pngBytes(), 'b.png': pngBytes({ padding: 9 }) });
    fake.api.answer(() => undefined);
    const controller = new AbortController();
    const running = squeeze(['.', '--json', '-c', '1'], { cwd: dir, env, signal: controller.signal });
    // Interrupted once an upload is in flight (the fake API never answers it), not after some time.
    await until(() => fake.api.requests.length === 1);
    controller.abort();
    const run = await running;
    expect(run.code).toBe(130);
    expect(run.json()).toMatchObject({ stoppedBy: 'interrupted', summary: { compressed: 0, notDone: 2 } });
    expect(await files(dir)).toEqual(['a.png', 'b.png']);
  });

  it('squeeze - streams stdin to the API and writes the image to stdout', async () => {
    dir = await tree({});
    const out = pngBytes({ padding: 3 });
    fake.api.answer(image({ bytes: out }));
    const run = await squeeze(['-', '-q', '70', '--preserve', 'location, copyright', '--width', '30', '--height', '20', '--fit', 'cover', '--gravity', '0.2x1', '--background', '#fff'], {
      cwd: dir,
      env,
      stdin: pngBytes({ padding: 100 }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(Buffer.from(out).toString('latin1'));
    expect(fake.api.requests[0]!.body.includes(Buffer.from('name="quality"\r\n\r\n70'))).toBe(true);
    expect(fake.api.requests[0]!.body.includes(Buffer.from('name="preserve"\r\n\r\ncopyright,location'))).toBe(true);
    for (const [name, value] of [['width', '30'], ['height', '20'], ['fit', 'cover'], ['gravity', '0.2x1'], ['background', '#fff']]) {
      expect(fake.api.requests[0]!.body.includes(Buffer.from(`name="${name}"\r\n\r\n${value}`)), name).toBe(true);
    }
  });
});

describe('dry run, check and usage', () => {
  const usage = (current: number) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ plan: 'free', usage: { current, limit: 500, resetAt: '2026-12-01T00:00:00.000Z' }, totals: { bytesIn: 0, bytesOut: 0, savedBytes: 0, savedPercent: 0 }, key: { name: 'laptop', prefix: 'sqz_AbCdEfGh', requests: 2, bytesIn: 2048, bytesOut: 1024 } }));
  };

  it('--dry-run sends no image, and sets the quota it needs against the quota left (exit 3 when short)', async () => {
    dir = await tree({ 'a.png': pngBytes(), 'b/c.jpg': jpegBytes() });
    fake.api.answer(usage(10), usage(499));
    const enough = await squeeze(['.', '--dry-run', '--json'], { cwd: dir, env });
    expect(enough.code).toBe(0);
    expect(enough.json()).toMatchObject({ dryRun: true, quota: { needed: 2, left: 490, limit: 500 } });
    expect(enough.json().files.map((f: { status: string }) => f.status)).toEqual(['would_send', 'would_send']);
    const short = await squeeze(['.', '--dry-run'], { cwd: dir, env });
    expect(short.code).toBe(3);
    expect(short.stderr).toMatch(/Needs 2 compressions of 1 left this month .*: 1 too many/);
    expect(fake.api.requests.map((r) => r.path)).toEqual(['/v1/usage', '/v1/usage']);
    expect(await files(dir)).toEqual(['a.png', 'b/c.jpg']);
  });

  it('--dry-run with no endpoint configured lists what it would send, without the quota left', async () => {
    dir = await tree({ 'a.png': pngBytes() });
    const run = await squeeze(['.', '--dry-run'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/would send a.png .* → a.min.png\nNeeds 1 compression \(quota left unknown: no endpoint configured\)\./);
  });

  it('check needs no key and makes no API call: exit 1 until a run has done every image, then 0', async () => {
    dir = await tree({ 'img/a.png': pngBytes(), 'img/b.png': pngBytes({ padding: 7 }) });
    const before = await squeeze(['check', 'img'], { cwd: dir });
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/not done: img\/a.png/);
    await squeeze(['img'], { cwd: dir, env });
    const requests = fake.api.requests.length;
    expect(await squeeze(['check', 'img'], { cwd: dir })).toMatchObject({ code: 0 });
    // Other options are other work.
    expect((await squeeze(['check', 'img', '-q', '50'], { cwd: dir })).code).toBe(1);
    // A changed input is not done any more.
    await writeFile(join(dir, 'img/b.png'), pngBytes({ padding: 8 }));
    expect((await squeeze(['check', 'img'], { cwd: dir })).code).toBe(1);
    expect(fake.api.requests).toHaveLength(requests);
  });

  it('--help calls it the account’s usage, with the key’s share', async () => {
    dir = await tree({});
    expect((await squeeze(['--help'], { cwd: dir })).stdout).toMatch(/squeeze usage \[--json\] +this month's usage of your account, and this key's share\n/);
  });

  it('usage prints the month on stdout, or the JSON document with --json', async () => {
    dir = await tree({});
    fake.api.answer(usage(12), usage(12));
    const text = (await squeeze(['usage'], { cwd: dir, env })).stdout;
    expect(text).toMatch(/^Plan free: 12 of 500 compressions this month \(488 left/);
    expect(text).toMatch(/\nThis key \("laptop", sqz_AbCdEfGh…\): 2 of them, 2\.0 KB in, 1\.0 KB out\.\n/);
    expect((await squeeze(['usage', '--json'], { cwd: dir, env })).json()).toMatchObject({ plan: 'free', usage: { current: 12 } });
  });
});
