import { cat, text } from '../container/synth';

/**
 * GIFs assembled in the test, block by block, independent of the walker they test. The image data is LZW with
 * 8-bit codes and a clear code before the table would grow past 9 bits, as "uncompressed GIF" writers do: valid
 * for any decoder, and the pixels are exactly the indices given.
 */

export interface CraftedFrame {
  left?: number;
  top?: number;
  width: number;
  height: number;
  /** Palette indices, row by row in display order (an interlaced frame's rows are written in its passes' order). */
  indices?: Uint8Array;
  interlaced?: boolean;
  localPalette?: Uint8Array;
  /** A graphic control extension when any of these is given. */
  delayCs?: number;
  disposal?: number;
  transparentIndex?: number;
  /** LZW data (code size 8) in place of `indices`'. */
  data?: Uint8Array;
}

export interface CraftedGif {
  width: number;
  height: number;
  /** RGB triples; its length must be 3 x a power of two (2 to 256 entries). */
  palette?: Uint8Array;
  frames: CraftedFrame[];
  loopCount?: number;
  comment?: string;
  version?: '87a' | '89a';
  /** Leave the trailer off. */
  noTrailer?: boolean;
}

const u16 = (n: number) => new Uint8Array([n & 0xff, n >> 8]);

/** Data in sub-blocks of at most 255 bytes, then the terminator. */
export function subBlocks(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const piece = data.subarray(at, at + 255);
    parts.push(new Uint8Array([piece.length]), piece);
  }
  return cat(...parts, new Uint8Array([0]));
}

/** 9-bit codes, packed as GIF packs them (least significant bit first). */
export function lzwCodes(codes: number[]): Uint8Array {
  const out: number[] = [];
  let bits = 0;
  let nbits = 0;
  for (const code of codes) {
    bits |= code << nbits;
    nbits += 9;
    while (nbits >= 8) {
      out.push(bits & 0xff);
      bits >>>= 8;
      nbits -= 8;
    }
  }
  if (nbits > 0) out.push(bits & 0xff);
  return Uint8Array.from(out);
}

export const LZW_CLEAR = 256;
const LZW_END = 257;

/** The indices as LZW with a code size of 8: each index a literal 9-bit code, a clear code every 254. */
export function lzw(indices: Uint8Array): Uint8Array {
  const codes = [LZW_CLEAR];
  indices.forEach((index, i) => {
    if (i > 0 && i % 254 === 0) codes.push(LZW_CLEAR);
    codes.push(index);
  });
  codes.push(LZW_END);
  return lzwCodes(codes);
}

/** Rows in the order an interlaced GIF stores them: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function passOrder(indices: Uint8Array, width: number, height: number): Uint8Array {
  const rows: Uint8Array[] = [];
  for (const [y0, dy] of [[0, 8], [4, 8], [2, 4], [1, 2]] as const) {
    for (let y = y0; y < height; y += dy) rows.push(indices.subarray(y * width, (y + 1) * width));
  }
  return cat(...rows);
}

const tableBits = (palette: Uint8Array) => Math.log2(palette.length / 3) - 1;

/** A grey ramp of `n` entries (a power of two). */
export const greyPalette = (n: number) => Uint8Array.from({ length: n * 3 }, (_, i) => Math.floor(i / 3) * (255 / (n - 1)));

export function craftGif(gif: CraftedGif): Uint8Array {
  const palette = gif.palette ?? greyPalette(4);
  const parts = [
    text(`GIF${gif.version ?? '89a'}`),
    u16(gif.width),
    u16(gif.height),
    new Uint8Array([palette.length ? 0x80 | tableBits(palette) : 0, 0, 0]),
    palette,
  ];
  if (gif.loopCount !== undefined) {
    parts.push(new Uint8Array([0x21, 0xff, 11]), text('NETSCAPE2.0'), new Uint8Array([3, 1]), u16(gif.loopCount), new Uint8Array([0]));
  }
  if (gif.comment !== undefined) parts.push(new Uint8Array([0x21, 0xfe]), subBlocks(text(gif.comment)));
  for (const frame of gif.frames) {
    if (frame.delayCs !== undefined || frame.disposal !== undefined || frame.transparentIndex !== undefined) {
      const flags = ((frame.disposal ?? 0) << 2) | (frame.transparentIndex === undefined ? 0 : 1);
      parts.push(new Uint8Array([0x21, 0xf9, 4, flags]), u16(frame.delayCs ?? 0), new Uint8Array([frame.transparentIndex ?? 0, 0]));
    }
    const local = frame.localPalette;
    const flags = (local ? 0x80 | tableBits(local) : 0) | (frame.interlaced ? 0x40 : 0);
    parts.push(new Uint8Array([0x2c]), u16(frame.left ?? 0), u16(frame.top ?? 0), u16(frame.width), u16(frame.height), new Uint8Array([flags]));
    if (local) parts.push(local);
    const indices = frame.indices ?? new Uint8Array(frame.width * frame.height);
    parts.push(new Uint8Array([8]), subBlocks(frame.data ?? lzw(frame.interlaced && frame.indices ? passOrder(indices, frame.width, frame.height) : indices)));
  }
  if (!gif.noTrailer) parts.push(new Uint8Array([0x3b]));
  return cat(...parts);
}

/** `count` frames of one pixel on a `width` x `height` screen, in few bytes each (the frame-area bomb). */
export function tinyFrames(width: number, height: number, count: number): Uint8Array {
  return craftGif({ width, height, frames: Array.from({ length: count }, (_, i) => ({ left: i % width, top: 0, width: 1, height: 1, delayCs: 2 })) });
}
