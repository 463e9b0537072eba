import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u16be } from '../bytes';
import { walkJpeg } from '../container/jpeg-segments';
import { baseHeader } from './header-defaults';

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
 * Reads the frame header of a JPEG without decoding: dimensions, process, components and sampling,
 * and whether the decoder will hold every coefficient. The walker (container/jpeg-segments.ts) finds
 * the segments up to the first scan and follows the scans to the end-of-image marker, so that a
 * truncated file is refused rather than decoded into grey.
 */
export function readJpegHeader(b: Uint8Array): ImageHeader {
  const { segments, scans, complete } = walkJpeg(b);
  let header: ImageHeader | undefined;
  for (const { marker, data } of segments) {
    const kind = frameKind(marker);
    if (kind === 'unsupported') throw new ApiError('unsupported_image', 'Lossless and hierarchical JPEG are not supported.');
    if (kind) header = readFrame(data, kind);
  }
  if (!header) throw corrupt('a scan comes before the frame header');
  // The first scan's SOS: FF DA, its length, then the number of components it carries.
  const firstScan = scans[0];
  const firstScanComponents = firstScan && 'raw' in firstScan && firstScan.raw.length > 4 ? firstScan.raw[4]! : header.sampling.length;
  // libjpeg buffers the whole image's coefficients when the first scan leaves components out (jdinput.c).
  const coefficientsBuffered = header.progressive || firstScanComponents < header.sampling.length;
  return { ...header, coefficientsBuffered, complete };
}

/** SOFn payload (T.81 B.2.2): precision, height, width, then per component its id, sampling and table. */
function readFrame(data: Uint8Array, kind: { progressive: boolean; arithmetic: boolean }): ImageHeader {
  if (data.length < 6) throw corrupt('the frame header is malformed');
  if (data[0] !== 8) throw new ApiError('unsupported_image', 'Only 8-bit JPEG is supported.');
  const height = u16be(data, 1);
  const width = u16be(data, 3);
  const components = data[5]!;
  if (data.length < 6 + 3 * components || (components !== 1 && components !== 3 && components !== 4)) {
    throw corrupt('the frame header is malformed');
  }
  if (width === 0 || height === 0) throw corrupt('the frame has no size');
  const sampling = Array.from({ length: components }, (_, i) => ({ h: data[7 + 3 * i]! >> 4, v: data[7 + 3 * i]! & 15 }));
  // T.81 B.2.2: each factor is 1 to 4.
  if (sampling.some(({ h, v }) => h < 1 || h > 4 || v < 1 || v > 4)) throw corrupt('a sampling factor is out of range');
  return { ...baseHeader('jpeg', width, height), ...kind, grey: components === 1, sampling };
}
