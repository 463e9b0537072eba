import { SqueezeError } from './errors.js';
import type { ImageFormat } from './types.js';

/** The API's limit for an upload or base64 image on /v1/compress: 10 MB, 1 MB being 1,048,576 bytes. */
export const MAX_UPLOAD_BYTES = 10 * 1_048_576;

/** Reads bytes [start, end) of the input, or fewer when the input (or what is known of it) ends first. */
export type ReadAt = (start: number, end: number) => Promise<Uint8Array>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
/** Chunks walked before giving up looking for an animation marker: the API walks them all anyway. */
const MAX_CHUNKS = 256;

/** An AVIF by its ftyp box: the avif brand, major or compatible (a HEIC has others, and the API does not decode it yet). */
function isAvif(head: Uint8Array): boolean {
  if (head.length < 16 || ascii(head, 4, 4) !== 'ftyp') return false;
  const size = Math.min(head.length, u32be(head, 0));
  for (let at = 8; at + 4 <= size; at += at === 8 ? 8 : 4) if (ascii(head, at, 4) === 'avif') return true;
  return false;
}

/** How many first bytes sniffFormat needs: an ftyp box's brands. */
const HEAD_BYTES = 64;

/** The format named by the magic bytes (never the file name), or null for anything else. */
export function sniffFormat(head: Uint8Array): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && PNG_SIGNATURE.every((v, i) => head[i] === v)) return 'png';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'webp';
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return 'gif';
  if (isAvif(head)) return 'avif';
  return null;
}

/** APNG: an acTL chunk before the first IDAT. Only chunk headers are read, never the data. */
async function isAnimatedPng(read: ReadAt): Promise<boolean> {
  for (let at = 8, n = 0; n < MAX_CHUNKS; n++) {
    const header = await read(at, at + 8);
    if (header.length < 8) return false;
    const type = ascii(header, 4, 4);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + u32be(header, 0);
  }
  return false;
}

/** Animated WebP: the VP8X animation flag, or an ANIM/ANMF chunk before the bitstream. */
async function isAnimatedWebp(read: ReadAt): Promise<boolean> {
  for (let at = 12, n = 0; n < MAX_CHUNKS; n++) {
    const header = await read(at, at + 9);
    if (header.length < 8) return false;
    const type = ascii(header, 0, 4);
    if (type === 'VP8X') return header.length > 8 && (header[8]! & 0x02) !== 0;
    if (type === 'ANIM' || type === 'ANMF') return true;
    if (type === 'VP8 ' || type === 'VP8L') return false;
    const size = u32le(header, 4);
    at += 8 + size + (size & 1);
  }
  return false;
}

function refuse(code: 'unsupported_image' | 'file_too_large', message: string): SqueezeError {
  return new SqueezeError(code, message, { status: code === 'file_too_large' ? 413 : 400, local: true });
}

export function tooLargeError(size: number): SqueezeError {
  return refuse('file_too_large', `The image is ${size} bytes; the API accepts at most ${MAX_UPLOAD_BYTES} bytes (10 MB).`);
}

/**
 * The checks the API would make first, made here so that a hopeless input costs no request and no
 * rate-limit slot: a JPEG, PNG, WebP, AVIF or GIF by its magic bytes, within the size limit, and not an animated
 * PNG or WebP (an animated GIF's first frame is made by the API, or every frame kept in an animated WebP).
 * `size` is undefined for a stream, whose size is checked while it is sent.
 */
export async function precheckImage(read: ReadAt, size: number | undefined): Promise<ImageFormat> {
  if (size === 0) throw refuse('unsupported_image', 'The image is empty.');
  if (size !== undefined && size > MAX_UPLOAD_BYTES) throw tooLargeError(size);
  const format = sniffFormat(await read(0, HEAD_BYTES));
  if (!format) throw refuse('unsupported_image', 'Not a JPEG, PNG, WebP, AVIF or GIF image (by its first bytes).');
  if ((format === 'png' && (await isAnimatedPng(read))) || (format === 'webp' && (await isAnimatedWebp(read)))) {
    throw refuse('unsupported_image', `Animated ${format.toUpperCase()} images are not supported; send a still image.`);
  }
  return format;
}

/** The pre-checks alone, on bytes or a Blob: the input's format, or a SqueezeError with `local` set. */
export function checkImage(input: Uint8Array | Blob): Promise<ImageFormat> {
  return input instanceof Blob ? precheckImage(readBlob(input), input.size) : precheckImage(readBytes(input), input.length);
}

export const readBytes = (bytes: Uint8Array): ReadAt => async (start, end) => bytes.subarray(start, end);
export const readBlob = (blob: Blob): ReadAt => async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer());
