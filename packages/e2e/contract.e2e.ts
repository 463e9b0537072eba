// The real client against the real Worker (wrangler dev): what the client sends and parses is what the
// API does, and its local pre-checks refuse what the Worker refuses.
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { checkImage, isSqueezeError, Squeeze, sniffFormat, SqueezeError } from '@squeeze-edge/client';
import { fileBlob } from '@squeeze-edge/client/node';
import { fixture, fixturePath } from './helpers/fixtures';
import { createKey, setMonthUsage } from './helpers/keys';

let squeeze: Squeeze;
let apiKey: string;
beforeAll(() => {
  apiKey = createKey('free');
  squeeze = new Squeeze({ apiKey, baseUrl: inject('baseUrl') });
});

async function failure(promise: Promise<unknown>): Promise<SqueezeError> {
  const err = await promise.catch((e: unknown) => e);
  if (!(err instanceof SqueezeError)) throw new Error(`expected a SqueezeError, got ${String(err)}`);
  return err;
}

describe('the client against the Worker', () => {
  it('compresses bytes: the image, its sizes and savings, its format and both rate-limit windows', async () => {
    const input = fixture('api/chelsea.png');
    const result = await squeeze.compress(input);
    expect(result.format).toBe('png');
    expect(sniffFormat(result.image)).toBe('png');
    expect(result.originalSize).toBe(input.length);
    expect(result.compressedSize).toBe(result.image.length);
    expect(result.compressedSize).toBeLessThan(input.length);
    expect(result.savedBytes).toBe(input.length - result.image.length);
    // Rounded as the API rounds (halves away from zero: test/api/savings-percent.test.ts).
    expect(Math.abs(result.savingsPercent - (100 * result.savedBytes) / input.length)).toBeLessThanOrEqual(0.5);
    expect(result.rateLimit.minute).toMatchObject({ limit: 60, windowSeconds: 60 });
    expect(result.rateLimit.month).toMatchObject({ limit: 500 });
    expect(result.rateLimit.minute!.remaining).toBeLessThan(60);
    expect(squeeze.rateLimit).toEqual(result.rateLimit);
  });

  it('compresses a file from disk with every option, and reports the notes', async () => {
    const result = await squeeze.compress(await fileBlob(fixturePath('engine/testorig.jpg')), { quality: 60, format: 'webp', maxWidth: 32, maxHeight: 32 });
    expect(result.format).toBe('webp');
    expect(sniffFormat(result.image)).toBe('webp');
    expect(result.notes).toEqual(expect.arrayContaining(['resized', 'converted']));
  });

  it('streams a Node stream upload to workerd', async () => {
    const stream = Readable.toWeb(createReadStream(fixturePath('api/chelsea.png'), { highWaterMark: 16 * 1024 })) as ReadableStream<Uint8Array>;
    const result = await squeeze.compress(stream, { quality: 70 });
    expect(result.originalSize).toBe(fixture('api/chelsea.png').length);
    expect(result.format).toBe('png');
  });

  it('with allowWebp, format auto may answer WebP; without it, never', async () => {
    const input = fixture('api/chelsea.png');
    expect((await squeeze.compress(input)).format).toBe('png');
    expect((await squeeze.compress(input, { allowWebp: true })).format).toBe('webp');
  });

  it('with allowWebp, auto keeps a JPEG whose look a WebP could not match, and says why (one look across formats)', async () => {
    // Saved at 75, asked at 80: our JPEG re-quantises it on its own steps; no WebP is made.
    const result = await squeeze.compress(fixture('engine/testorig.jpg'), { allowWebp: true });
    expect(result.format).toBe('jpeg');
    expect(sniffFormat(result.image)).toBe('jpeg');
    expect(result.notes).toContain('format-kept-for-look');
  });

  it('usage() reports the month of the key', async () => {
    // A key of its own: the count is this test's, whatever ran before it.
    const key = createKey('free');
    const client = new Squeeze({ apiKey: key, baseUrl: inject('baseUrl') });
    const before = Date.now();
    const { originalSize, compressedSize } = await client.compress(fixture('api/chelsea.png'));
    // Read back at once: only a compression and this read falling either side of 00:00 UTC on the 1st would
    // differ (the dev server's clock cannot be held still from here).
    const usage = await client.usage();
    expect(usage).toMatchObject({ plan: 'free', usage: { current: 1, limit: 500 }, key: { requests: 1, prefix: key.slice(0, 12) } });
    expect(usage.totals).toMatchObject({ bytesIn: originalSize, bytesOut: compressedSize });
    expect(Date.parse(usage.usage.resetAt)).toBeGreaterThan(before);
    expect(usage.rateLimit.minute?.limit).toBe(60);
  });
});

describe('errors from the Worker, as one family, none retried', () => {
  it('unauthorized (401) for an unknown key', async () => {
    const stranger = new Squeeze({ apiKey: `sqz_${'A'.repeat(32)}`, baseUrl: inject('baseUrl') });
    expect(await failure(stranger.usage())).toMatchObject({ code: 'unauthorized', status: 401, attempts: 1 });
  });

  it('bad_request (400) for an option out of range; url_blocked (400) for a private URL', async () => {
    expect(await failure(squeeze.compress(fixture('engine/pngsuite/basn6a08.png'), { quality: 0 }))).toMatchObject({ code: 'bad_request', status: 400, attempts: 1 });
    expect(await failure(squeeze.compress(new URL('https://127.0.0.1/cat.png')))).toMatchObject({ code: 'url_blocked', status: 400, attempts: 1 });
  });

  it('unsupported_image (400) for a PNG that passes the local checks but does not decode', async () => {
    expect(await failure(squeeze.compress(fixture('bad/png-truncated.png')))).toMatchObject({ code: 'unsupported_image', status: 400, local: false });
  });

  it('quota_exceeded (429) with resetAt and Retry-After, at once', async () => {
    const key = createKey('free');
    const before = Date.now();
    await setMonthUsage(key, 500);
    const client = new Squeeze({ apiKey: key, baseUrl: inject('baseUrl') });
    // The month as the Worker sees it, after the write from outside (which may briefly keep D1 busy).
    expect((await client.usage()).usage).toMatchObject({ current: 500, limit: 500 });
    const err = await failure(client.compress(fixture('engine/pngsuite/basn6a08.png')));
    expect(err).toMatchObject({ code: 'quota_exceeded', status: 429, attempts: 1 });
    expect(isSqueezeError(err, 'quota_exceeded')).toBe(true);
    expect(Date.parse(err.resetAt!)).toBeGreaterThan(before);
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect(err.rateLimit.month?.remaining).toBe(0);
  });
});

describe('the local pre-checks agree with the Worker', () => {
  it.each(['bad/basic_f20.png', 'bad/two-frames.webp', 'bad/text-named.png', 'bad/html-named.jpg', 'bad/unsupported.bmp', 'bad/empty.png'])(
    '%s: refused locally, and by the Worker with the same code',
    async (name) => {
      const bytes = fixture(name);
      const local = await failure(checkImage(bytes));
      expect(local).toMatchObject({ local: true, code: 'unsupported_image' });
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'x');
      const response = await fetch(`${inject('baseUrl')}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': createKeyOnce() }, body: form });
      expect(response.status).toBe(local.status);
      expect((await response.json()).error).toBe(local.code);
    },
  );

  it('a still GIF (bad/unsupported.gif, refused before GIF input): taken locally, and answered by the Worker', async () => {
    const bytes = fixture('bad/unsupported.gif');
    expect(await checkImage(bytes)).toBe('gif');
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'x');
    const response = await fetch(`${inject('baseUrl')}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': createKeyOnce() }, body: form });
    expect(response.status).toBe(200);
  });
});

let sharedKey: string | undefined;
function createKeyOnce(): string {
  sharedKey ??= createKey('pro');
  return sharedKey;
}
