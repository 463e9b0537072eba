import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u16be } from '../bytes';
import { walkJpeg } from '../container/jpeg-segments';
import { baseHeader } from './header-defaults';
import { effectiveQuality, readQuantTables } from './jpeg-tables';
import { MAX_JPEG_SCANS } from '../../limits/cpu';

/** The SOS marker code: the walker keeps each scan from its SOS marker on. */
const SOS = 0xda;
/** Blocks an interleaved scan's MCU may hold (T.81 B.2.3; libjpeg's C_MAX_BLOCKS_IN_MCU). */
const MAX_BLOCKS_IN_MCU = 10;

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
  let frameIds: number[] = [];
  let tableSlots: number[] = [];
  for (const { marker, data } of segments) {
    const kind = frameKind(marker);
    if (kind === 'unsupported') throw new ApiError('unsupported_image', 'Lossless and hierarchical JPEG are not supported.');
    if (kind) {
      header = readFrame(data, kind);
      frameIds = header.sampling.map((_, i) => data[6 + 3 * i]!);
      tableSlots = header.sampling.map((_, i) => data[8 + 3 * i]!);
    }
  }
  if (!header) throw corrupt('a scan comes before the frame header');
  const sosHeaders = scans.flatMap((part) => ('raw' in part && part.raw[1] === SOS ? [part.raw] : []));
  if (sosHeaders.length > MAX_JPEG_SCANS) {
    throw new ApiError(
      'unsupported_image',
      `The JPEG has ${sosHeaders.length} scans; the service decodes at most ${MAX_JPEG_SCANS} (encoders write 1 to about 20).`,
    );
  }
  const work = scanWork(header, frameIds, sosHeaders);
  // libjpeg buffers the whole image's coefficients when the first scan leaves components out (jdinput.c).
  const coefficientsBuffered = header.progressive || (work.firstScanComponents ?? header.sampling.length) < header.sampling.length;
  const tables = readQuantTables(segments, scans, tableSlots);
  // A fourth component is CMYK or YCCK, which the engine turns into RGB rather than keeping. The re-coding's
  // progressive DC scans interleave every component: libjpeg takes at most 10 blocks an MCU (T.81 B.2.3).
  const mcuBlocks = header.sampling.reduce((n, c) => n + c.h * c.v, 0);
  const recodable = tables.definedOnce && header.sampling.length !== 4 && (header.sampling.length === 1 || mcuBlocks <= MAX_BLOCKS_IN_MCU);
  return {
    ...header,
    coefficientsBuffered,
    scans: sosHeaders.length,
    scanBlocks: work.blocks,
    refinedCoefficients: work.refined,
    steps: tables.components.map((table) => table ?? []),
    quality: effectiveQuality(tables.components),
    recodable,
    complete,
  };
}

/**
 * What the scans make the decoder visit (T.81 B.2.3, A.2): a scan of one component visits that component's
 * blocks, an interleaved scan every block of its components' MCUs; an AC refinement scan (Ah > 0) visits
 * every coefficient of its band in each block. A cut scan header counts as what it names, if it names it.
 */
function scanWork(header: ImageHeader, frameIds: number[], sosHeaders: Uint8Array[]): { blocks: number; refined: number; firstScanComponents?: number } {
  const hmax = Math.max(...header.sampling.map((c) => c.h));
  const vmax = Math.max(...header.sampling.map((c) => c.v));
  const mcus = Math.ceil(header.width / (8 * hmax)) * Math.ceil(header.height / (8 * vmax));
  const ownBlocks = header.sampling.map(
    ({ h, v }) => Math.ceil(Math.ceil((header.width * h) / hmax) / 8) * Math.ceil(Math.ceil((header.height * v) / vmax) / 8),
  );
  let blocks = 0;
  let refined = 0;
  for (const sos of sosHeaders) {
    // FF DA, length, Ns, Ns x (component id, tables), Ss, Se, Ah/Al.
    const count = sos[4] ?? 0;
    if (sos.length < 8 + 2 * count) continue;
    const components = Array.from({ length: count }, (_, i) => frameIds.indexOf(sos[5 + 2 * i]!)).filter((c) => c >= 0);
    const scanBlocks = components.length === 1 ? ownBlocks[components[0]!]! : mcus * components.reduce((n, c) => n + header.sampling[c]!.h * header.sampling[c]!.v, 0);
    const [ss, se, ahAl] = [sos[5 + 2 * count]!, sos[6 + 2 * count]!, sos[7 + 2 * count]!];
    blocks += scanBlocks;
    if (ahAl >> 4 > 0 && ss > 0 && se >= ss) refined += scanBlocks * (se - ss + 1);
  }
  return { blocks, refined, firstScanComponents: sosHeaders[0]?.[4] };
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
