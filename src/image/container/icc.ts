import type { ImageFormat } from '../types';
import { ascii, asciiBytes, concat, startsWith, runStream, u32be, unsupported } from './bytes';
import { inflateBounded } from './bounded-inflate';
import { chrmProfile } from './chrm-profile';
import { describesColours } from './icc-tags';
import { APP0, APP1, APP2, type JpegSegment, MAX_SEGMENT_PAYLOAD, encodeJpeg, parseJpeg } from './jpeg-segments';
import { type PngChunk, crcMatches, encodeChunk as encodePngChunk, encodePng, parsePng } from './png-chunks';
import {
  type RiffChunk,
  VP8X_ALPHA,
  VP8X_ICC,
  encodeWebp,
  parseWebp,
  bitstreamHeader,
  vp8xChunk,
  vp8xFlags,
  withVp8xFlags,
} from './webp-chunks';

/**
 * ICC colour profiles: reading them from, and writing them into, each container.
 * JPEG: APP2 'ICC_PROFILE\0' segments, each with a 1-based sequence number and the segment count
 * (ICC.1:2022 Annex B.4). PNG: one zlib-compressed iCCP chunk (PNG 3rd edition 11.3.2.3).
 * WebP: an ICCP chunk, announced by the VP8X ICC flag (RFC 9649 2.7.1.4). A PNG without iCCP
 * may describe its primaries in cHRM instead; that becomes a profile too (chrm-profile.ts).
 */

const ICC_ID = asciiBytes('ICC_PROFILE\0');
/** Profile bytes per APP2 segment: the payload limit less the identifier, sequence and count bytes. */
export const ICC_BYTES_PER_SEGMENT = MAX_SEGMENT_PAYLOAD - ICC_ID.length - 2; // 65519
/** The largest profile JPEG can carry (255 segments). */
const MAX_PROFILE = 255 * ICC_BYTES_PER_SEGMENT;
/**
 * Profiles larger than this (once inflated) are dropped, not carried (decisions.md, the isolate
 * budget): real ones are a few KB, rarely 1 MB with lookup tables, and each carried byte is held
 * three times (the profile, the output it is written into, and a PNG's deflated copy).
 */
export const MAX_CARRIED_PROFILE_BYTES = 1_048_576;
const ICC_HEADER = 128;
/**
 * The engine's decoder (libspng) refuses a PNG whose text, EXIF and ICC chunks inflate past this
 * (codecs/src/png-decode.c PNG_CHUNK_CACHE_BYTES): an iCCP that does alone is refused here, before it
 * reaches the engine, its inflating stopped at the cap (issue 35 item 7).
 */
const PNG_CHUNK_CACHE_BYTES = 2 * 1_048_576;

/**
 * The image's ICC profile, or null when it has none or it is malformed: a broken profile is
 * ignored (rendered as sRGB, as browsers do), never fatal. Throws unsupported_image when the
 * container itself is malformed, or a PNG's iCCP inflates past what its decoder would take.
 */
export async function readIccProfile(bytes: Uint8Array, format: ImageFormat): Promise<Uint8Array | null> {
  return (await readIccProfileWork(bytes, format)).profile;
}

/** readIccProfile's profile, and the bytes it handed the inflater (a PNG's iCCP data): work the request is charged for. */
export async function readIccProfileWork(bytes: Uint8Array, format: ImageFormat): Promise<{ profile: Uint8Array | null; inflatedFrom: number }> {
  if (format === 'jpeg') return { profile: checkedProfile(jpegProfile(parseJpeg(bytes).segments)), inflatedFrom: 0 };
  if (format === 'png') {
    const chunks = parsePng(bytes);
    // An iCCP chunk, even a broken one, overrides cHRM (browsers then show a broken one as sRGB).
    if (!chunks.some((c) => c.type === 'iCCP')) return { profile: fitting(pngChrmProfile(chunks), chunks), inflatedFrom: 0 };
    const { profile, inflatedFrom } = await pngProfile(chunks);
    return { profile: fitting(checkedProfile(profile), chunks), inflatedFrom };
  }
  // Like EXIF, ICCP is only defined in the extended (VP8X) format.
  const chunks = parseWebp(bytes);
  if (chunks[0]!.fourcc !== 'VP8X') return { profile: null, inflatedFrom: 0 };
  return { profile: checkedProfile(chunks.find((c) => c.fourcc === 'ICCP')?.data ?? null), inflatedFrom: 0 };
}

const fitting = (profile: Uint8Array | null, chunks: readonly PngChunk[]) => (profile && fitsPng(profile, chunks[0]!) ? profile : null);

export const isIccSegment = (s: JpegSegment) => s.marker === APP2 && startsWith(s.data, ICC_ID);

/** Reassembles the APP2 chunks in sequence order; null unless numbers 1..count each occur once. */
function jpegProfile(segments: readonly JpegSegment[]): Uint8Array | null {
  const parts = segments.filter(isIccSegment).map((s) => s.data);
  if (parts.length === 0) return null;
  const count = parts[0]![ICC_ID.length + 1];
  if (parts.some((p) => p.length < ICC_ID.length + 2 || p[ICC_ID.length + 1] !== count) || parts.length !== count) {
    return null;
  }
  // Filled with undefined (not holes) so that `some` sees a missing or duplicated number.
  const ordered = Array.from<Uint8Array | undefined>({ length: count });
  for (const p of parts) ordered[p[ICC_ID.length]! - 1] = p.subarray(ICC_ID.length + 2);
  if (ordered.length !== count || ordered.some((p) => p === undefined)) return null;
  // Checked before the copy, so an oversized profile costs nothing.
  if (ordered.reduce((n, p) => n + p!.length, 0) > MAX_CARRIED_PROFILE_BYTES) return null;
  return concat(ordered as Uint8Array[]);
}

/** iCCP: a 1-79 byte Latin-1 name, NUL, compression method 0 (zlib), the compressed profile. */
async function pngProfile(chunks: readonly PngChunk[]): Promise<{ profile: Uint8Array | null; inflatedFrom: number }> {
  const data = chunks.find((c) => c.type === 'iCCP')?.data;
  if (!data) return { profile: null, inflatedFrom: 0 };
  const nul = data.subarray(0, 81).indexOf(0);
  if (nul < 1 || data[nul + 1] !== 0) return { profile: null, inflatedFrom: 0 };
  const inflated = await inflateBounded(data.subarray(nul + 2), PNG_CHUNK_CACHE_BYTES);
  if (inflated.why === 'larger') throw unsupported('The PNG is refused: its iCCP profile takes more than 2 MiB once inflated.');
  return { profile: inflated.bytes, inflatedFrom: inflated.readBytes };
}

/**
 * A profile for the PNG's cHRM, built as Blink (png_image_decoder.cc, ReadColorProfile) and
 * Firefox (nsPNGDecoder.cpp) build theirs: only with a gAMA beside it, and only when no higher
 * colour chunk is there (PNG 3rd edition, "Color spaces", the colour chunk priority: cICP, iCCP,
 * sRGB, then cHRM and gAMA; iCCP is dealt with by the caller). Without gAMA both browsers ignore
 * cHRM and show the image as sRGB, so it stays untagged here; Skia's standalone SkPngCodec would
 * assume the sRGB curve instead, but that is not what browsers ship. A chunk counts as libspng,
 * the engine's decoder, counts it, since that decides whether the samples were converted from
 * gAMA: the first one before PLTE and IDAT with a correct CRC and a valid length and value.
 */
function pngChrmProfile(chunks: readonly PngChunk[]): Uint8Array | null {
  if (chunks.some((c) => c.type === 'cICP')) return null;
  const colour = new Map<string, Uint8Array>();
  for (const c of chunks) {
    if (c.type === 'PLTE' || c.type === 'IDAT') break;
    if (!CHRM_CHUNKS.has(c.type) || colour.has(c.type)) continue;
    if (crcMatches(c)) colour.set(c.type, c.data);
  }
  const srgb = colour.get('sRGB');
  if (srgb?.length === 1 && srgb[0]! <= 3) return null;
  const gama = colour.get('gAMA');
  if (gama?.length !== 4 || u32be(gama, 0) === 0 || u32be(gama, 0) > 0x7fffffff) return null;
  const chrm = colour.get('cHRM');
  return chrm ? chrmProfile(chrm) : null;
}

const CHRM_CHUNKS = new Set(['sRGB', 'gAMA', 'cHRM']);

/**
 * The profile when it parses as one: its header holds together (ICC.1:2022 7.2: the size field fits the data,
 * 'acsp' is at byte 36), its tags fit its declared size and it has those that describe colours (icc-tags.ts);
 * trimmed to the declared size. None over 1 MiB.
 */
function checkedProfile(profile: Uint8Array | null): Uint8Array | null {
  if (!profile || profile.length < ICC_HEADER + 4 || profile.length > MAX_CARRIED_PROFILE_BYTES) return null;
  const size = u32be(profile, 0);
  if (size < ICC_HEADER + 4 || size > profile.length || ascii(profile, 36, 4) !== 'acsp') return null;
  const trimmed = profile.subarray(0, size);
  return describesColours(trimmed) ? trimmed : null;
}

/**
 * The profile's data colour space (ICC.1 7.2.6, header bytes 16-19) must be 'GRAY' for a greyscale
 * image and 'RGB ' for a colour one (PNG 3rd edition 11.3.2.3 says so for PNG; decoders and browsers
 * discard a mismatched profile in every format), so a mismatch is treated as absent.
 */
function fits(profile: Uint8Array, grey: boolean): boolean {
  return ascii(profile, 16, 4) === (grey ? 'GRAY' : 'RGB ');
}

/** PNG colour types 0 and 4 are greyscale. */
function fitsPng(profile: Uint8Array, ihdr: PngChunk): boolean {
  return fits(profile, ((ihdr.data[9] ?? 0) & 2) === 0);
}

/** A JPEG with one component is greyscale (the frame header's Nf, T.81 B.2.2). */
function fitsJpeg(profile: Uint8Array, segments: readonly JpegSegment[]): boolean {
  const frame = segments.find((s) => s.marker >= 0xc0 && s.marker <= 0xcf && s.marker !== 0xc4 && s.marker !== 0xc8 && s.marker !== 0xcc);
  return fits(profile, frame?.data[5] === 1);
}

/**
 * Writes `profile` into an encoded image, replacing any profile it has. Only the container
 * changes: image data is copied verbatim. A profile whose colour space does not fit the image
 * (see fits) is not written: the image is returned unchanged rather than carrying a profile every
 * decoder discards.
 */
export async function insertIccProfile(
  bytes: Uint8Array,
  format: ImageFormat,
  profile: Uint8Array,
): Promise<Uint8Array> {
  if (profile.length === 0 || profile.length > MAX_PROFILE) {
    throw unsupported(`An ICC profile of ${profile.length} bytes cannot be embedded.`);
  }
  if (format === 'jpeg') return insertIntoJpeg(bytes, profile);
  if (format === 'png') return insertIntoPng(bytes, profile);
  return insertIntoWebp(bytes, profile);
}

/** APP2 segments go after SOI and the APP0 (JFIF) / APP1 (EXIF) segments that must lead the file. */
function insertIntoJpeg(bytes: Uint8Array, profile: Uint8Array): Uint8Array {
  const { segments, scans } = parseJpeg(bytes);
  if (!fitsJpeg(profile, segments)) return bytes;
  const kept = segments.filter((s) => !isIccSegment(s));
  const at = kept.findIndex((s) => s.marker !== APP0 && s.marker !== APP1);
  kept.splice(at < 0 ? kept.length : at, 0, ...iccSegments(profile));
  return encodeJpeg({ segments: kept, scans });
}

function iccSegments(profile: Uint8Array): JpegSegment[] {
  const count = Math.ceil(profile.length / ICC_BYTES_PER_SEGMENT);
  return Array.from({ length: count }, (_, i) => ({
    marker: APP2,
    data: concat([
      ICC_ID,
      Uint8Array.of(i + 1, count),
      profile.subarray(i * ICC_BYTES_PER_SEGMENT, (i + 1) * ICC_BYTES_PER_SEGMENT),
    ]),
  }));
}

/** iCCP goes right after IHDR (before PLTE and IDAT); sRGB is dropped since both must not be present. */
async function insertIntoPng(bytes: Uint8Array, profile: Uint8Array): Promise<Uint8Array> {
  const chunks = parsePng(bytes);
  if (!fitsPng(profile, chunks[0]!)) return bytes;
  const compressed = await runStream(profile, new CompressionStream('deflate'), Infinity);
  if (!compressed) throw unsupported('The ICC profile could not be compressed.');
  const iccp = encodePngChunk('iCCP', concat([asciiBytes('ICC profile\0'), Uint8Array.of(0), compressed]));
  const rest = chunks.slice(1).filter((c) => c.type !== 'iCCP' && c.type !== 'sRGB');
  return encodePng([chunks[0]!.raw, iccp, ...rest.map((c) => c.raw)]);
}

/**
 * ICCP must follow VP8X directly and needs the ICC flag. A simple (VP8/VP8L) file becomes an
 * extended one: its canvas comes from the bitstream, and its alpha flag from the VP8L header.
 */
function insertIntoWebp(bytes: Uint8Array, profile: Uint8Array): Uint8Array {
  const [first, ...rest] = parseWebp(bytes) as [RiffChunk, ...RiffChunk[]];
  const others = rest.filter((c) => c.fourcc !== 'ICCP');
  const [vp8x, ...body] =
    first.fourcc === 'VP8X' ? [withVp8xFlags(first, vp8xFlags(first) | VP8X_ICC), ...others] : [simpleVp8x(first), first, ...others];
  // WebP pixels are always colour (VP8 is YUV, VP8L ARGB): a GRAY profile cannot describe them.
  if (!fits(profile, false)) return bytes;
  return encodeWebp([vp8x!, { fourcc: 'ICCP', data: profile }, ...body]);
}

/** The VP8X header a simple (VP8/VP8L) file needs to carry a profile: canvas from the bitstream. */
function simpleVp8x(bitstream: RiffChunk): RiffChunk {
  const canvas = bitstreamHeader(bitstream);
  return vp8xChunk(VP8X_ICC | (canvas.alpha ? VP8X_ALPHA : 0), canvas.width, canvas.height);
}
