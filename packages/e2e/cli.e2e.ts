// The built `squeeze` binary against a real `wrangler dev`, on a folder tree of real images.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Squeeze, sniffFormat } from '@squeeze-edge/client';
import { fixture, imageTree } from './helpers/fixtures';
import { createKey, setMonthUsage } from './helpers/keys';
import { root } from './helpers/paths';
import { runCli } from './helpers/run-cli';

const TREE = {
  'site/photos/chelsea.png': 'api/chelsea.png',
  'site/photos/2024/testorig.jpg': 'engine/testorig.jpg',
  'site/icons/basn6a08.png': 'engine/pngsuite/basn6a08.png',
  'site/icons/z00n2c08.png': 'engine/pngsuite/z00n2c08.png',
  'site/web/test.webp': 'engine/test.webp',
  'site/web/lossy_alpha4.webp': 'engine/lossy_alpha4.webp',
};
const INPUTS = Object.keys(TREE).sort();
const folders: string[] = [];
let key: string;
let env: Record<string, string>;

function tree(files: Record<string, string> = TREE): string {
  const dir = imageTree(files);
  folders.push(dir);
  return dir;
}
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
const used = async (apiKey = key) => (await new Squeeze({ apiKey, baseUrl: inject('baseUrl') }).usage()).usage.current;

beforeAll(() => {
  key = createKey('pro');
  env = { SQUEEZE_API_KEY: key, SQUEEZE_BASE_URL: inject('baseUrl') };
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('squeeze on a folder tree', () => {
  it('writes NAME.min.EXT beside each input, leaves the inputs as they were, and skips them all on a second run', async () => {
    const dir = tree();
    const before = Object.fromEntries(INPUTS.map((p) => [p, hash(join(dir, p))]));
    const first = await runCli(['site'], { cwd: dir, env });
    expect(first.stderr).toMatch(/6 compressed: .* saved .*\(\d+%\)\./);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(filesUnder(dir)).toEqual(
      [...INPUTS, ...INPUTS.map((p) => p.replace(/\.(\w+)$/, '.min.$1')), 'site/squeeze-manifest.json'].sort(),
    );
    for (const input of INPUTS) {
      expect(hash(join(dir, input))).toBe(before[input]);
      const output = readFileSync(join(dir, input.replace(/\.(\w+)$/, '.min.$1')));
      expect(sniffFormat(output)).toBe(sniffFormat(fixture(TREE[input as keyof typeof TREE])));
      expect(output.length).toBeLessThanOrEqual(readFileSync(join(dir, input)).length);
    }

    const count = await used();
    const second = await runCli(['site'], { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/0 compressed; 6 skipped \(done before\)\./);
    expect(await used()).toBe(count);
    // The manifest also makes `squeeze check` pass, with no key at all.
    expect((await runCli(['check', 'site'], { cwd: dir })).code).toBe(0);
  });

  it('-o DIR mirrors the tree, the extension following the output format; check fails before and passes after', async () => {
    const dir = tree();
    expect((await runCli(['check', 'site', '-o', 'out', '-f', 'webp'], { cwd: dir })).code).toBe(1);
    const run = await runCli(['site', '-o', 'out', '--format', 'webp', '-q', '70', '--max-width', '64'], { cwd: dir, env });
    expect(run.code).toBe(0);
    // The manifest of this run is where its outputs are.
    const outputs = filesUnder(join(dir, 'out')).filter((p) => p !== 'squeeze-manifest.json');
    expect(filesUnder(join(dir, 'out'))).toContain('squeeze-manifest.json');
    expect(outputs).toEqual(INPUTS.map((p) => p.replace(/^site\//, '').replace(/\.\w+$/, '.webp')).sort());
    for (const output of outputs) expect(sniffFormat(readFileSync(join(dir, 'out', output)))).toBe('webp');
    expect((await runCli(['check', 'site', '-o', 'out', '-f', 'webp', '-q', '70', '--max-width', '64'], { cwd: dir })).code).toBe(0);
  });

  it('--json prints exactly one JSON document on stdout, with every file and the summary', async () => {
    const dir = tree();
    const run = await runCli(['site', '--json', '-c', '3'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(run.stdout.trim().startsWith('{') && run.stdout.trim().endsWith('}')).toBe(true);
    expect(report).toMatchObject({ command: 'compress', dryRun: false, exitCode: 0, stoppedBy: null });
    expect(report.files.map((f: { input: string }) => f.input).sort()).toEqual(INPUTS);
    for (const file of report.files) {
      expect(file).toMatchObject({ status: 'compressed', output: file.input.replace(/\.(\w+)$/, '.min.$1') });
      expect(file.compressedSize).toBe(readFileSync(join(dir, file.output)).length);
    }
    const bytesIn = INPUTS.reduce((n, p) => n + readFileSync(join(dir, p)).length, 0);
    expect(report.summary).toMatchObject({ files: 6, compressed: 6, skipped: 0, failed: 0, notDone: 0, bytesIn });
    expect(report.summary.savedBytes).toBe(bytesIn - report.summary.bytesOut);
  });

  it('--format auto --allow-webp follows one look across formats: a JPEG no WebP can match stays a JPEG, and says why', async () => {
    const dir = tree({ 'testorig.jpg': 'engine/testorig.jpg', 'chelsea.png': 'api/chelsea.png' });
    const run = await runCli(['testorig.jpg', 'chelsea.png', '--format', 'auto', '--allow-webp', '--json'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const files = Object.fromEntries(JSON.parse(run.stdout).files.map((f: { input: string }) => [f.input, f]));
    expect(files['testorig.jpg']).toMatchObject({ status: 'compressed', output: 'testorig.min.jpg', notes: expect.arrayContaining(['format-kept-for-look']) });
    expect(sniffFormat(readFileSync(join(dir, 'testorig.min.jpg')))).toBe('jpeg');
    expect(files['chelsea.png']).toMatchObject({ status: 'compressed', output: 'chelsea.min.webp' });
  });

  it('reads an image on stdin and writes the compressed one to stdout', async () => {
    const dir = tree({});
    const run = await runCli(['-', '--format', 'jpeg'], { cwd: dir, env, stdin: fixture('api/chelsea.png') });
    expect(run.code).toBe(0);
    expect(sniffFormat(run.stdoutBytes)).toBe('jpeg');
    expect(run.stderr).toMatch(/→ .* jpeg/);
  });
});

describe('from the repository', () => {
  it('npx squeeze runs the workspace’s binary', () => {
    expect(execFileSync('npx', ['--no-install', 'squeeze', '--help'], { cwd: root, encoding: 'utf8' })).toMatch(/^squeeze: make JPEG, PNG and WebP images smaller/);
  });

  it('squeeze usage prints the month of the key on stdout', async () => {
    const run = await runCli(['usage'], { cwd: root, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Plan pro: ${await used()} of 5000 compressions this month`));
    expect(run.stdout).toMatch(new RegExp(`\nThis key \\(${key.slice(0, 12)}…\\): \\d+ of them`));
    expect(JSON.parse((await runCli(['usage', '--json'], { cwd: root, env })).stdout)).toMatchObject({ plan: 'pro', usage: { limit: 5000 } });
  });
});

describe('exit codes', () => {
  it('1: some files failed (the Worker refused one), the others are done', async () => {
    const dir = tree({ 'a/ok.png': 'engine/pngsuite/basn6a08.png', 'a/truncated.png': 'bad/png-truncated.png' });
    const run = await runCli(['a', '--json'], { cwd: dir, env });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toMatchObject({ compressed: 1, failed: 1 });
    expect(report.files.find((f: { input: string }) => f.input === 'a/truncated.png').error.code).toBe('unsupported_image');
    expect(existsSync(join(dir, 'a/truncated.min.png'))).toBe(false);
  });

  it('2: bad usage or configuration, before anything is sent', async () => {
    const dir = tree({ 'a/x.jpg': 'engine/testorig.jpg', 'a/x.jpeg': 'engine/testorig.jpg' });
    const count = await used();
    const collision = await runCli(['a', '-f', 'webp'], { cwd: dir, env });
    expect(collision.code).toBe(2);
    expect(collision.stderr).toMatch(/a\/x.jpe?g and a\/x.jpe?g would both write a\/x.min.webp/);
    const insecure = await runCli(['a'], { cwd: dir, env: { ...env, SQUEEZE_BASE_URL: 'http://squeeze.example.com' } });
    expect(insecure.code).toBe(2);
    expect((await runCli(['a'], { cwd: dir, env: { SQUEEZE_BASE_URL: inject('baseUrl') } })).code).toBe(2);
    expect(await used()).toBe(count);
    expect(filesUnder(dir)).toEqual(['a/x.jpeg', 'a/x.jpg']);
  });

  it('3: a quota that runs out stops the run; what was done is recorded, and the next month resumes', async () => {
    const dir = tree();
    const small = createKey('free');
    await setMonthUsage(small, 497);
    const smallEnv = { SQUEEZE_API_KEY: small, SQUEEZE_BASE_URL: inject('baseUrl') };

    const dry = await runCli(['site', '--dry-run', '--json'], { cwd: dir, env: smallEnv });
    expect(dry.code).toBe(3);
    expect(JSON.parse(dry.stdout).quota).toMatchObject({ needed: 6, left: 3, limit: 500 });

    const run = await runCli(['site', '--json', '-c', '1'], { cwd: dir, env: smallEnv });
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ exitCode: 3, stoppedBy: 'quota_exceeded', summary: { compressed: 3, notDone: 3, failed: 0 } });
    expect(run.stderr).toMatch(/stopped: .*monthly quota of 500 compressions/);
    expect(await used(small)).toBe(500);
    const manifest = JSON.parse(readFileSync(join(dir, 'site/squeeze-manifest.json'), 'utf8'));
    expect(Object.keys(manifest.outputs)).toHaveLength(3);

    // With room again, only the three left are sent.
    await setMonthUsage(small, 100);
    const resumed = await runCli(['site', '--json'], { cwd: dir, env: smallEnv });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).summary).toMatchObject({ compressed: 3, skipped: 3 });
  });

  it('3: unauthorized (an unknown key) stops at once', async () => {
    const dir = tree();
    const run = await runCli(['site'], { cwd: dir, env: { ...env, SQUEEZE_API_KEY: `sqz_${'B'.repeat(32)}` } });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/stopped: The API key is invalid/);
    expect(filesUnder(dir)).toEqual(INPUTS);
  });
});
