import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u16be } from '../bytes';
import { baseHeader } from './header-defaults';

const SOI_LENGTH = 2;
const EOI = 0xd9;
const SOS = 0xda;

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The JPEG data is corrupt: ${why}.`);
}

/** Frame markers (ITU T.81 table B.1) and what they say about the coding process. */
function frameKind(marker: number): { progressive: boolean; arithmetic: boolean } | 'unsupported' | null {
  switch (marker) {
    case 0xc0:
    case 0xc1:
      return { progressive: false, arithmetic: false };
    case 0xc2:
      return { progressive: true, arithmetic: false };
    case 0xc9:
      return { progressive: false, arithmetic: true };
    case 0xca:
      return { progressive: true, arithmetic: true };
    case 0xc3: // lossless
    case 0xc5: // differential (hierarchical) processes
    case 0xc6:
    case 0xc7:
    case 0xcb:
    case 0xcd:
    case 0xce:
    case 0xcf:
      return 'unsupported';
    default:
      return null;
  }
}

/**
 * Reads the frame header of a JPEG without decoding: dimensions, process, components and sampling.
 * Walks marker segments up to the first scan, then looks for the end-of-image marker, so that a
 * truncated file is refused rather than decoded into grey.
 */
export function readJpegHeader(b: Uint8Array): ImageHeader {
  let at = SOI_LENGTH;
  let header: ImageHeader | undefined;
  while (at < b.length) {
    if (b[at] !== 0xff) throw corrupt(`expected a marker at byte ${at}`);
    while (b[at] === 0xff) at++; // fill bytes (T.81 B.1.1.2)
    const marker = b[at++];
    if (marker === undefined) break;
    if (marker === EOI) throw corrupt('the image ends before any scan');
    if (marker >= 0xd0 && marker <= 0xd7) continue; // RSTn carry no length
    if (at + 2 > b.length) throw corrupt('a segment runs past the end');
    const length = u16be(b, at);
    if (length < 2 || at + length > b.length) throw corrupt('a segment runs past the end');
    const kind = frameKind(marker);
    if (kind === 'unsupported') {
      throw new ApiError('unsupported_image', 'Lossless and hierarchical JPEG are not supported.');
    }
    if (kind) header = readFrame(b, at, length, kind);
    if (marker === SOS) {
      if (!header) throw corrupt('a scan comes before the frame header');
      // libjpeg buffers the whole image's coefficients when the first scan leaves components out (jdinput.c).
      const firstScanComponents = b[at + 2]!;
      const coefficientsBuffered = header.progressive || firstScanComponents < header.sampling.length;
      return { ...header, coefficientsBuffered, complete: hasEndOfImage(b, at + length) };
    }
    at += length;
  }
  throw corrupt('the file is truncated before the first scan');
}

function readFrame(
  b: Uint8Array,
  at: number,
  length: number,
  kind: { progressive: boolean; arithmetic: boolean },
): ImageHeader {
  if (length < 8) throw corrupt('the frame header is malformed');
  if (b[at + 2] !== 8) throw new ApiError('unsupported_image', 'Only 8-bit JPEG is supported.');
  const height = u16be(b, at + 3);
  const width = u16be(b, at + 5);
  const components = b[at + 7]!;
  if (length < 8 + 3 * components || (components !== 1 && components !== 3 && components !== 4)) {
    throw corrupt('the frame header is malformed');
  }
  if (width === 0 || height === 0) throw corrupt('the frame has no size');
  const sampling = Array.from({ length: components }, (_, i) => ({ h: b[at + 9 + 3 * i]! >> 4, v: b[at + 9 + 3 * i]! & 15 }));
  // T.81 B.2.2: each factor is 1 to 4.
  if (sampling.some(({ h, v }) => h < 1 || h > 4 || v < 1 || v > 4)) throw corrupt('a sampling factor is out of range');
  return { ...baseHeader('jpeg', width, height), ...kind, grey: components === 1, sampling };
}

/** In entropy-coded data 0xFF is always followed by 0x00 or RSTn, so FF D9 is the real end of image. */
function hasEndOfImage(b: Uint8Array, from: number): boolean {
  for (let i = b.indexOf(0xff, from); i !== -1 && i + 1 < b.length; i = b.indexOf(0xff, i + 1)) {
    if (b[i + 1] === EOI) return true;
  }
  return false;
}
