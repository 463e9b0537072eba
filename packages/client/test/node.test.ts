import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Squeeze } from '../src/index';
import { compressFile, copyFileAtomic, fileBlob, writeFileAtomic } from '../src/node';
import { apiError, FakeApi, image, pngBytes, TEST_KEY } from './fake-api';

let api: FakeApi;
let dir: string;
beforeEach(async () => {
  api = await FakeApi.start();
  dir = await mkdtemp(join(tmpdir(), 'squeeze-client-'));
});
afterEach(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Node file helpers (@squeeze-edge/client/node)', () => {
  it('compressFile streams the file from disk, retries with the whole file, and writes the output', async () => {
    const input = join(dir, 'in.png');
    const bytes = pngBytes({ padding: 100_000 });
    await writeFile(input, bytes);
    api.answer(apiError(503, 'service_unavailable'), image({ bytes: pngBytes({ padding: 7 }) }));
    const result = await compressFile(new Squeeze({ apiKey: TEST_KEY, baseUrl: api.url, retryBaseDelayMs: 1 }), input, join(dir, 'out.png'));
    expect(result.attempts).toBe(2);
    expect(api.requests[1]!.body.includes(Buffer.from(bytes))).toBe(true);
    expect(await readFile(join(dir, 'out.png'))).toEqual(Buffer.from(pngBytes({ padding: 7 })));
    expect((await fileBlob(input)).size).toBe(bytes.length);
  });

  it('writeFileAtomic replaces a file whole and leaves no temporary file; a failed write leaves the old one', async () => {
    const path = join(dir, 'a.png');
    await writeFile(path, 'old');
    await writeFileAtomic(path, new Uint8Array([1, 2]));
    expect(await readFile(path)).toEqual(Buffer.from([1, 2]));
    await expect(writeFileAtomic(join(dir, 'missing-folder', 'b.png'), 'x')).rejects.toThrow();
    await copyFileAtomic(path, join(dir, 'copy.png'));
    expect(await readFile(join(dir, 'copy.png'))).toEqual(Buffer.from([1, 2]));
    expect((await readdir(dir)).sort()).toEqual(['a.png', 'copy.png']);
  });
});
