// What the client believes of an answer (issue 20): it follows no redirect, reads no more than it expects,
// and returns an image only when the bytes are what the headers say.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApi, fakeApiPerTest, failure, type Handler, image, jpegBytes, pngBytes, TEST_KEY, webpBytes } from './fake-api';

const fake = fakeApiPerTest();
const client = fake.client;

const others: FakeApi[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((other) => other.close()));
});
async function otherOrigin(): Promise<FakeApi> {
  const other = await FakeApi.start();
  others.push(other);
  return other;
}

/** `handler` without one of its headers. */
function without(header: string, handler: Handler): Handler {
  return (req, res, body) => {
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, headers: Record<string, string>) => writeHead(status, Object.fromEntries(Object.entries(headers).filter(([k]) => k !== header)))) as typeof res.writeHead;
    return handler(req, res, body);
  };
}

/** An answer with the compress headers, whose body is 'AAAA…' written again and again until the client hangs up. */
function endless(headers: Record<string, string>, status = 200) {
  const chunk = Buffer.alloc(64 * 1024, 'A');
  const written = { bytes: 0, closed: new Promise<void>(() => undefined) };
  const handler = (_req: unknown, res: ServerResponse) => {
    written.closed = new Promise((resolve) => res.on('close', resolve));
    res.writeHead(status, { 'Content-Type': 'image/png', 'X-Output-Format': 'png', 'X-Original-Size': '10', ...headers });
    const more = () => {
      while (!res.destroyed && res.write(chunk)) written.bytes += chunk.length;
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  };
  return { handler, written };
}

describe('redirects: the key and the image go to the base URL only', () => {
  it.each([301, 302, 303, 307, 308])('a %i is invalid_response, not followed, not retried', async (status) => {
    const other = await otherOrigin();
    fake.api.answer((_req, res) => {
      res.writeHead(status, { Location: `${other.url}/v1/compress` });
      res.end();
    });
    const err = await failure(client().compress(pngBytes()));
    expect(err).toMatchObject({ code: 'invalid_response', status, attempts: 1 });
    expect(err.message).toContain(`redirect to ${other.url}/v1/compress`);
    expect(other.requests).toHaveLength(0);
    expect(fake.api.requests).toHaveLength(1);
  });

  it('usage is not redirected either', async () => {
    const other = await otherOrigin();
    fake.api.answer((_req, res) => {
      res.writeHead(302, { Location: `${other.url}/v1/usage` });
      res.end();
    });
    expect(await failure(client().usage())).toMatchObject({ code: 'invalid_response', status: 302 });
    expect(other.requests).toHaveLength(0);
  });
});

describe('answers are read with a cap and checked before anything is returned', () => {
  it('a body longer than X-Compressed-Size is cut as soon as it passes it', async () => {
    const { handler, written } = endless({ 'X-Compressed-Size': '3' });
    fake.api.answer(handler);
    const err = await failure(client().compress(pngBytes()));
    expect(err).toMatchObject({ code: 'invalid_response', status: 200, attempts: 1 });
    expect(err.message).toMatch(/longer than the 3 bytes of X-Compressed-Size/);
    await written.closed;
    // What the socket buffers took before the client hung up, not 1.5 GB.
    expect(written.bytes).toBeLessThan(64 * 1_048_576);
  });

  it('a Content-Length or an X-Compressed-Size over the largest possible answer is refused before reading', async () => {
    const huge = String(1.5 * 2 ** 30);
    for (const headers of [{ 'Content-Length': huge, 'X-Compressed-Size': huge }, { 'X-Compressed-Size': huge }] as Record<string, string>[]) {
      const { handler, written } = endless(headers);
      fake.api.answer(handler);
      const err = await failure(client().compress(pngBytes()));
      expect(err).toMatchObject({ code: 'invalid_response', status: 200 });
      expect(err.message).toMatch(/more than the 134217728 bytes/);
      await written.closed;
      expect(written.bytes).toBeLessThan(64 * 1_048_576);
    }
  });

  it('an error body is capped too', async () => {
    const { handler, written } = endless({}, 400);
    fake.api.answer(handler);
    expect(await failure(client().compress(pngBytes()))).toMatchObject({ code: 'invalid_response', status: 400 });
    await written.closed;
    expect(written.bytes).toBeLessThan(64 * 1_048_576);
  });

  it.each([
    ['shorter than X-Compressed-Size', image({ bytes: pngBytes(), headers: { 'X-Compressed-Size': '500' } }), /ended after \d+ of the 500 bytes/],
    ['without X-Compressed-Size', without('X-Compressed-Size', image({ bytes: pngBytes() })), /X-Compressed-Size/],
    ['with a negative X-Compressed-Size', image({ bytes: pngBytes(), headers: { 'X-Compressed-Size': '-1' } }), /X-Compressed-Size/],
    ['not an image', image({ bytes: new TextEncoder().encode('AAAAAAAAAAAAAAAA') }), /not a PNG image/],
    ['an image of another format than X-Output-Format', image({ bytes: jpegBytes(), format: 'webp' }), /not a WEBP image/],
    ['in a format the API does not make', image({ bytes: pngBytes(), format: 'gif' }), /X-Output-Format/],
  ])('an answer %s is invalid_response', async (_name, answer, message) => {
    fake.api.answer(answer);
    const err = await failure(client().compress(pngBytes()));
    expect(err).toMatchObject({ code: 'invalid_response', status: 200, attempts: 1 });
    expect(err.message).toMatch(message);
  });

  it('an image whose bytes, format and length agree with the headers is returned', async () => {
    const bytes = webpBytes();
    fake.api.answer(image({ bytes, format: 'webp' }));
    expect((await client().compress(pngBytes(), { format: 'webp' })).image).toEqual(bytes);
  });
});

describe('the key', () => {
  it.each([
    ['too short', 'sqz_abc'],
    ['without its prefix', 'A'.repeat(36)],
    ['pasted with quotes', `"${TEST_KEY}"`],
    ['pasted with its variable name', `SQUEEZE_API_KEY=${TEST_KEY}`],
    ['with a character outside base64url', `sqz_${'A'.repeat(31)}+`],
  ])('a value not shaped like a key (%s) is refused before anything is sent, without echoing it', (_name, apiKey) => {
    let err: unknown;
    try {
      client({ apiKey });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(/^Not an API key: keys are sqz_ and 32 letters, digits, - or _; the value given has \d+ characters/);
    expect((err as Error).message).not.toContain(apiKey);
    expect(fake.api.requests).toHaveLength(0);
  });

  it('a key is taken with the spaces and newline a file or a paste adds', async () => {
    await client({ apiKey: ` ${TEST_KEY}\n` }).compress(pngBytes());
    expect(fake.api.requests[0]!.headers['x-api-key']).toBe(TEST_KEY);
  });
});
