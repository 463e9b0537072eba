// squeeze trusts no server and no file name (issue 20, items 4 to 8; issue 21, item 10): it writes only
// what the client checked, only inside its output tree, keeps a replaced file's mode, prints no control
// character that came from outside, and says a stopping error once.
import { chmod, chown, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError, FakeApi, fakeApiPerTest, image, pngBytes, TEST_KEY, type Handler } from '../../client/test/fake-api';
import { files, squeeze, tree } from './run';

const fake = fakeApiPerTest();
let dir: string;
let env: Record<string, string>;
const cleanup: string[] = [];
beforeEach(() => {
  env = { SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: fake.api.url };
});
afterEach(async () => {
  await Promise.all([dir, ...cleanup.splice(0)].map((d) => rm(d, { recursive: true, force: true })));
});

const redirect =
  (status: number, location: string): Handler =>
  (_req, res) => {
    res.writeHead(status, { Location: location }).end();
  };

/** Control characters a terminal may act on: C0 but the newline, DEL and C1. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('nothing is written unless the client checked the answer', () => {
  it.each<[string, Handler, RegExp]>([
    ['bytes that are not the image the headers say', image({ bytes: new TextEncoder().encode('A'.repeat(64)) }), /not a PNG image/],
    ['an X-Compressed-Size of 1.5 GB', image({ headers: { 'X-Compressed-Size': String(1.5 * 2 ** 30) } }), /more than the 134217728 bytes/],
    ['a redirect', redirect(307, 'http://127.0.0.1:9/v1/compress'), /redirect to http:\/\/127\.0\.0\.1:9\/v1\/compress/],
  ])('%s: exit 1, no output, nothing recorded', async (_name, answer, message) => {
    dir = await tree({ 'a.png': pngBytes() });
    fake.api.answer(answer);
    const run = await squeeze(['a.png'], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(await files(dir)).toEqual(['a.png']);
  });

  it('a redirect to another origin sends it neither the key nor the image', async () => {
    const other = await FakeApi.start();
    try {
      dir = await tree({ 'a.png': pngBytes(), 'b.png': pngBytes({ padding: 5 }) });
      fake.api.answer(redirect(307, `${other.url}/v1/compress`), redirect(308, `${other.url}/v1/compress`));
      expect((await squeeze(['.', '-c', '1'], { cwd: dir, env })).code).toBe(1);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('--in-place', () => {
  it('keeps the replaced file’s mode', async () => {
    dir = await tree({ 'private.png': pngBytes({ padding: 40 }), 'shared.png': pngBytes({ padding: 50 }) });
    await chmod(join(dir, 'private.png'), 0o600);
    await chmod(join(dir, 'shared.png'), 0o664);
    expect((await squeeze(['.', '--in-place'], { cwd: dir, env })).code).toBe(0);
    expect((await stat(join(dir, 'private.png'))).mode & 0o7777).toBe(0o600);
    expect((await stat(join(dir, 'shared.png'))).mode & 0o7777).toBe(0o664);
  });

  it.runIf(process.getuid?.() === 0)('keeps its owner where it can (here: run as root)', async () => {
    dir = await tree({ 'theirs.png': pngBytes({ padding: 40 }) });
    await chown(join(dir, 'theirs.png'), 4321, 4322);
    expect((await squeeze(['.', '--in-place'], { cwd: dir, env })).code).toBe(0);
    expect(await stat(join(dir, 'theirs.png'))).toMatchObject({ uid: 4321, gid: 4322 });
  });
});

describe('-o DIR never writes outside its tree', () => {
  it('refuses, before any upload, outputs whose real folder is a symlink leaving DIR', async () => {
    dir = await tree({ 'site/a/x.png': pngBytes(), 'site/b/y.png': pngBytes({ padding: 9 }), 'out/keep.txt': 'mine' });
    const elsewhere = await tree({});
    cleanup.push(elsewhere);
    await symlink(elsewhere, join(dir, 'out/a'));
    const run = await squeeze(['site', '-o', 'out'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Nothing was sent/);
    expect(run.stderr).toMatch(/out\/a\/x\.png is in a folder that leads outside out \(a symbolic link\)/);
    expect(fake.api.requests).toHaveLength(0);
    expect(await files(elsewhere)).toEqual([]);
  });

  it('a symlink inside DIR that stays inside it is fine', async () => {
    dir = await tree({ 'site/a/x.png': pngBytes(), 'out/real/.keep': '' });
    await symlink(join(dir, 'out/real'), join(dir, 'out/a'));
    expect((await squeeze(['site', '-o', 'out'], { cwd: dir, env })).code).toBe(0);
    expect(await files(join(dir, 'out/real'))).toEqual(['.keep', 'x.png']);
  });
});

describe('control characters from outside are shown escaped', () => {
  it('in file names and server messages on stderr; --json keeps the values, escaped', async () => {
    const name = 'evil\u001b]0;owned\u0007\u009b2J.png';
    dir = await tree({ [name]: pngBytes() });
    fake.api.answer(apiError(400, 'unsupported_image', { message: 'bad\u001b[2J\u0007 image\n✓ forged line' }));
    const run = await squeeze(['.'], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain('evil\\x1b]0;owned\\x07\\x9b2J.png');
    expect(run.stderr).toContain('bad\\x1b[2J\\x07 image\\x0a✓ forged line');
    expect(run.stderr.split('\n').filter((l) => l.startsWith('✓'))).toEqual([]);

    fake.api.answer(apiError(400, 'unsupported_image', { message: 'again\u009b' }));
    const json = await squeeze(['.', '--json'], { cwd: dir, env });
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect(json.json().files[0]).toMatchObject({ input: name, error: { message: 'again\u009b' } });
  });

  it('in what squeeze usage prints', async () => {
    dir = await tree({});
    fake.api.answer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ plan: 'free\u001b[31m', usage: { current: 1, limit: 500, resetAt: '2026-12-01T00:00:00.000Z' }, totals: { bytesIn: 0, bytesOut: 0, savedBytes: 0, savedPercent: 0 }, key: { name: 'lap\u0007top', prefix: 'sqz_AbCdEfGh', requests: 1, bytesIn: 0, bytesOut: 0 } }));
    });
    const run = await squeeze(['usage'], { cwd: dir, env });
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('Plan free\\x1b[31m:');
    expect(run.stdout).toContain('"lap\\x07top"');
  });
});

describe('the key', () => {
  it('a bad key stops the run with one message, however many uploads were in flight', async () => {
    dir = await tree(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}.png`, pngBytes({ padding: i })])));
    // The four uploads of the pool are all in flight before the first answer.
    let release!: () => void;
    const allIn = new Promise<void>((resolve) => (release = resolve));
    const refuse: Handler = async (req, res, body) => {
      if (fake.api.requests.length === 4) release();
      await allIn;
      apiError(401, 'unauthorized')(req, res, body);
    };
    fake.api.answer(refuse, refuse, refuse, refuse);
    const run = await squeeze(['.', '-c', '4'], { cwd: dir, env });
    expect(run.code).toBe(3);
    expect(fake.api.requests).toHaveLength(4);
    expect(run.stderr.match(/fake unauthorized/g)).toHaveLength(1);
  });

  it('a value not shaped like a key is refused before anything is sent, and not printed', async () => {
    dir = await tree({ 'a.png': pngBytes() });
    const pasted = `'${TEST_KEY}'`;
    const run = await squeeze(['a.png'], { cwd: dir, env: { ...env, SQUEEZE_API_KEY: pasted } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Not an API key: keys are sqz_ .* \(from \$SQUEEZE_API_KEY\)/);
    expect(run.stderr).not.toContain(TEST_KEY.slice(4));
    expect(fake.api.requests).toHaveLength(0);
  });

  it('so is a key file holding something else', async () => {
    dir = await tree({ 'a.png': pngBytes(), key: 'not a key\n' });
    const run = await squeeze(['a.png', '--key-file', 'key'], { cwd: dir, env: { SQUEEZE_BASE_URL: fake.api.url } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Not an API key: .* \(from the key file .*\/key\)/);
    expect(fake.api.requests).toHaveLength(0);
  });
});
