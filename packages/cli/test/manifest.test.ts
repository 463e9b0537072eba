// The manifest records each output by its path, lives where the outputs are, and remembers what the API
// refused with 413 (issue 21, items 6 and 10): runs with and without -o coexist, `check` says what a run
// would do, and a refused file is not sent again until it changes.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError, fakeApiPerTest, image, pngBytes, TEST_KEY } from '../../client/test/fake-api';
import { squeeze, tree } from './run';

const fake = fakeApiPerTest();
let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  env = { SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: fake.api.url };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const PHOTOS = { 'site/images/a.png': pngBytes({ padding: 10 }), 'site/images/2024/b.png': pngBytes({ padding: 20 }), 'site/images/2024/c.png': pngBytes({ padding: 30 }) };

async function manifests(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true })).filter((p) => p.endsWith('squeeze-manifest.json')).sort();
}

describe('where the manifest is', () => {
  it('in the folder of the outputs, not the working folder: the inputs’ common folder, or the -o folder', async () => {
    dir = await tree({ ...PHOTOS, '.git/HEAD': 'ref: refs/heads/main\n' });
    expect((await squeeze(['site/images'], { cwd: dir, env })).code).toBe(0);
    expect((await squeeze(['site/images', '-o', 'dist/images'], { cwd: dir, env })).code).toBe(0);
    expect(await manifests(dir)).toEqual(['dist/images/squeeze-manifest.json', 'site/images/squeeze-manifest.json']);
    // The same manifest whatever the working folder.
    expect((await squeeze(['check', '.'], { cwd: join(dir, 'site/images') })).code).toBe(0);
  });

  it('a run on a subfolder finds the record of a run on the whole tree, up to the top of the git work tree', async () => {
    dir = await tree({ ...PHOTOS, '.git/HEAD': 'ref: refs/heads/main\n' });
    await squeeze(['site/images'], { cwd: dir, env });
    const sent = fake.api.requests.length;
    const again = await squeeze(['.'], { cwd: join(dir, 'site/images/2024'), env });
    expect(again).toMatchObject({ code: 0 });
    expect(again.stderr).toMatch(/0 compressed; 2 skipped/);
    expect(fake.api.requests).toHaveLength(sent);
    expect(await manifests(dir)).toEqual(['site/images/squeeze-manifest.json']);
  });

  it('reads a manifest of the first version (one record per input) and rewrites it in the new form', async () => {
    dir = await tree({ 'img/a.png': pngBytes({ padding: 10 }) });
    await squeeze(['img'], { cwd: dir, env });
    const v2 = JSON.parse(await readFile(join(dir, 'img/squeeze-manifest.json'), 'utf8'));
    const [output, record] = Object.entries(v2.outputs)[0] as [string, Record<string, unknown>];
    const v1 = { squeezeManifest: 1, files: { [record.input as string]: { input: record.inputHash, output: record.outputHash, options: record.options, written: output, originalSize: 1, compressedSize: 1 } } };
    await writeFile(join(dir, 'img/squeeze-manifest.json'), JSON.stringify(v1));
    expect(await squeeze(['check', 'img'], { cwd: dir })).toMatchObject({ code: 0 });
    const run = await squeeze(['img'], { cwd: dir, env });
    expect(run.stderr).toMatch(/0 compressed; 1 skipped/);
  });
});

describe('several output folders', () => {
  it('a plain run after a run with -o skips its own earlier outputs, and check agrees with each', async () => {
    dir = await tree(PHOTOS);
    expect((await squeeze(['site'], { cwd: dir, env })).code).toBe(0);
    fake.api.answer(...Array.from({ length: 3 }, () => image({ format: 'webp' })));
    expect((await squeeze(['site', '-o', 'out', '-f', 'webp'], { cwd: dir, env })).code).toBe(0);
    expect((await squeeze(['site', '-o', 'out2', '-q', '60'], { cwd: dir, env })).code).toBe(0);
    const sent = fake.api.requests.length;
    expect(sent).toBe(9);

    const plain = await squeeze(['site'], { cwd: dir, env });
    expect(plain).toMatchObject({ code: 0 });
    expect(plain.stderr).toMatch(/0 compressed; 3 skipped/);
    for (const argv of [['site'], ['site', '-o', 'out', '-f', 'webp'], ['site', '-o', 'out2', '-q', '60']]) {
      const checked = await squeeze(['check', ...argv], { cwd: dir });
      expect(checked.code, `${argv.join(' ')}: ${checked.stderr}`).toBe(0);
      expect((await squeeze([...argv, '--json'], { cwd: dir, env })).json().summary, argv.join(' ')).toMatchObject({ compressed: 0, skipped: 3 });
    }
    expect(fake.api.requests).toHaveLength(sent);
  });

  it('a changed input replaces its own earlier output; check says not done exactly where a run would send', async () => {
    dir = await tree(PHOTOS);
    await squeeze(['site'], { cwd: dir, env });
    await writeFile(join(dir, 'site/images/a.png'), pngBytes({ padding: 11 }));
    await rm(join(dir, 'site/images/2024/b.min.png'));
    const check = await squeeze(['check', 'site', '--json'], { cwd: dir });
    const notDone = (report: { files: { input: string; status: string }[] }) => report.files.filter((f) => f.status !== 'skipped').map((f) => f.input).sort();
    expect(check.code).toBe(1);
    const dry = await squeeze(['site', '--dry-run', '--json'], { cwd: dir });
    expect(notDone(check.json())).toEqual(notDone(dry.json()));
    expect(notDone(check.json())).toEqual(['site/images/2024/b.png', 'site/images/a.png']);
    const run = await squeeze(['site'], { cwd: dir, env });
    expect(run).toMatchObject({ code: 0 });
    expect(run.stderr).toMatch(/2 compressed: .*; 1 skipped/);
  });
});

describe('a file the API refused with 413', () => {
  const tooLarge = apiError(413, 'image_too_large', { message: 'The image is 20000x20000 pixels; the limit is 100 megapixels.' });

  it('is remembered and not sent again until it changes; --dry-run and check say it fails; --force sends it', async () => {
    dir = await tree({ 'img/huge.png': pngBytes({ padding: 50 }), 'img/ok.png': pngBytes({ padding: 5 }) });
    fake.api.answer(tooLarge);
    const first = await squeeze(['img/huge.png', 'img/ok.png', '-c', '1'], { cwd: dir, env });
    expect(first.code).toBe(1);
    expect(fake.api.requests).toHaveLength(2);

    const second = await squeeze(['img', '--json'], { cwd: dir, env });
    expect(second.code).toBe(1);
    expect(fake.api.requests).toHaveLength(2);
    expect(second.json().files.find((f: { input: string }) => f.input === 'img/huge.png')).toMatchObject({
      status: 'failed',
      error: { code: 'image_too_large', message: expect.stringMatching(/^refused before: The image is 20000x20000 pixels.* Not sent again until the file or the options change/) },
    });
    expect(second.stderr).toMatch(/✗ img\/huge\.png: refused before: The image is 20000x20000/);

    const dry = await squeeze(['img', '--dry-run'], { cwd: dir, env });
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/would fail img\/huge\.png: refused before: The image is 20000x20000/);
    const check = await squeeze(['check', 'img'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/not done: img\/huge\.png \(refused before/);

    // Other options are another request.
    fake.api.answer(tooLarge);
    await squeeze(['img/huge.png', '--max-width', '1000'], { cwd: dir, env });
    expect(fake.api.requests).toHaveLength(3);

    // A changed file is sent again, and its success forgets the refusal.
    await writeFile(join(dir, 'img/huge.png'), pngBytes({ padding: 51 }));
    expect((await squeeze(['img'], { cwd: dir, env })).code).toBe(0);
    expect(fake.api.requests).toHaveLength(4);
    expect(JSON.parse(await readFile(join(dir, 'img/squeeze-manifest.json'), 'utf8')).refused).toEqual({});
  });

  it('--force sends it again', async () => {
    dir = await tree({ 'huge.png': pngBytes({ padding: 50 }) });
    fake.api.answer(tooLarge);
    await squeeze(['huge.png'], { cwd: dir, env });
    expect((await squeeze(['huge.png', '--force'], { cwd: dir, env })).code).toBe(0);
    expect(fake.api.requests).toHaveLength(2);
  });
});
