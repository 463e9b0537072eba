import { encodeWebp, parseWebp, vp8xChunk, VP8X_ALPHA } from '../../src/image/container/webp-chunks';
import { referencePixels } from '../engine/helpers';

/** An animated WebP's frames as its ANMF chunks state them (the WebP container spec, "Animation"). */
export interface WebpFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  durationMs: number;
  /** Dispose to the background (transparent) after it shows. */
  disposeToBackground: boolean;
  /** Alpha-blended onto the canvas (else it replaces what it covers). */
  blend: boolean;
  /** The frame's image chunks (ALPH, VP8 or VP8L), as a still WebP of its rectangle. */
  still: Uint8Array;
}

export interface AnimatedWebp {
  width: number;
  height: number;
  /** ANIM's loop count: plays in all, 0 forever. */
  loopCount: number;
  frames: WebpFrame[];
}

const u24 = (d: Uint8Array, at: number) => d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16);

/** Walks an animated WebP with our own chunk walker; throws when it is not one. */
export function readAnimatedWebp(bytes: Uint8Array): AnimatedWebp {
  const chunks = parseWebp(bytes);
  const vp8x = chunks.find((c) => c.fourcc === 'VP8X');
  const anim = chunks.find((c) => c.fourcc === 'ANIM');
  if (!vp8x || !anim || !(vp8x.data[0]! & 0x02)) throw new Error('not an animated WebP');
  const frames = chunks
    .filter((c) => c.fourcc === 'ANMF')
    .map((c): WebpFrame => {
      const d = c.data;
      const width = u24(d, 6) + 1;
      const height = u24(d, 9) + 1;
      const images = parseFrameChunks(d.subarray(16));
      const still = encodeWebp(images.some((i) => i.fourcc === 'ALPH') ? [vp8xChunk(VP8X_ALPHA, width, height), ...images] : images);
      return { x: u24(d, 0) * 2, y: u24(d, 3) * 2, width, height, durationMs: u24(d, 12), disposeToBackground: (d[15]! & 1) !== 0, blend: (d[15]! & 2) === 0, still };
    });
  return { width: u24(vp8x.data, 4) + 1, height: u24(vp8x.data, 7) + 1, loopCount: anim.data[4]! | (anim.data[5]! << 8), frames };
}

/** The chunks inside an ANMF payload, after its 16-byte frame header. */
function parseFrameChunks(data: Uint8Array): Array<{ fourcc: string; data: Uint8Array }> {
  const out: Array<{ fourcc: string; data: Uint8Array }> = [];
  for (let at = 0; at + 8 <= data.length; ) {
    const fourcc = String.fromCharCode(...data.subarray(at, at + 4));
    const size = data[at + 4]! | (data[at + 5]! << 8) | (data[at + 6]! << 16) | (data[at + 7]! << 24);
    out.push({ fourcc, data: data.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  return out;
}

/**
 * Every frame's canvas as a browser shows it: the canvas starts transparent, each frame decoded by libwebp (a still
 * WebP of its rectangle) and blended or placed on it, then disposed as it says.
 */
export async function composeFrames(webp: AnimatedWebp): Promise<Uint8ClampedArray[]> {
  const canvas = new Uint8ClampedArray(webp.width * webp.height * 4);
  const shown: Uint8ClampedArray[] = [];
  for (const frame of webp.frames) {
    const pixels = await referencePixels(frame.still, 'webp');
    for (let y = 0; y < frame.height; y++) {
      for (let x = 0; x < frame.width; x++) {
        const s = (y * frame.width + x) * 4;
        const d = ((frame.y + y) * webp.width + frame.x + x) * 4;
        const a = pixels[s + 3]! / 255;
        if (!frame.blend || a === 1) canvas.set(pixels.subarray(s, s + 4), d);
        else if (a > 0) {
          const under = canvas[d + 3]! / 255;
          const outA = a + under * (1 - a);
          for (let c = 0; c < 3; c++) canvas[d + c] = (pixels[s + c]! * a + canvas[d + c]! * under * (1 - a)) / outA;
          canvas[d + 3] = outA * 255;
        }
      }
    }
    shown.push(canvas.slice());
    if (frame.disposeToBackground) {
      for (let y = 0; y < frame.height; y++) canvas.fill(0, ((frame.y + y) * webp.width + frame.x) * 4, ((frame.y + y) * webp.width + frame.x + frame.width) * 4);
    }
  }
  return shown;
}
