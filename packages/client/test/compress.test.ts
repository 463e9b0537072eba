import { describe, expect, it } from 'vitest';
import { Squeeze } from '../src/index';
import { image, jpegBytes, pngBytes, fakeApiPerTest, TEST_KEY, until, webpBytes } from './fake-api';

const fake = fakeApiPerTest();
const client = fake.client;

/** The multipart fields the fake received, parsed by the platform's own parser. */
async function fields(index = 0): Promise<FormData> {
  const { headers, body } = fake.api.requests[index]!;
  return new Response(new Uint8Array(body), { headers: { 'Content-Type': String(headers['content-type']) } }).formData();
}

describe('compress', () => {
  it('uploads bytes with every option and returns the image, sizes, savings, format, notes and rate-limit windows', async () => {
    const out = webpBytes();
    fake.api.answer(image({ bytes: out, format: 'webp', original: 200, notes: 'resized, converted' }));
    const input = pngBytes();
    const result = await client().compress(input, { quality: 70, format: 'webp', maxWidth: 640, maxHeight: 480, preserve: ['copyright', 'location'] });

    expect(result).toMatchObject({ format: 'webp', contentType: 'image/webp', originalSize: 200, compressedSize: out.length, savedBytes: 200 - out.length, savingsPercent: Math.round((100 * (200 - out.length)) / 200), attempts: 1 });
    expect(result.image).toEqual(out);
    expect(result.notes).toEqual(['resized', 'converted']);
    expect(result.rateLimit).toEqual({
      minute: { limit: 60, windowSeconds: 60, remaining: 59, resetSeconds: 60 },
      month: { limit: 500, windowSeconds: 2592000, remaining: 499, resetSeconds: 86400 },
    });
    const request = fake.api.requests[0]!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/compress' });
    expect(request.headers['x-api-key']).toBe(TEST_KEY);
    expect(request.headers['user-agent']).toMatch(/^squeeze-client\//);
    const form = await fields();
    expect(Object.fromEntries([...form].filter(([k]) => k !== 'file'))).toEqual({ quality: '70', format: 'webp', maxWidth: '640', maxHeight: '480', preserve: 'copyright,location' });
    expect(new Uint8Array(await (form.get('file') as Blob).arrayBuffer())).toEqual(input);
  });

  it('sends the box, fit, gravity and background, and reads the window cut from X-Crop', async () => {
    fake.api.answer(image({ format: 'png', notes: 'cropped, resized', headers: { 'X-Crop': '100,0,400,400' } }));
    const result = await client().compress(pngBytes(), { width: 300, height: 300, fit: 'cover', gravity: '0.25x0.6', background: '#ff000080' });
    expect(result.crop).toEqual({ left: 100, top: 0, width: 400, height: 400 });
    expect(result.notes).toEqual(['cropped', 'resized']);
    const form = await fields();
    expect(Object.fromEntries([...form].filter(([k]) => k !== 'file'))).toEqual({ width: '300', height: '300', fit: 'cover', gravity: '0.25x0.6', background: '#ff000080' });
    fake.api.answer(image({ format: 'png' }));
    expect((await client().compress(pngBytes())).crop).toBeUndefined();
  });

  it('sends a File with its name, an ArrayBuffer, and a URL as JSON', async () => {
    const squeeze = client();
    await squeeze.compress(new File([jpegBytes()], 'photo.jpg'));
    expect(((await fields(0)).get('file') as File).name).toBe('photo.jpg');
    await squeeze.compress(pngBytes().buffer as ArrayBuffer);
    expect(((await fields(1)).get('file') as Blob).size).toBe(pngBytes().length);

    fake.api.answer(image({ original: 1000 }), image({ original: 1000 }));
    await squeeze.compress(new URL('https://images.example/cat.png'), { quality: 60 });
    await squeeze.compress({ url: 'https://images.example/dog.png' }, { preserve: ['creation'] });
    expect(fake.api.requests[2]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(fake.api.requests[2]!.body.toString())).toEqual({ url: 'https://images.example/cat.png', quality: 60 });
    expect(JSON.parse(fake.api.requests[3]!.body.toString())).toEqual({ url: 'https://images.example/dog.png', preserve: ['creation'] });
  });

  it('asks for WebP through Accept only with allowWebp', async () => {
    const squeeze = client();
    await squeeze.compress(pngBytes());
    await squeeze.compress(pngBytes(), { allowWebp: true });
    expect(fake.api.requests[0]!.headers.accept).not.toMatch(/webp/);
    expect(fake.api.requests[1]!.headers.accept).toMatch(/^image\/webp/);
  });

  it('asks for AVIF through Accept only with allowAvif, and for both with both', async () => {
    const squeeze = client();
    await squeeze.compress(pngBytes(), { allowAvif: true });
    await squeeze.compress(pngBytes(), { allowAvif: true, allowWebp: true });
    await squeeze.compress(pngBytes(), { allowWebp: true });
    expect(fake.api.requests.map((r) => r.headers.accept)).toEqual(['image/avif, image/*;q=0.8', 'image/avif, image/webp, image/*;q=0.8', 'image/webp, image/*;q=0.8']);
  });

  it('streams a ReadableStream upload: the server reads its first part before the source has ended', async () => {
    const firstPart = pngBytes({ padding: 100_000 });
    let receivedBeforeEnd = 0;
    let sourceEnded = false;
    const raw = Object.assign(
      async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
        let total = 0;
        for await (const chunk of req) {
          total += (chunk as Buffer).length;
          if (!sourceEnded) receivedBeforeEnd = total;
        }
        image({ original: total })(req, res, Buffer.alloc(0));
      },
      { raw: true },
    );
    fake.api.answer(raw);
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        if (pulls === 1) controller.enqueue(firstPart);
        else if (pulls < 6) {
          // The rest comes only once the first part has reached the server: a client that read the whole
          // source before sending would wait here for ever (the test's timeout).
          await until(() => receivedBeforeEnd >= firstPart.length);
          controller.enqueue(new Uint8Array(1000));
        } else {
          sourceEnded = true;
          controller.close();
        }
      },
    });
    const result = await client().compress(stream);
    expect(receivedBeforeEnd).toBeGreaterThanOrEqual(firstPart.length);
    expect(result.originalSize).toBeGreaterThan(firstPart.length + 4000);
    expect(fake.api.requests[0]!.headers['transfer-encoding']).toBe('chunked');
  });

  it('parses a streamed multipart upload as the platform would, with the options', async () => {
    const bytes = pngBytes({ padding: 70_000 });
    const stream = new Blob([bytes]).stream();
    await client().compress(stream, { quality: 50 });
    const form = await fields();
    expect(form.get('quality')).toBe('50');
    expect(new Uint8Array(await (form.get('file') as Blob).arrayBuffer())).toEqual(bytes);
  });
});

describe('usage', () => {
  it('returns the usage document with the rate-limit windows', async () => {
    const body = { plan: 'free', usage: { current: 3, limit: 500, resetAt: '2026-12-01T00:00:00.000Z' }, totals: { bytesIn: 10, bytesOut: 4, savedBytes: 6, savedPercent: 60 }, key: { name: null, prefix: 'sqz_AbCdEfGh', requests: 3, bytesIn: 10, bytesOut: 4 } };
    fake.api.answer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', RateLimit: '"minute";r=10;t=5' });
      res.end(JSON.stringify(body));
    });
    const usage = await client().usage();
    expect(usage).toEqual({ ...body, rateLimit: { minute: { remaining: 10, resetSeconds: 5, limit: undefined, windowSeconds: undefined } } });
    expect(fake.api.requests[0]).toMatchObject({ method: 'GET', path: '/v1/usage' });
  });
});

describe('configuration', () => {
  it('sends the key over plain http to loopback only', () => {
    expect(() => new Squeeze({ apiKey: TEST_KEY, baseUrl: 'http://api.example.com' })).toThrow(/https/);
    expect(() => new Squeeze({ apiKey: TEST_KEY, baseUrl: 'http://10.0.0.1:8787' })).toThrow(/https/);
    for (const ok of ['https://api.example.com', 'http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787']) {
      expect(new Squeeze({ apiKey: TEST_KEY, baseUrl: ok }).baseUrl.protocol).toMatch(/^https?:$/);
    }
    expect(() => new Squeeze({ apiKey: ' ', baseUrl: 'https://api.example.com' })).toThrow(/key/);
  });

  it('keeps a base path', async () => {
    await new Squeeze({ apiKey: TEST_KEY, baseUrl: `${fake.api.url}/api` }).compress(pngBytes());
    expect(fake.api.requests[0]!.path).toBe('/api/v1/compress');
  });
});
