import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';
import { craftGif, tinyFrames } from '../helpers/gif';

async function upload(bytes: Uint8Array, fields: Record<string, string>, accept?: string): Promise<Response> {
  const { key } = await createKey('business');
  const headers: Record<string, string> = { 'X-API-Key': key, ...(accept ? { Accept: accept } : {}) };
  return call('/v1/compress', { method: 'POST', headers, body: form('file', bytes, fields) });
}

/** The answer is the error's JSON, and the engine never started: everything was decided from the header. */
async function refusedFromHeader(response: () => Promise<Response>): Promise<{ status: number; error: string; message: string }> {
  const jobsBefore = wasmEngine.jobsStarted();
  const answer = await response();
  expect(answer.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await errorBody(answer);
  expect(wasmEngine.jobsStarted()).toBe(jobsBefore);
  return { status: answer.status, ...body };
}

describe('GIF input, walked and not decoded yet (issue 38)', () => {
  for (const name of ['still.gif', 'interlaced.gif', 'transparent.gif', 'animated.gif']) {
    it(`${name} is recognised, its size read, and refused as other undecoded formats are: 400 unsupported_image`, async () => {
      const answer = await refusedFromHeader(async () => upload(await fixture(`gif/${name}`), { format: 'png' }));
      expect(answer).toMatchObject({ status: 400, error: 'unsupported_image' });
      expect(answer.message).toMatch(/^The data is a GIF image \(96x64(, 4 frames)?\), which is recognised but not decoded yet/);
    });
  }

  it('a 65535x65535 logical screen: 413 image_too_large naming the size and the limit', async () => {
    const answer = await refusedFromHeader(() => upload(craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] }), {}));
    expect(answer).toMatchObject({ status: 413, error: 'image_too_large' });
    expect(answer.message).toMatch(/65535x65535.*the limit is 100 MP/);
  });

  it('10,000 one-pixel frames on 100x100: 413 naming the frame count and the limit when WebP would keep every frame, else not', async () => {
    const bytes = tinyFrames(100, 100, 10_000);
    for (const [fields, accept] of [[{ format: 'webp' }, undefined], [{}, 'image/webp,*/*']] as const) {
      const answer = await refusedFromHeader(() => upload(bytes, fields, accept));
      expect(answer).toMatchObject({ status: 413, error: 'image_too_large' });
      expect(answer.message).toMatch(/10000 frames of 100x100 \(100 MP in all\); the limit is 50 MP of frames/);
    }
    // The first frame alone (PNG, or auto without WebP): the cap does not apply.
    for (const [fields, accept] of [[{ format: 'png' }, 'image/webp'], [{}, '*/*']] as const) {
      expect(await refusedFromHeader(() => upload(bytes, fields, accept))).toMatchObject({ status: 400, error: 'unsupported_image' });
    }
  });

  it('a truncated GIF is refused as truncated; a truncated bomb is named as one first', async () => {
    const bytes = await fixture('gif/still.gif');
    const truncated = await refusedFromHeader(() => upload(bytes.subarray(0, bytes.length - 100), {}));
    expect(truncated).toMatchObject({ status: 400, error: 'unsupported_image', message: 'The GIF data is truncated: the file ends before the image does.' });
    const bomb = craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] });
    expect(await refusedFromHeader(() => upload(bomb.subarray(0, 20), {}))).toMatchObject({ status: 413, error: 'image_too_large' });
  });
});
