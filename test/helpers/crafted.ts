import { cat, jpegSegment, pngChunk, riff, riffChunk, text } from '../container/synth';
import { ADAM7 } from '../../src/image/header/png-header';
import { deflateBits, fixedZeros, zerosAdler } from './deflate-work';
import { COLOUR_TYPES, pngFile } from './png';

/**
 * Crafted images, built in the test rather than committed: the hostile shapes of issue 11 (noise that
 * defeats every codec's typical sizes, extreme sampling layouts, extreme aspect ratios, zlib bombs in
 * ancillary data), with generators small enough to run many times. All are deterministic from a seed.
 */

/** xorshift32: a failing case can be rebuilt from its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Bit flips, byte runs, truncation, header-field and length corruption, chunk splicing. */
export function mutate(bytes: Uint8Array, n: number): Uint8Array {
  const random = prng(n * 2654435761);
  const int = (max: number) => Math.floor(random() * max);
  const out = bytes.slice();
  switch (n % 6) {
    case 0: // bit flips anywhere
      for (let i = 0, k = 1 + int(8); i < k; i++) out[int(out.length)]! ^= 1 << int(8);
      return out;
    case 1: // truncation
      return out.subarray(0, int(out.length));
    case 2: // absurd values in the header region (sizes, lengths, counts)
      for (let i = 0, k = 1 + int(4); i < k; i++) out[int(Math.min(64, out.length))] = [0, 0xff, 0x7f, 0x80][int(4)]!;
      return out;
    case 3: // a run of garbage in the middle
      out.fill(int(256), int(out.length), int(out.length));
      return out;
    case 4: { // a slice repeated (duplicated chunks / segments)
      const from = int(out.length);
      const to = Math.min(out.length, from + int(512));
      return new Uint8Array([...out.subarray(0, to), ...out.subarray(from, to), ...out.subarray(to)]);
    }
    default: // a slice removed
      return new Uint8Array([...out.subarray(0, int(out.length)), ...out.subarray(int(out.length))]);
  }
}

export function randomBytes(length: number, seed: number): Uint8Array {
  const random = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (random() * 256) | 0;
  return out;
}

/** zlib (deflate) of the parts, streamed so that hundreds of MB of raw rows never exist at once. */
export async function zlib(parts: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const written = (async () => {
    for (const part of parts) await writer.write(part);
    await writer.close();
  })();
  const chunks: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  await written;
  return cat(...chunks);
}

export interface PngOptions {
  /** 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA; with `palette`, 1 (an index). */
  channels: 1 | 2 | 3 | 4;
  bitDepth?: 8 | 16;
  interlaced?: boolean;
  /** Colour type 3: the samples are indices into these RGB entries. */
  palette?: Uint8Array;
  /** Chunks placed after IHDR (and PLTE). */
  extra?: Uint8Array[];
}

/**
 * A PNG of `sample(x, y, channel)` (0-255, or 0-65535 at 16 bits), its rows (filter type 0) deflated
 * for real and batched, so that only about 1 MiB of raw rows is built at a time. Interlaced files
 * carry the seven Adam7 passes.
 */
export async function samplePng(width: number, height: number, options: PngOptions, sample: (x: number, y: number, c: number) => number): Promise<Uint8Array> {
  const c = options.channels;
  const depth = options.bitDepth ?? 8;
  function* rows(x0: number, y0: number, dx: number, dy: number): Iterable<Uint8Array> {
    const w = Math.ceil((width - x0) / dx);
    if (w <= 0) return;
    for (let y = y0; y < height; y += dy) {
      const row = new Uint8Array(1 + (w * c * depth) / 8);
      for (let i = 0; i < w; i++) {
        for (let k = 0; k < c; k++) {
          const v = sample(x0 + i * dx, y, k);
          if (depth === 16) row.set([v >> 8, v & 0xff], 1 + 2 * (i * c + k));
          else row[1 + i * c + k] = v;
        }
      }
      yield row;
    }
  }
  function* all(): Iterable<Uint8Array> {
    if (!options.interlaced) return yield* rows(0, 0, 1, 1);
    for (const [x0, y0, dx, dy] of ADAM7) yield* rows(x0, y0, dx, dy);
  }
  const plte = options.palette ? [pngChunk('PLTE', options.palette)] : [];
  const header = { width, height, bitDepth: depth, colourType: options.palette ? 3 : COLOUR_TYPES[c], interlaced: options.interlaced };
  return pngFile(header, await zlib(batched(all(), 1 << 20)), [...plte, ...(options.extra ?? [])]);
}

function* batched(parts: Iterable<Uint8Array>, size: number): Iterable<Uint8Array> {
  let pending: Uint8Array[] = [];
  let length = 0;
  for (const part of parts) {
    pending.push(part);
    length += part.length;
    if (length >= size) {
      yield cat(...pending);
      pending = [];
      length = 0;
    }
  }
  if (pending.length) yield cat(...pending);
}

/**
 * A PNG of one random `tile` x `tile` block repeated in both directions: noise to every 8x8 DCT block
 * and VP8 macroblock, yet small on the wire (deflate finds the repeats along each row). Issue 11, item 1.
 */
export function tiledNoisePng(width: number, height: number, options: PngOptions & { tile?: number; seed?: number }): Promise<Uint8Array> {
  const tile = options.tile ?? 64;
  const c = options.channels;
  const block = randomBytes(tile * tile * c, options.seed ?? 1);
  return samplePng(width, height, options, (x, y, k) => block[((y % tile) * tile + (x % tile)) * c + k]!);
}

/** Per-pixel uniform noise: incompressible, keep it small. */
export function noisePng(width: number, height: number, options: PngOptions & { seed?: number }): Promise<Uint8Array> {
  const random = prng(options.seed ?? 7);
  const top = options.bitDepth === 16 ? 65536 : 256;
  return samplePng(width, height, options, () => (random() * top) | 0);
}

/**
 * A PNG whose iCCP inflates to `inflated` bytes: a well-formed RGB ICC header (size field, 'acsp',
 * no tags) padded with zeros, so a few KB on the wire. Issue 11, item 7.
 */
export async function iccBombChunk(inflated: number): Promise<Uint8Array> {
  const header = new Uint8Array(132);
  const view = new DataView(header.buffer);
  view.setUint32(0, inflated);
  header.set(text('mntrRGB XYZ '), 12);
  header.set(text('acsp'), 36);
  const zeros = new Uint8Array(1 << 20);
  const rest = inflated - header.length;
  const parts = [header, ...Array.from({ length: Math.floor(rest / zeros.length) }, () => zeros), zeros.subarray(0, rest % zeros.length)];
  return pngChunk('iCCP', cat(text('bomb\0'), Uint8Array.of(0), await zlib(parts)));
}

// JPEG -----------------------------------------------------------------------------------------

export interface JpegComponent {
  h: number;
  v: number;
}

export interface CraftedJpeg {
  width: number;
  height: number;
  /** Sampling factors (1 to 4) of each component: 1, 3 or 4 of them. */
  components: JpegComponent[];
  progressive: boolean;
  /** Baseline only: one scan per component instead of one interleaved scan (libjpeg then buffers the whole image). */
  scanPerComponent?: boolean;
  /** DC levels of the blocks: random per block (a blocky picture) or flat. */
  seed?: number;
}

/** Huffman tables of ITU T.81 Annex K.3 (luminance DC), and an AC table whose only symbol is EOB. */
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0];

function huffmanCodes(bits: number[], values: number[]): Map<number, { code: number; length: number }> {
  const codes = new Map<number, { code: number; length: number }>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < bits[length - 1]!; i++) codes.set(values[k++]!, { code: code++, length });
    code <<= 1;
  }
  return codes;
}

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private count = 0;
  put(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0); // byte stuffing (T.81 B.1.1.5)
    this.acc = 0;
    this.count = 0;
  }
  finish(): Uint8Array {
    while (this.count !== 0) this.put(1, 1); // pad with 1-bits
    return Uint8Array.from(this.bytes);
  }
}

/**
 * A legal JPEG of any sampling layout whose blocks carry only DC (each block a flat square, at a
 * random level when seeded): a few bits a block, so hundreds of megapixels fit in a small file.
 * Progressive files hold one DC scan per component and no AC scan (legal: the AC stays zero).
 * Issue 11, item 2 (4 components all sampled 4x4) and the model's property test.
 */
export function craftedJpeg(spec: CraftedJpeg): Uint8Array {
  const { width, height, components, progressive } = spec;
  const hmax = Math.max(...components.map((c) => c.h));
  const vmax = Math.max(...components.map((c) => c.v));
  const random = prng(spec.seed ?? 1);
  const dc = huffmanCodes(DC_BITS, DC_VALUES);
  const ac = huffmanCodes(AC_BITS, AC_VALUES);

  const dqt = jpegSegment(0xdb, cat(Uint8Array.of(0), new Uint8Array(64).fill(8)));
  const sof = jpegSegment(
    progressive ? 0xc2 : 0xc0,
    cat(
      Uint8Array.of(8, height >> 8, height & 0xff, width >> 8, width & 0xff, components.length),
      ...components.map((c, i) => Uint8Array.of(i + 1, (c.h << 4) | c.v, 0)),
    ),
  );
  const dht = jpegSegment(0xc4, cat(Uint8Array.of(0x00, ...DC_BITS, ...DC_VALUES), Uint8Array.of(0x10, ...AC_BITS, ...AC_VALUES)));

  /** One block: a DC difference (category and bits), then EOB for sequential scans. */
  const predictors = components.map(() => 0);
  const block = (w: BitWriter, ci: number) => {
    const level = spec.seed === undefined ? 0 : Math.round((random() - 0.5) * 200);
    const diff = level - predictors[ci]!;
    predictors[ci] = level;
    const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
    const code = dc.get(category)!;
    w.put(code.code, code.length);
    if (category) w.put(diff > 0 ? diff : diff + (1 << category) - 1, category);
    if (!progressive) w.put(ac.get(0)!.code, ac.get(0)!.length);
  };
  const sos = (scanComponents: number[]) =>
    jpegSegment(
      0xda,
      cat(Uint8Array.of(scanComponents.length), ...scanComponents.map((ci) => Uint8Array.of(ci + 1, 0x00)), Uint8Array.of(0, progressive ? 0 : 63, 0)),
    );
  /** A scan of one component: its own blocks in raster order (T.81 A.2.2). */
  const single = (ci: number) => {
    predictors.fill(0);
    const c = components[ci]!;
    const w = new BitWriter();
    const blocksWide = Math.ceil(Math.ceil((width * c.h) / hmax) / 8);
    const blocksHigh = Math.ceil(Math.ceil((height * c.v) / vmax) / 8);
    for (let i = 0; i < blocksWide * blocksHigh; i++) block(w, ci);
    return cat(sos([ci]), w.finish());
  };
  /** All components interleaved, MCU by MCU (T.81 A.2.3). */
  const interleaved = () => {
    predictors.fill(0);
    const w = new BitWriter();
    const mcus = Math.ceil(width / (8 * hmax)) * Math.ceil(height / (8 * vmax));
    for (let m = 0; m < mcus; m++) components.forEach((c, ci) => Array.from({ length: c.h * c.v }, () => block(w, ci)));
    return cat(sos(components.map((_, ci) => ci)), w.finish());
  };
  const blocksPerMcu = components.reduce((n, c) => n + c.h * c.v, 0);
  const oneScan = components.length > 1 && blocksPerMcu <= 10 && !spec.scanPerComponent && !progressive;
  const scans = oneScan ? [interleaved()] : components.map((_, ci) => single(ci));
  return cat(Uint8Array.of(0xff, 0xd8), dqt, sof, dht, ...scans, Uint8Array.of(0xff, 0xd9));
}

export interface ScanBomb {
  width: number;
  height: number;
  /** Copies of the one AC scan after the DC scan. */
  scans: number;
  /** Copies of a refinement AC scan (Ah=1, Al=0) instead: each visits every coefficient of the band in every block. */
  refine?: boolean;
}

/**
 * Issue 19, item 1: a grey progressive JPEG (DQT of ones, SOF2, a DC and an AC Huffman table of one code
 * each, one DC scan) that repeats one legal AC scan (Ss=1, Se=63, Ah=Al=0) `scans` times, each coded as one
 * EOB run per 32,767 blocks: a few bytes a scan, yet the decoder visits every block in every scan.
 * libjpeg-turbo accepts it without a warning (its progression check only complains when Ah differs from
 * the coefficient's current bit). With `refine`, the first AC scan sets the band to Al=1 and the copies
 * refine it (Ah=1, Al=0), legal again for each copy the same way.
 */
export function scanBombJpeg({ width, height, scans, refine = false }: ScanBomb): Uint8Array {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const dqt = jpegSegment(0xdb, cat(Uint8Array.of(0), new Uint8Array(64).fill(1)));
  const sof = jpegSegment(0xc2, Uint8Array.of(8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0));
  // One code of length 1 per table: DC category 0, and EOB14 (a run of 2^14 + 14 extra bits of blocks).
  const oneCode = (tableClass: number, symbol: number) => Uint8Array.of(tableClass << 4, 1, ...new Uint8Array(15), symbol);
  const dht = jpegSegment(0xc4, cat(oneCode(0, 0x00), oneCode(1, 0xe0)));
  const sos = (ss: number, se: number, ah: number, al: number) => jpegSegment(0xda, Uint8Array.of(1, 1, 0x00, ss, se, (ah << 4) | al));
  const dc = new BitWriter();
  for (let i = 0; i < blocks; i++) dc.put(0, 1);
  const ac = new BitWriter();
  for (let left = blocks; left > 0; left -= 32767) {
    const run = Math.min(left, 32767);
    const r = Math.floor(Math.log2(run));
    // The table has EOB14 alone: choose sizes whose last run is at least 2^14 blocks.
    if (r !== 14) throw new Error(`scanBombJpeg: ${width}x${height} leaves a last EOB run of ${run} blocks`);
    ac.put(0, 1);
    ac.put(run - (1 << 14), 14);
  }
  const acData = ac.finish();
  const copy = cat(refine ? sos(1, 63, 1, 0) : sos(1, 63, 0, 0), acData);
  const first = refine ? [cat(sos(1, 63, 0, 1), acData)] : [];
  return cat(
    Uint8Array.of(0xff, 0xd8),
    dqt,
    sof,
    dht,
    cat(sos(0, 0, 0, 0), dc.finish()),
    ...first,
    ...Array.from({ length: scans }, () => copy),
    Uint8Array.of(0xff, 0xd9),
  );
}

// WebP -----------------------------------------------------------------------------------------

/**
 * A VP8L bitstream header (WebP lossless spec 3.1): signature, 14-bit width and height minus one,
 * alpha hint, version 0; then a tiny image body (no transforms, no colour cache, one Huffman group
 * of single-symbol codes, so every pixel is the same and costs no bits).
 */
export function vp8lBitstream(width: number, height: number, groups = false): Uint8Array {
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = 0; i < n; i++) bits.push((value >> i) & 1);
  };
  // A simple prefix code of one symbol, 8 bits (or 1 bit) long: it costs no bits a pixel.
  const oneSymbol = (symbol: number, wide = true) => {
    put(1, 1); // simple code
    put(0, 1); // one symbol
    put(wide ? 1 : 0, 1);
    put(symbol, wide ? 8 : 1);
  };
  put(0x2f, 8);
  put(width - 1, 14);
  put(height - 1, 14);
  put(0, 1); // alpha hint
  put(0, 3); // version
  put(0, 1); // no transform
  if (groups) {
    // Work without rows (issue 35): a colour cache of 11 bits (green's alphabet 2,328 symbols), and meta
    // Huffman codes whose 1x1 entropy image names group 65,535, so all 65,536 groups' 5 codes are read (4
    // bits each) and their tables built, the unused ones checked only.
    put(1, 1);
    put(11, 4);
    put(1, 1);
    put(9 - 2, 3); // 512-pixel entropy blocks
    put(0, 1); // the entropy image: no colour cache
    [255, 255, 0, 0, 0].forEach((symbol) => oneSymbol(symbol)); // green and red 255: group 0xffff
    for (let g = 0; g < 65536; g++) for (let c = 0; c < 5; c++) oneSymbol(0, false);
  } else {
    put(0, 1); // no colour cache
    put(0, 1); // no meta Huffman codes
    // Five prefix codes (green, red, blue, alpha, distance), each a simple code of one 8-bit symbol 0.
    for (let i = 0; i < 5; i++) oneSymbol(0);
  }
  const out = new Uint8Array(Math.ceil(bits.length / 8) + 4);
  bits.forEach((bit, i) => (out[i >> 3]! |= bit << (i & 7)));
  return out;
}

/** A lossless WebP file of one colour: zero bits a pixel, so any size up to 16384 x 16384 in a few bytes. */
export const flatLosslessWebp = (width: number, height: number) => riff(riffChunk('VP8L', vp8lBitstream(width, height)));

/** A flat lossless WebP whose header holds 65,536 Huffman groups (164 KB): work without rows. */
export const huffmanGroupsWebp = (width: number, height: number) => riff(riffChunk('VP8L', vp8lBitstream(width, height, true)));

/**
 * Issue 11, item 8: a WebP whose first chunk is not an image chunk, but whose bytes there read as a raw
 * VP8L header of `width` x `height` (libwebp falls back to a raw bitstream when the first chunk is
 * neither VP8 nor VP8L), followed by a real 1x1 VP8L chunk. The hidden header's bytes 4 to 7 stand where
 * a chunk's size would: its last byte (the height's top bits) and three zero bytes, so a chunk walker
 * steps over a few bytes to the 1x1 image.
 */
export function webpWithHiddenBitstream(width: number, height: number): Uint8Array {
  const header = vp8lBitstream(width, height).subarray(0, 5);
  const size = header[4]!;
  const fake = new Uint8Array(8 + size + (size & 1));
  fake.set(header);
  return riff(fake, riffChunk('VP8L', vp8lBitstream(1, 1)));
}

// Flat PNG bombs ------------------------------------------------------------------------------------

/** Deflate's length codes 257..285 (RFC 1951 3.2.5): base length and extra bits. */
/**
 * zlib data of `length` zero bytes, written directly (one fixed-Huffman block: a literal 0, then copies
 * of 258 bytes at distance 1), so a bomb of hundreds of MB costs its compressed size, not its size.
 */
export function zlibZeros(length: number): Uint8Array {
  const writer = deflateBits();
  writer.bytes.push(0x78, 0x01);
  writer.bits(1, 1); // final block
  fixedZeros(writer, length);
  writer.flush();
  return Uint8Array.from([...writer.bytes, ...zerosAdler(length)]);
}

/** An 8-bit PNG of `width` x `height` black (all-zero) pixels, any size, a few hundred KB at most. */
export function blackPng(width: number, height: number, channels: 1 | 3 | 4 = 3, extra: Uint8Array[] = []): Uint8Array {
  return pngFile({ width, height, colourType: COLOUR_TYPES[channels] }, zlibZeros((1 + width * channels) * height), extra);
}
