import { ApiError } from '../../errors/api-error';
import type { GifFrame, GifHeader, GifImage } from '../types';
import { ascii, u16le } from '../bytes';
import { baseHeader } from './header-defaults';

const IMAGE = 0x2c;
const EXTENSION = 0x21;
const TRAILER = 0x3b;
const GRAPHIC_CONTROL = 0xf9;
const APPLICATION = 0xff;
/** Fields a frame packs (FRAME_FIELDS u16 each): left, top, width, height (clipped to the screen), delay, flags, transparent index. */
const FRAME_FIELDS = 7;
const INTERLACED = 1 << 3;
const TRANSPARENT = 1 << 4;
const DISPOSAL = 0b111;

/** Disposal 2, "restore to background": browsers clear the frame's rectangle to transparent. */
export const DISPOSE_TO_BACKGROUND = 2;

export const isGif = (b: Uint8Array) => b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a');

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The GIF data is corrupt: ${why}.`);
}

/** Frame `i` of a walked GIF (its fields are packed: a 10 MB file may hold half a million one-pixel frames). */
export function gifFrame(gif: GifImage, i: number): GifFrame {
  const f = gif.frames.subarray(i * FRAME_FIELDS, (i + 1) * FRAME_FIELDS);
  return {
    left: f[0]!,
    top: f[1]!,
    width: f[2]!,
    height: f[3]!,
    delayCs: f[4]!,
    disposal: f[5]! & DISPOSAL,
    interlaced: (f[5]! & INTERLACED) !== 0,
    transparentIndex: f[5]! & TRANSPARENT ? f[6]! : null,
  };
}

/** The frames' packed fields, grown by doubling as the walk finds them. */
class FrameList {
  fields = new Uint16Array(16 * FRAME_FIELDS);
  count = 0;
  push(values: number[]): void {
    if ((this.count + 1) * FRAME_FIELDS > this.fields.length) {
      const grown = new Uint16Array(this.fields.length * 2);
      grown.set(this.fields);
      this.fields = grown;
    }
    this.fields.set(values, this.count++ * FRAME_FIELDS);
  }
}

/**
 * Walks a GIF (87a or 89a) to its trailer without decoding: the logical screen and its colour table, then each
 * block: image descriptors (rectangle, local table, interlace), graphic control extensions (delay, disposal,
 * transparent index), the NETSCAPE2.0 loop count; comments and other extensions are skipped by their sub-blocks'
 * lengths. A frame's rectangle is clipped to the screen, as Firefox and giflib-based viewers draw it. The data
 * ending before the trailer leaves `complete` false, as other formats' truncation does.
 */
export function readGifHeader(b: Uint8Array): GifHeader {
  if (b.length < 13) throw corrupt('the logical screen descriptor is cut short');
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  if (width === 0 || height === 0) throw corrupt(`its logical screen is ${width}x${height}`);
  const screenFlags = b[10]!;
  const globalColours = screenFlags & 0x80 ? 2 << (screenFlags & 7) : 0;
  const frames = new FrameList();
  let loopCount: number | null = null;
  let control: { delayCs: number; disposal: number; transparentIndex: number | null } | null = null;
  let complete = false;
  let firstDecodedPixels = 0;
  let decodedPixels = 0;
  let at = 13 + 3 * globalColours;
  /** Skips sub-blocks from `at` to their terminator; false when the data ends first. */
  const skipSubBlocks = (): boolean => {
    while (at < b.length) {
      const length = b[at]!;
      at += 1 + length;
      if (length === 0) return true;
    }
    return false;
  };
  while (at < b.length) {
    const block = b[at]!;
    if (block === TRAILER) {
      complete = true;
      break;
    }
    if (block === EXTENSION) {
      if (at + 2 > b.length) break;
      const label = b[at + 1]!;
      const body = at + 2;
      at = body;
      if (label === GRAPHIC_CONTROL && body + 6 <= b.length && b[body] === 4) {
        const flags = b[body + 1]!;
        control = { delayCs: u16le(b, body + 2), disposal: (flags >> 2) & DISPOSAL, transparentIndex: flags & 1 ? b[body + 4]! : null };
      } else if (label === APPLICATION && body + 12 <= b.length && b[body] === 11) {
        const name = ascii(b, body + 1, 11);
        const data = body + 12;
        if ((name === 'NETSCAPE2.0' || name === 'ANIMEXTS1.0') && data + 4 <= b.length && b[data] === 3 && b[data + 1] === 1) loopCount = u16le(b, data + 2);
      }
      if (!skipSubBlocks()) break;
      continue;
    }
    if (block !== IMAGE) throw corrupt(`an unknown block 0x${block.toString(16).padStart(2, '0')} at byte ${at}`);
    if (at + 10 > b.length) break;
    const left = u16le(b, at + 1);
    const top = u16le(b, at + 3);
    const frameWidth = Math.max(0, Math.min(u16le(b, at + 5), width - left));
    const frameHeight = Math.max(0, Math.min(u16le(b, at + 7), height - top));
    const frameFlags = b[at + 9]!;
    // The decoder reads the first frame's rows down to the screen's last, all of them when interlaced, each whole.
    decodedPixels += u16le(b, at + 5) * u16le(b, at + 7);
    if (frames.count === 0) firstDecodedPixels = u16le(b, at + 5) * (frameFlags & 0x40 ? u16le(b, at + 7) : Math.min(u16le(b, at + 7), height - Math.min(top, height)));
    const localColours = frameFlags & 0x80 ? 2 << (frameFlags & 7) : 0;
    if (!localColours && !globalColours) throw corrupt(`frame ${frames.count + 1} has no colour table`);
    at += 10 + 3 * localColours;
    if (at >= b.length) break;
    const codeSize = b[at]!;
    if (codeSize < 2 || codeSize > 8) throw corrupt(`frame ${frames.count + 1} has an LZW code size of ${codeSize}`);
    at += 1;
    const c = control ?? { delayCs: 0, disposal: 0, transparentIndex: null };
    const flags = c.disposal | (frameFlags & 0x40 ? INTERLACED : 0) | (c.transparentIndex === null ? 0 : TRANSPARENT);
    frames.push([Math.min(left, width), Math.min(top, height), frameWidth, frameHeight, c.delayCs, flags, c.transparentIndex ?? 0]);
    control = null;
    if (!skipSubBlocks()) break;
  }
  // Truncated before any frame: refused as truncated once the screen's size has been checked (a bomb is named as one).
  if (frames.count === 0 && complete) throw corrupt('it has no image');
  const gif: GifImage = { frames: frames.fields.subarray(0, frames.count * FRAME_FIELDS), frameCount: frames.count, loopCount, globalColours, firstDecodedPixels, decodedPixels };
  const first = frames.count ? gifFrame(gif, 0) : null;
  let transparent = !(first && first.left === 0 && first.top === 0 && first.width === width && first.height === height);
  for (let i = 0; i < frames.count && !transparent; i++) {
    const frame = gifFrame(gif, i);
    transparent = frame.transparentIndex !== null || (frame.disposal === DISPOSE_TO_BACKGROUND && i + 1 < frames.count);
  }
  return {
    ...baseHeader('gif', width, height),
    hasAlpha: transparent,
    animated: frames.count > 1,
    interlaced: first?.interlaced ?? false,
    fileBytes: b.length,
    complete,
    gif,
  };
}
