import { describe, expect, it } from 'vitest';
import { checkImage, MAX_UPLOAD_BYTES, Squeeze, SqueezeError } from '../src/index';
import { avifBytes, jpegBytes, pngBytes, webpBytes, fakeApiPerTest } from './fake-api';

const brand = (major: string) => new Uint8Array([0, 0, 0, 20, ...[...`ftyp${major}`].map((c) => c.charCodeAt(0)), 0, 0, 0, 0, ...[...'mif1'].map((c) => c.charCodeAt(0))]);
const heicBytes = () => brand('heic');

const fake = fakeApiPerTest();
const client = fake.client;

async function refusal(input: Parameters<Squeeze['compress']>[0]): Promise<SqueezeError> {
  const err = await client().compress(input).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SqueezeError);
  return err as SqueezeError;
}

describe('local pre-checks: a hopeless input costs no request', () => {
  it.each([
    ['text', new TextEncoder().encode('<html>not an image</html>'), /Not a JPEG, PNG, WebP, AVIF or GIF/],
    ['a HEIC (walked by the API, not decoded yet)', heicBytes(), /Not a JPEG, PNG, WebP, AVIF or GIF/],
    ['empty bytes', new Uint8Array(0), /empty/],
    ['an animated PNG', pngBytes({ animated: true }), /Animated PNG/],
    ['an animated WebP', webpBytes({ animated: true }), /Animated WEBP/],
  ])('refuses %s as unsupported_image (400)', async (_name, bytes, message) => {
    const err = await refusal(bytes);
    expect(err).toMatchObject({ code: 'unsupported_image', status: 400, local: true, attempts: 0 });
    expect(err.message).toMatch(message);
    expect(fake.api.requests).toHaveLength(0);
  });

  it('refuses a Blob over 10 MB as file_too_large (413) without reading it', async () => {
    const big = new Blob([pngBytes(), new Uint8Array(MAX_UPLOAD_BYTES)]);
    const err = await refusal(big);
    expect(err).toMatchObject({ code: 'file_too_large', status: 413, local: true });
    expect(fake.api.requests).toHaveLength(0);
  });

  it('cuts a stream upload once it passes 10 MB, with file_too_large', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = sent === 0 ? pngBytes({ padding: 1 << 20 }) : new Uint8Array(1 << 20);
        sent += chunk.length;
        controller.enqueue(chunk);
        if (sent > 3 * MAX_UPLOAD_BYTES) controller.close();
      },
    });
    const err = await refusal(stream);
    expect(err).toMatchObject({ code: 'file_too_large', local: true });
    // The source was not read to its end.
    expect(sent).toBeLessThan(MAX_UPLOAD_BYTES + 4 * (1 << 20));
  });

  it('takes JPEG, PNG, WebP, AVIF and GIF (animated too: the API makes its first frame, or an animated WebP), by their bytes', async () => {
    expect(await checkImage(pngBytes())).toBe('png');
    expect(await checkImage(new Blob([jpegBytes()]))).toBe('jpeg');
    expect(await checkImage(webpBytes())).toBe('webp');
    expect(await checkImage(avifBytes())).toBe('avif');
    expect(await checkImage(new TextEncoder().encode('GIF89a\x01\x00\x01\x00'))).toBe('gif');
    expect(await checkImage(new TextEncoder().encode('GIF87a\x01\x00\x01\x00'))).toBe('gif');
  });
});
