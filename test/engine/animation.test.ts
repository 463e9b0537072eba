import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { isGifHeader, type GifHeader, type OutputSpec } from '../../src/image/types';
import { composeFrames, readAnimatedWebp } from '../helpers/animated-webp';
import { fixture } from '../helpers/fixtures';
import { craftGif } from '../helpers/gif';
import { checkJob } from '../helpers/model-cases';
import { freshEngine } from './helpers';

const engine = freshEngine();

function gifHeader(input: Uint8Array): GifHeader {
  const header = readHeader(input);
  if (!isGifHeader(header)) throw new Error('read as a GIF');
  return header;
}

const animatedSpec = (header: GifHeader, out: Partial<OutputSpec> = {}): OutputSpec => ({ format: 'webp', quality: 90, width: header.width, height: header.height, animated: true, ...out });

/** The largest difference of any sample between two RGBA images, alpha included; colour only where both are visible. */
function rgbaDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let most = 0;
  for (let i = 0; i < a.length; i += 4) {
    most = Math.max(most, Math.abs(a[i + 3]! - b[i + 3]!));
    if (a[i + 3]! > 0 && b[i + 3]! > 0) for (let c = 0; c < 3; c++) most = Math.max(most, Math.abs(a[i + c]! - b[i + c]!));
  }
  return most;
}

/** Mean absolute difference of the colour samples where both are opaque. */
function meanDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i + 3]! < 255 || b[i + 3]! < 255) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c]! - b[i + c]!);
    n += 3;
  }
  return n ? sum / n : 0;
}

describe('animated GIF to animated WebP', () => {
  it('keeps every frame, its timing and the loop count (NETSCAPE 3 repeats: 4 plays)', async () => {
    const input = await fixture('gif/animated.gif');
    const header = gifHeader(input);
    const webp = readAnimatedWebp(await engine.transcode(input, header, animatedSpec(header)));
    expect(webp).toMatchObject({ width: 96, height: 64, loopCount: 4 });
    expect(webp.frames.map((f) => f.durationMs)).toEqual([200, 200, 200, 200]);
  });

  it("draws disposal 2 and 3, transparency, offsets and interlacing as gif2webp does (its lossless frames, decoded by libwebp)", async () => {
    const input = await fixture('gif/dispose.gif');
    const header = gifHeader(input);
    const ours = readAnimatedWebp(await engine.transcode(input, header, animatedSpec(header, { quality: 100 })));
    const reference = readAnimatedWebp(await fixture('gif/dispose.gif2webp.webp'));
    expect(ours.loopCount).toBe(0);
    expect(ours.frames.map((f) => f.durationMs)).toEqual([100, 150, 50, 200]);
    const [got, want] = [await composeFrames(ours), await composeFrames(reference)];
    expect(got).toHaveLength(4);
    for (let i = 0; i < 4; i++) {
      // Lossy frames: alpha exact where it matters (transparent stays transparent), colour near.
      expect(meanDifference(got[i]!, want[i]!), `frame ${i}`).toBeLessThan(4);
      const alpha = (p: Uint8ClampedArray) => p.filter((_, k) => k % 4 === 3);
      expect(alpha(got[i]!), `frame ${i}`).toEqual(alpha(want[i]!));
    }
  });

  it('composes what the GIF89a rules say, pixel for pixel on flat colours: a cleared rectangle is transparent, a restored one as before', async () => {
    // Greys (no chroma to lose), a 16x16 screen: a full frame of grey 1, then index 0 (transparent) holes over a patch.
    const palette = Uint8Array.from([0, 0, 0, 80, 80, 80, 160, 160, 160, 240, 240, 240]);
    const full = (index: number) => new Uint8Array(16 * 16).fill(index);
    const input = craftGif({
      width: 16,
      height: 16,
      palette,
      loopCount: 0,
      frames: [
        { width: 16, height: 16, indices: full(1), delayCs: 3 },
        { left: 8, top: 8, width: 8, height: 8, indices: new Uint8Array(64).fill(2), disposal: 2, delayCs: 4 },
        { left: 0, top: 0, width: 8, height: 8, indices: new Uint8Array(64).fill(3), disposal: 3, delayCs: 5 },
        { left: 0, top: 8, width: 8, height: 8, indices: new Uint8Array(64).fill(0), transparentIndex: 0, delayCs: 6 },
      ],
    });
    const header = gifHeader(input);
    const webp = readAnimatedWebp(await engine.transcode(input, header, animatedSpec(header, { quality: 100 })));
    expect(webp.frames.map((f) => f.durationMs)).toEqual([30, 40, 50, 60]);
    const frames = await composeFrames(webp);
    const at = (f: number, x: number, y: number) => Array.from(frames[f]!.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4));
    const near = (got: number[], want: number[]) => expect(Math.max(...got.map((v, i) => Math.abs(v - want[i]!)))).toBeLessThanOrEqual(3);
    near(at(0, 12, 12), [80, 80, 80, 255]);
    near(at(1, 12, 12), [160, 160, 160, 255]);
    near(at(1, 2, 2), [80, 80, 80, 255]);
    // Frame 1 was cleared to transparent; frame 2 shows over grey 1.
    expect(at(2, 12, 12)[3]).toBe(0);
    near(at(2, 2, 2), [240, 240, 240, 255]);
    // Frame 2 restored to what was under it; frame 3's transparent pixels leave the canvas as it was.
    near(at(3, 2, 2), [80, 80, 80, 255]);
    near(at(3, 2, 12), [80, 80, 80, 255]);
    expect(at(3, 12, 12)[3]).toBe(0);
  });

  it('applies the geometry to every frame: resized, the same canvas for all', async () => {
    const input = await fixture('gif/dispose.gif');
    const header = gifHeader(input);
    const webp = readAnimatedWebp(await engine.transcode(input, header, animatedSpec(header, { width: 48, height: 32 })));
    expect(webp).toMatchObject({ width: 48, height: 32 });
    expect(webp.frames).toHaveLength(4);
    for (const frame of webp.frames) expect(frame.x + frame.width <= 48 && frame.y + frame.height <= 32).toBe(true);
    const reference = await composeFrames(readAnimatedWebp(await fixture('gif/dispose.gif2webp.webp')));
    const frames = await composeFrames(webp);
    // Frame 3 at half size against the reference's, sampled every other pixel: near, not exact (resampled).
    const half = new Uint8ClampedArray(48 * 32 * 4);
    for (let y = 0; y < 32; y++) for (let x = 0; x < 48; x++) half.set(reference[3]!.subarray(((2 * y) * 96 + 2 * x) * 4, ((2 * y) * 96 + 2 * x) * 4 + 4), (y * 48 + x) * 4);
    expect(meanDifference(frames[3]!, half)).toBeLessThan(20);
    expect(rgbaDifference(frames[0]!, frames[0]!)).toBe(0);
  });

  it('maps loop counts: none is one play, 0 forever, n repeats n + 1 plays, 65535 repeats at most 65535 plays', async () => {
    for (const [loopCount, plays] of [[undefined, 1], [0, 0], [1, 2], [65535, 65535]] as const) {
      const input = craftGif({ width: 4, height: 4, loopCount, frames: [{ width: 4, height: 4, delayCs: 1 }, { width: 2, height: 2, indices: new Uint8Array(4).fill(1), delayCs: 1 }] });
      const header = gifHeader(input);
      expect(readAnimatedWebp(await engine.transcode(input, header, animatedSpec(header))).loopCount, `loop ${loopCount}`).toBe(plays);
    }
  });

  it('the memory and CPU models hold on animations: measured <= predicted', async () => {
    for (const name of ['gif/animated.gif', 'gif/dispose.gif']) {
      const input = await fixture(name);
      const header = gifHeader(input);
      for (const size of [1, 0.5, 2]) {
        await checkJob(engine, input, animatedSpec(header, { width: Math.round(header.width * size), height: Math.round(header.height * size) }), `${name} x${size}`);
        const job = engine.lastJob();
        expect(job.workMs, `${name} x${size}`).toBeLessThanOrEqual(job.predictedMs);
      }
    }
  });
});
