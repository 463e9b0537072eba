import { describe, expect, it } from 'vitest';
import { gifFrame } from '../../src/image/header/gif-header';
import { readInputHeader } from '../../src/image/header/read-header';
import { MAX_FRAME_PIXELS, refuseGifFrames } from '../../src/image/steps/frame-area';
import { refuseIncomplete } from '../../src/image/steps/refuse-incomplete';
import { type GifHeader, isGifHeader } from '../../src/image/types';
import { apiErrorOf, expectUnsupported } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';
import { craftGif, tinyFrames } from '../helpers/gif';

const gif = (bytes: Uint8Array): GifHeader => {
  const header = readInputHeader(bytes);
  if (!isGifHeader(header)) throw new Error(`read as ${header.format}`);
  return header;
};
const frames = (header: GifHeader) => Array.from({ length: header.gif.frameCount }, (_, i) => gifFrame(header.gif, i));
/** The pipeline's order: the GIF's limits, then truncation. */
const refusal = (bytes: Uint8Array, keepsFrames: boolean) =>
  apiErrorOf(() => {
    const header = gif(bytes);
    refuseGifFrames(header, keepsFrames);
    refuseIncomplete(header);
  });

describe('GIF headers of files made by gifsicle (test/fixtures/gif)', () => {
  it.each([
    ['still.gif', false, false, 1],
    ['interlaced.gif', true, false, 1],
    ['transparent.gif', false, true, 1],
    ['animated.gif', false, false, 4],
  ] as const)('%s: 96x64, interlaced %s, alpha %s, %i frames', async (name, interlaced, alpha, count) => {
    const bytes = await fixture(`gif/${name}`);
    const header = gif(bytes);
    expect(header).toMatchObject({ format: 'gif', width: 96, height: 64, interlaced, hasAlpha: alpha, animated: count > 1, complete: true, fileBytes: bytes.length });
    expect(header.gif.frameCount).toBe(count);
    expect(gifFrame(header.gif, 0)).toMatchObject({ left: 0, top: 0, width: 96, height: 64, interlaced, transparentIndex: alpha ? 0 : null });
  });

  it('the animation: its delays, the loop count and the second frame stored as 24x16 at 20,10', async () => {
    const header = gif(await fixture('gif/animated.gif'));
    expect(header.gif.loopCount).toBe(3);
    const all = frames(header);
    expect(all.map((f) => f.delayCs)).toEqual([20, 20, 20, 20]);
    expect(all[1]).toMatchObject({ left: 20, top: 10, width: 24, height: 16 });
  });

  it('a still GIF has no loop count; an animated one under the caps is let through, every frame asked for or the first', async () => {
    expect(gif(await fixture('gif/still.gif')).gif.loopCount).toBeNull();
    const animated = await fixture('gif/animated.gif');
    expect(() => refuseGifFrames(gif(animated), true)).not.toThrow();
    expect(() => refuseGifFrames(gif(animated), false)).not.toThrow();
  });

  it("every frame's decoded pixels: each frame's stored width times its height, however far past the screen", () => {
    const frames = [{ width: 3, height: 2 }, { left: 5, width: 65535, height: 10 }, { width: 7, height: 7, interlaced: true }];
    expect(gif(craftGif({ width: 10, height: 10, frames })).gif.decodedPixels).toBe(6 + 655_350 + 49);
  });

  it('the first frame\'s decoded pixels: its stored width times its rows down to the screen\'s last, or all when interlaced', async () => {
    expect(gif(await fixture('gif/still.gif')).gif.firstDecodedPixels).toBe(96 * 64);
    const wide = { width: 65535, height: 100 };
    expect(gif(craftGif({ width: 10, height: 10, frames: [{ top: 4, ...wide }] })).gif.firstDecodedPixels).toBe(65535 * 6);
    const interlaced = gif(craftGif({ width: 10, height: 10, frames: [{ top: 4, ...wide, interlaced: true }] }));
    expect(interlaced.gif.firstDecodedPixels).toBe(65535 * 100);
    // The pixels a crafted frame claims, not its data (one index here), are what the decoder would make.
    const tall = craftGif({ width: 10, height: 10, frames: [{ width: 2000, height: 60000, interlaced: true, indices: new Uint8Array(1) }] });
    expect(gif(tall).gif.firstDecodedPixels).toBe(120_000_000);
    const error = await refusal(tall, false);
    expect([error.code, error.message]).toEqual(['image_too_large', 'The image is a GIF whose first frame decodes 120000000 pixels (120 MP); the limit is 100 MP.']);
  });
});

describe('crafted GIFs', () => {
  it('frames are clipped to the logical screen, as Firefox draws them; one wholly outside is empty', () => {
    const header = gif(craftGif({ width: 10, height: 8, frames: [{ width: 10, height: 8 }, { left: 6, top: 4, width: 10, height: 10 }, { left: 20, top: 20, width: 3, height: 3 }] }));
    expect(frames(header).map(({ left, top, width, height }) => [left, top, width, height])).toEqual([[0, 0, 10, 8], [6, 4, 4, 4], [10, 8, 0, 0]]);
  });

  it('graphic control extensions: delay, disposal and transparent index belong to the next frame only', () => {
    const header = gif(craftGif({ width: 4, height: 4, loopCount: 0, frames: [{ width: 4, height: 4, delayCs: 7, disposal: 2, transparentIndex: 3 }, { width: 4, height: 4 }] }));
    expect(frames(header)).toEqual([
      { left: 0, top: 0, width: 4, height: 4, interlaced: false, delayCs: 7, disposal: 2, transparentIndex: 3 },
      { left: 0, top: 0, width: 4, height: 4, interlaced: false, delayCs: 0, disposal: 0, transparentIndex: null },
    ]);
    expect(header.gif.loopCount).toBe(0);
    expect(header.hasAlpha).toBe(true);
  });

  it('hasAlpha: a first frame short of the screen leaves it transparent; a frame cleared to the background before the next', () => {
    expect(gif(craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }] })).hasAlpha).toBe(false);
    expect(gif(craftGif({ width: 4, height: 4, frames: [{ left: 1, width: 3, height: 4 }] })).hasAlpha).toBe(true);
    expect(gif(craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4, disposal: 2 }, { width: 4, height: 4 }] })).hasAlpha).toBe(true);
    expect(gif(craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }, { width: 4, height: 4, disposal: 2 }] })).hasAlpha).toBe(false);
  });

  it('comments and unknown extensions are skipped by their sub-blocks, however long', () => {
    const header = gif(craftGif({ width: 4, height: 4, comment: 'x'.repeat(10_000), frames: [{ width: 4, height: 4 }] }));
    expect(header.gif.frameCount).toBe(1);
  });

  it('a 65535x65535 logical screen is refused 413 image_too_large from the header', async () => {
    const bytes = craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] });
    const error = await refusal(bytes, false);
    expect(error.code).toBe('image_too_large');
    expect(error.message).toMatch(/65535x65535/);
    // Truncated before its first frame, it is still named as a bomb first.
    expect((await refusal(bytes.subarray(0, 20), false)).code).toBe('image_too_large');
  });

  it(`10,000 one-pixel frames on 100x100 (100 MP of frames) are refused 413 when every frame is kept, past ${MAX_FRAME_PIXELS / 1e6} MP`, async () => {
    const bytes = tinyFrames(100, 100, 10_000);
    expect(gif(bytes).gif.frameCount).toBe(10_000);
    const kept = await refusal(bytes, true);
    expect(kept.code).toBe('image_too_large');
    expect(kept.message).toMatch(/^The GIF has 10000 frames of 100x100 \(100 MP in all\); the limit is 50 MP of frames/);
    // Only the first frame made: the cap does not apply (decisions.md).
    expect(() => refuseGifFrames(gif(bytes), false)).not.toThrow();
    // 5,000 such frames are exactly 50 MP: under the cap.
    expect(() => refuseGifFrames(gif(tinyFrames(100, 100, 5_000)), true)).not.toThrow();
  });

  it.each([
    ['no trailer', craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }], noTrailer: true })],
    ['cut inside the image data', craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }] }).subarray(0, 30)],
    ['cut inside the screen colour table', craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }] }).subarray(0, 15)],
  ])('%s: truncated, refused as other formats are', async (_, bytes) => {
    expect(gif(bytes).complete).toBe(false);
    expect((await refusal(bytes, false)).message).toBe('The GIF data is truncated: the file ends before the image does.');
  });

  it.each([
    ['a 0x4 screen', craftGif({ width: 0, height: 4, frames: [{ width: 4, height: 4 }] }), /logical screen is 0x4/],
    ['no image', craftGif({ width: 4, height: 4, frames: [] }), /it has no image/],
    ['no colour table', craftGif({ width: 4, height: 4, palette: new Uint8Array(0), frames: [{ width: 4, height: 4 }] }), /frame 1 has no colour table/],
    ['an unknown block', Uint8Array.from([...craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }] }).subarray(0, -1), 0x42, 0x3b]), /unknown block 0x42/],
  ])('%s: corrupt', async (_, bytes, message) => {
    const error = await expectUnsupported(() => readInputHeader(bytes));
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^The GIF data is corrupt/);
  });

  it('an LZW code size past 8 is corrupt', async () => {
    const bytes = craftGif({ width: 4, height: 4, frames: [{ width: 4, height: 4 }] });
    bytes[13 + 12 + 10] = 12; // the code size after the 4-entry screen table and the image descriptor
    expect((await expectUnsupported(() => readInputHeader(bytes))).message).toMatch(/LZW code size of 12/);
  });
});
