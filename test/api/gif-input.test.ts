import { describe, expect, it } from 'vitest';
import { readInputHeader } from '../../src/image/header/read-header';
import { isGifHeader } from '../../src/image/types';
import { wasmEngine } from '../../src/image/wasm';
import { contains, text } from '../container/synth';
import { referencePixels } from '../engine/helpers';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';
import { readAnimatedWebp } from '../helpers/animated-webp';
import { craftGif, tinyFrames } from '../helpers/gif';

async function upload(bytes: Uint8Array, fields: Record<string, string>, accept?: string): Promise<Response> {
  const { key } = await createKey('business');
  const headers: Record<string, string> = { 'X-API-Key': key, ...(accept ? { Accept: accept } : {}) };
  return call('/v1/compress', { method: 'POST', headers, body: form('file', bytes, fields) });
}

async function answer(response: Response): Promise<{ format: string | null; notes: string[]; bytes: Uint8Array }> {
  expect(response.status, response.status === 200 ? '' : JSON.stringify(await response.clone().json())).toBe(200);
  const notes = response.headers.get('X-Compression-Notes')?.split(', ') ?? [];
  return { format: response.headers.get('X-Output-Format'), notes, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The answer is the error's JSON, and the engine never started: everything was decided from the header. */
async function refusedFromHeader(response: () => Promise<Response>): Promise<{ status: number; error: string; message: string }> {
  const jobsBefore = wasmEngine.jobsStarted();
  const response_ = await response();
  expect(response_.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await errorBody(response_);
  expect(wasmEngine.jobsStarted()).toBe(jobsBefore);
  return { status: response_.status, ...body };
}

/** A 12x10 screen, a 4-colour palette (index 3 transparent), and an 8x7 frame at 2,1 of a known pattern. */
const PALETTE = Uint8Array.from([200, 30, 40, 20, 180, 60, 10, 40, 220, 0, 0, 0]);
const SCREEN = { width: 12, height: 10 };
const FRAME = { left: 2, top: 1, width: 8, height: 7 };
const INDICES = Uint8Array.from({ length: FRAME.width * FRAME.height }, (_, i) => (i * 7 + Math.floor(i / FRAME.width)) % 4);

/** What a browser draws: the screen transparent, the frame's colours on it, index 3 transparent. */
function expectedRgba(): Uint8ClampedArray {
  const out = new Uint8ClampedArray(SCREEN.width * SCREEN.height * 4);
  for (let y = 0; y < FRAME.height; y++) {
    for (let x = 0; x < FRAME.width; x++) {
      const index = INDICES[y * FRAME.width + x]!;
      if (index === 3) continue;
      out.set([...PALETTE.subarray(index * 3, index * 3 + 3), 255], ((y + FRAME.top) * SCREEN.width + x + FRAME.left) * 4);
    }
  }
  return out;
}

const patterned = (interlaced: boolean) =>
  craftGif({ ...SCREEN, palette: PALETTE, frames: [{ ...FRAME, indices: INDICES, interlaced, transparentIndex: 3 }, { ...FRAME, delayCs: 5 }], loopCount: 0 });

describe('GIF input (issue 38): the first frame decoded by giflib', () => {
  it.each([false, true])('interlaced %s: the first frame on the transparent screen, pixel for pixel (lossless PNG), first-frame', async (interlaced) => {
    const { format, notes, bytes } = await answer(await upload(patterned(interlaced), { format: 'png', quality: '100' }));
    expect(format).toBe('png');
    expect(notes).toEqual(['first-frame', 'converted']);
    expect(readInputHeader(bytes)).toMatchObject({ width: 12, height: 10, hasAlpha: true });
    expect(await referencePixels(bytes, 'png')).toEqual(expectedRgba());
  });

  it.each(['still.gif', 'interlaced.gif', 'transparent.gif'])('%s (gifsicle) to every format: 96x64, alpha kept where it has it', async (name) => {
    const input = await fixture(`gif/${name}`);
    for (const requested of ['jpeg', 'png', 'webp', 'avif']) {
      const { format, notes, bytes } = await answer(await upload(input, { format: requested }));
      expect(format).toBe(requested);
      expect(notes).not.toContain('first-frame');
      const header = readInputHeader(bytes);
      expect(header).toMatchObject({ width: 96, height: 64 });
      if (requested !== 'jpeg') expect(header.hasAlpha).toBe(name === 'transparent.gif');
    }
  });

  it('a still GIF with auto: PNG, or WebP when accepted and smaller, or the GIF itself when neither is smaller (never larger)', async () => {
    const still = await fixture('gif/still.gif');
    const png = await answer(await upload(still, {}));
    expect(png.format).toBe('png');
    expect(png.bytes.length).toBeLessThan(still.length);
    expect((await answer(await upload(still, {}, 'image/webp,*/*'))).format).toMatch(/^(png|webp)$/);
    // 35 bytes of 1x1 GIF: no PNG is smaller.
    const tiny = await fixture('bad/unsupported.gif');
    const kept = await answer(await upload(tiny, {}));
    expect(kept).toMatchObject({ format: 'gif', notes: ['original-returned'] });
    expect(kept.bytes).toEqual(tiny);
  });

  it('an animated GIF with auto and WebP not accepted comes back as a GIF, its comment stripped, its frames and loop count kept', async () => {
    const input = await fixture('gif/animated.gif');
    expect(contains(input, text('made here with gifsicle'))).toBe(true);
    const response = await upload(input, {}, '*/*');
    expect(response.headers.get('Content-Type')).toBe('image/gif');
    const { format, notes, bytes } = await answer(response);
    expect(format).toBe('gif');
    expect(notes).toEqual(['original-returned']);
    expect(contains(bytes, text('made here with gifsicle'))).toBe(false);
    expect(bytes.length).toBe(input.length - 2 - (1 + 'made here with gifsicle'.length) - 1);
    const header = readInputHeader(bytes);
    expect(isGifHeader(header) && [header.gif.frameCount, header.gif.loopCount]).toEqual([4, 3]);
  });

  it('an animated GIF: the first frame for another format, for anim=false, or when a resize is asked without WebP', async () => {
    const input = await fixture('gif/animated.gif');
    expect(await answer(await upload(input, { format: 'jpeg' }))).toMatchObject({ format: 'jpeg', notes: ['first-frame', 'converted'] });
    expect(await answer(await upload(input, { anim: 'false' }, '*/*'))).toMatchObject({ format: 'png', notes: ['first-frame', 'converted'] });
    expect((await answer(await upload(input, { anim: 'false' }, 'image/webp'))).notes).toContain('first-frame');
    expect(await answer(await upload(input, { maxWidth: '48' }))).toMatchObject({ format: 'png', notes: ['first-frame', 'resized', 'converted'] });
    const still = await answer(await upload(input, { format: 'webp', anim: 'false' }));
    expect(still).toMatchObject({ format: 'webp', notes: ['first-frame', 'converted'] });
    expect(() => readAnimatedWebp(still.bytes)).toThrow('not an animated WebP');
  });

  it('an animated GIF to WebP (asked for, or auto with image/webp accepted) is an animated WebP: every frame, its timing and the loop count', async () => {
    const input = await fixture('gif/animated.gif');
    for (const [fields, accept] of [[{ format: 'webp' }, undefined], [{}, 'image/webp'], [{ maxWidth: '48' }, 'image/webp']] as const) {
      const response = await upload(input, fields, accept);
      expect(response.headers.get('Content-Type')).toBe('image/webp');
      const { format, notes, bytes } = await answer(response);
      expect(format).toBe('webp');
      expect(notes).not.toContain('first-frame');
      expect(notes).toContain('converted');
      const webp = readAnimatedWebp(bytes);
      expect(webp.loopCount).toBe(4);
      expect(webp.frames.map((f) => f.durationMs)).toEqual([200, 200, 200, 200]);
      expect([webp.width, webp.height]).toEqual('maxWidth' in fields ? [48, 32] : [96, 64]);
      expect(bytes.length).toBeLessThan(input.length);
    }
  });

  it('auto with WebP accepted answers the GIF, stripped, when the animated WebP would not be smaller; format=webp answers the WebP all the same', async () => {
    // Two frames of 2x2 in 60-odd bytes: no animated WebP is that small.
    const input = craftGif({ width: 2, height: 2, loopCount: 0, comment: 'x', frames: [{ width: 2, height: 2, delayCs: 10 }, { width: 1, height: 1, indices: new Uint8Array([1]), delayCs: 10 }] });
    const returned = await answer(await upload(input, {}, 'image/webp'));
    expect(returned).toMatchObject({ format: 'gif', notes: ['original-returned'] });
    expect(returned.bytes.length).toBe(input.length - 2 - 2 - 1);
    const asked = await answer(await upload(input, { format: 'webp' }));
    expect(asked.format).toBe('webp');
    expect(readAnimatedWebp(asked.bytes).frames).toHaveLength(2);
  });

  it('frames far past the screen: 413 naming the frames as stored and the limit, from the header, when every frame is kept', async () => {
    // 1x1 screen, two frames of 8000x4000 after the first (a byte of LZW each: the header walk does not decode).
    const big = { width: 8000, height: 4000, data: new Uint8Array([0]) };
    const bytes = craftGif({ width: 1, height: 1, frames: [{ width: 1, height: 1 }, big, big] });
    const refused = await refusedFromHeader(() => upload(bytes, { format: 'webp' }));
    expect(refused).toMatchObject({ status: 413, error: 'image_too_large' });
    expect(refused.message).toBe("The GIF's 3 frames decode 64 MP as stored; the limit is 50 MP of frames. Ask for the first frame alone (anim=false, or a format other than WebP).");
  });

  it("an animation's later frame with LZW data that ends early: 400 unsupported_image, never a 5xx", async () => {
    // The second frame's LZW data is three bytes of junk, the file still complete.
    const frames = [{ width: 4, height: 4, delayCs: 5 }, { width: 4, height: 4, delayCs: 5, data: Uint8Array.from([0xff, 0xff, 0xff]) }];
    const response = await upload(craftGif({ width: 4, height: 4, frames }), { format: 'webp' });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ error: 'unsupported_image', message: expect.stringMatching(/^The GIF data cannot be decoded/) });
  });

  it('anim is validated: 400 bad_request for anything but true or false', async () => {
    const input = await fixture('gif/still.gif');
    const response = await upload(input, { anim: 'no' });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
    const { key } = await createKey('business');
    const json = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ image: btoa('x'), anim: 'false' }) });
    expect(json.status).toBe(400);
    expect((await errorBody(json)).error).toBe('bad_request');
  });

  it('a 65535x65535 logical screen: 413 image_too_large naming the size and the limit, from the header', async () => {
    const answer_ = await refusedFromHeader(() => upload(craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] }), {}));
    expect(answer_).toMatchObject({ status: 413, error: 'image_too_large' });
    expect(answer_.message).toMatch(/65535x65535.*the limit is 100 MP/);
  });

  it('10,000 one-pixel frames on 100x100: 413 naming the frame count and the limit when WebP would keep every frame; the first frame otherwise', async () => {
    const bytes = tinyFrames(100, 100, 10_000);
    for (const [fields, accept] of [[{ format: 'webp' }, undefined], [{}, 'image/webp,*/*']] as const) {
      const refused = await refusedFromHeader(() => upload(bytes, fields, accept));
      expect(refused).toMatchObject({ status: 413, error: 'image_too_large' });
      expect(refused.message).toMatch(/10000 frames of 100x100 \(100 MP in all\); the limit is 50 MP of frames/);
    }
    const first = await answer(await upload(bytes, { format: 'png' }, 'image/webp'));
    expect(first).toMatchObject({ format: 'png', notes: ['first-frame', 'converted'] });
    expect(readInputHeader(first.bytes)).toMatchObject({ width: 100, height: 100, hasAlpha: true });
  });

  it('a truncated GIF is refused as truncated; a truncated bomb is named as one first', async () => {
    const bytes = await fixture('gif/still.gif');
    const truncated = await refusedFromHeader(() => upload(bytes.subarray(0, bytes.length - 100), {}));
    expect(truncated).toMatchObject({ status: 400, error: 'unsupported_image', message: 'The GIF data is truncated: the file ends before the image does.' });
    const bomb = craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] });
    expect(await refusedFromHeader(() => upload(bomb.subarray(0, 20), {}))).toMatchObject({ status: 413, error: 'image_too_large' });
  });
});
