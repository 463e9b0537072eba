import { ENGINE_BUDGET_BYTES } from '../../limits/memory';
import { libjpegTurboQuality } from '../quality-scale';
import { storedWindow } from '../steps/geometry';
import { planAvif } from './avif-plan';
import { type AvifHeader, type HeifPicture, type ImageHeader, type OutputSpec, isAvif, isGifHeader } from '../types';
import { avifStoredSize } from './avif-input';

const MiB = 1024 * 1024;

/**
 * The engine's memory model: the peak bytes of one job (WASM memory and the job's JS buffers), from the
 * header alone, as a sum of the terms below. Each term says where it was measured: the heap top of a
 * fresh instance after the job (`lastJob()`), on the adversarial classes it is worst for (binary and
 * uniform noise, flat images, extreme aspect ratios, every JPEG sampling layout, qualities 1 to 100).
 * test/engine/memory-model.test.ts checks the sum on those classes and on random headers; what a header
 * cannot tell (a lossless WebP's Huffman tables, content worse than noise) is not modelled: the engine
 * enforces the budget at every allocation (engine-memory.ts) and such a job fails alone with a 413.
 *
 * Terms are bytes, bytes per pixel (B/px) of the image they name, bytes per column of width (B/col), or
 * multiples of the planned output (`plannedOutputBytes`: what photos make, or the worst case for the format and quality).
 */
const TERMS = {
  /** Static data, stack and allocator slack. Measured: heap top of an 8x8 job, 0.69 to 0.81 MiB. */
  baseBytes: 2 * MiB,

  // Decoders
  /**
   * JPEG decoder rows (libjpeg-turbo's main, upsampling and colour buffers) per column of the decoded
   * width: this plus this per row of each component's iMCU (v x 8 rows at its share of the width).
   * Measured: 48 B/col at 4:2:0, 60 at 4:4:0 and chroma sampled above luma, 16384x64 baseline files.
   */
  jpegRowBytesPerColumn: 24,
  jpegRowBytesPerComponentRow: 2,
  /**
   * Progressive JPEG, or a first scan with fewer components than the frame: every coefficient (2 B) of
   * every component, its blocks padded to its own sampling factors (libjpeg-turbo jdcoefct.c), whatever
   * the output size. Measured: exact to 0.1 MiB on 1000x1000 files of ten sampling layouts.
   */
  jpegCoefficientBytesPerBlock: 128,
  /**
   * The lossless re-coding (jpeg-recode.c) reads every coefficient of the input (jpegCoefficientBytesPerBlock,
   * whatever its mode) and writes them again through libjpeg-turbo's encoder, which keeps nothing per pixel
   * (Huffman statistics, tables, a block row). Measured: heap top less the coefficients 1.52 to 1.54 MiB on 3 MP
   * noise at q100 (4:4:4, 4:2:0, grey, baseline and progressive), what an 8x8 job's heap top is since libaom
   * joined the module (1.44 to 1.63 MiB; 0.64 to 0.69 before): this covers it beside baseBytes.
   */
  jpegRecodeBytes: 0.75 * MiB,
  /** PNG decoder rows (RGBA8 row, packed row, libspng's two scanlines at up to 8 B/px). Measured: 16 B/col, 300000x30. */
  pngRowBytesPerColumn: 32,
  /**
   * libspng keeps text, EXIF and an iCCP profile inflated, capped at 2 MiB (png-decode.c), and grows each
   * inflated stream by doubling. Measured: 3.9 MiB for a 1.9 MB profile (heap top 4.6 MiB, 64x64 image).
   */
  pngChunkCacheBytes: 4 * MiB,
  /** Adam7 PNG is assembled as a whole RGBA8 frame. Measured: 4.1 B/px on 1000x1000 noise, 8 and 16 bits. */
  interlacedPngFrameBytesPerPixel: 4.2,
  /**
   * giflib's decoder (its LZW tables and the screen descriptor's copies, about 30 KiB) and a line of the first frame's
   * indices (at most 65,535); set from giflib's allocations, not measured yet.
   */
  gifDecoderBytes: 128 * 1024,
  /** The GIF decoder's output row, RGBA. */
  gifRowBytesPerColumn: 4,
  /** An interlaced GIF frame's indices on the screen are held until its last pass: a byte a pixel. */
  interlacedGifBytesPerPixel: 1,
  /** An animation's screen (RGBA) and the copy disposal 3 restores from (codecs/src/gif-decode.c decode_frames). */
  animatedGifScreenBytesPerPixel: 8,
  /**
   * libwebp's animation encoder (codecs/src/webp-anim.c) per pixel of the output canvas: our ARGB canvas, its own
   * three (the frame's copy, the canvas before it, the same disposed) and the frame's encoding (YUV and alpha planes,
   * libwebp's lossless coder of the alpha its sub-frames are given), and its fixed part. Measured: 18 B/px on a
   * 800x600 photo panning over 100 frames at q80 (heap top less the output's two copies and the screen), 0.7 MiB
   * above baseBytes on 96x64 ones.
   */
  animatedWebpBytesPerPixel: 32,
  animatedWebpBytes: 1 * MiB,
  /**
   * Its output is held twice in the module (every frame's bitstream in the mux, then the file it assembles) and
   * planned for the smaller of twice the GIF's bytes and a share of every frame's canvas by quality, and a KiB a
   * frame (the engine stops a job whose file passes the plan). Measured on that pan: 0.09 B/px at q80, 0.38 at 100
   * (0.17 and 0.71 of the GIF's bytes).
   */
  animatedOutputCopies: 2,
  animatedOutputPerInputByte: 2,
  animatedOutputBytesPerPixel: [[1, 0.1], [80, 0.25], [95, 0.5], [100, 0.8]] as ReadonlyArray<readonly [number, number]>,
  animatedOutputBytesPerFrame: 1024,
  /** libwebp decodes from the whole file, copied in: its size exactly. */
  webpFileBytesPerFileByte: 1,
  /** Lossy WebP streams rows: VP8 caches and our 32-row strip. Measured: 250 B/col on bryce.webp (11158 wide). */
  webpLossyRowBytesPerColumn: 320,
  /**
   * An ALPH chunk is decoded into a whole plane through the lossless decoder, which keeps 32-bit pixels
   * unless the stream allows its 8-bit mode. Measured: 2.2 B/px (noise alpha, 8-bit mode), 5.6 B/px
   * (a gradient's alpha coded by webp-alpha.c, 32-bit mode; model property test, case 1367).
   */
  webpLossyAlphaBytesPerPixel: 6,
  /**
   * VP8L keeps the whole ARGB image (4 B/px) and decodes into a whole RGB or RGBA frame (3 or 4 B/px).
   * Measured: 7.0 B/px (RGB) and 7.9 (RGBA) on noise and a 4 MP graphic. Its Huffman tables depend on
   * the bitstream, not the header: not modelled, enforced.
   */
  webpLosslessBytesPerPixel: 4.5,
  /**
   * AVIF (avif-decode.c): libaom's decoder holds a whole cell: its frame (1.5 B/px at 4:2:0, 3 at 4:4:4, and
   * monochrome still 4:2:0's, with 64-pixel borders) and a mode info of about 150 B per 4x4 block, beside fixed
   * tables and contexts; an alpha plane is a second decoder. The cell's data is copied in, the whole framed
   * input in JS (about the file). Measured (heap top less base and JPEG rows, 8-bit): 12.0 B/px on 12 and 24 MP
   * photos at 4:2:0 (138.9 and 271.3 MiB heap tops), 13.5 at 4:4:4 (156.4 MiB at 12 MP); 1 MP binary noise 16.4
   * MiB at 4:2:0, 19.5 at 4:4:4, 16.0 grey, 31.5 with alpha, as much at any quantiser but for the data. 10 and 12
   * bits hold 16-bit frames: 1.5 B/px more at 4:2:0 (156.5 MiB at 12 MP), 3 at 4:4:4 (23.9 MiB, 1 MP noise); 4:2:2
   * is counted as 4:4:4. A wider grid fills a stripe one cell tall and the image's width, 1 B per channel.
   */
  av1DecoderBytes: 2.5 * MiB,
  av1DecodeBytesPerCellPixel: 12,
  av1Decode444BytesPerCellPixel: 13.5,
  av1HighBitDepthBytesPerCellPixel: 1.5,
  av1HighBitDepth444BytesPerCellPixel: 3,
  avifStripeBytesPerSample: 1,

  // Between decoder and encoder
  /**
   * Resampler (resamplerBytes, from resample.c): Lanczos3's taps each side, stretched by the scale when
   * shrinking. Measured: exact to 0.1 MiB from 30x1000000 to 1x1 and 300000x30 to 10x1.
   */
  lanczosTapsPerSide: 3,
  /** Orientations 3 to 8 hold the output frame, 1 B per channel (orient.c). */
  orientationFrameBytesPerSample: 1,
  /** PNG output of up to 1 MP keeps the decoded, resized frame for its trial passes (engine.c), 1 B per channel. */
  pngTrialFrameBytesPerSample: 1,

  // Encoders
  /**
   * Encoder rows per column of output width. Measured: libjpeg-turbo baseline 27 B/col (16384 wide), PNG 20 +
   * 36 for lossy dithering, WebP 8.
   */
  jpegEncodeRowBytesPerColumn: 48,
  pngEncodeRowBytesPerColumn: 64,
  webpEncodeRowBytesPerColumn: 16,
  /**
   * jpegli's rows in every mode: three iMCU rows of float input per component, the downsampled chroma and
   * adaptive quantisation's buffers. Measured (heap top less the base and PNG rows, uniform noise, adaptive
   * quantisation on, every quality): 1060 to 1090 B/col at 8192, 16384 and 30000 wide; grey 240.
   */
  jpegliRowBytesPerColumn: 1100,
  /**
   * jpegli progressive keeps every coefficient (2 B) and every scan's tokens; sequential with optimised
   * Huffman tables keeps the tokens (4 B each, at most one per coefficient). Per 8x8 block of every component
   * at 4:2:0 (grey: one component). Measured on 3 MP binary and uniform noise, colour and grey, qualities 1 to
   * 100, adaptive quantisation on and off: at most 518 B/block progressive (q100, binary noise; 8.1 B per
   * coefficient) and 249 optimised; the model's cases from 1x1 to 30000x16 and 16x30000 stay under it.
   */
  jpegliProgressiveBytesPerBlock: 528,
  jpegliOptimizedBytesPerBlock: 256,
  /** libwebp's YUV 4:2:0 picture (1.5 B/px) and macroblock state. Measured: 1.7 B/px at quality 1, 3 MP noise, low_memory. */
  webpPictureBytesPerPixel: 1.8,
  webpAlphaPlaneBytesPerPixel: 1,
  /** libwebp builds the bitstream in memory in writers that grow by doubling. Measured: 2.4x the output, 3 MP noise at q100. */
  webpBitstreamPerPlannedByte: 2.5,
  /**
   * Without low_memory libwebp records every token first, about 21 tokens' bytes per output byte on any
   * content. Measured: 23.8 B/px on 3 MP uniform noise and 26.8 on binary noise at q100 (20x-21x the output).
   */
  webpTokensPerPlannedByte: 22,
  /** libwebp 1.2.4's lossless alpha encoder. Measured: 30.6 B/px on uniform noise alpha, and 0.9 MiB on an 8x8 image. */
  webpLibwebpAlphaBytesPerPixel: 32,
  webpLibwebpAlphaBytes: 1 * MiB,
  /** Our alpha coder (webp-alpha.c): the plane coded in place and its output. Measured: 1.8 B/px, noise alpha. */
  webpOwnAlphaBytesPerPixel: 2,
  /** PNG output gathers IDAT data in 1 MiB (png-encode.c) beside zlib's level-9 state. Measured: 1.9 MiB heap top, 8x8 job. */
  pngEncoderBytes: 1.5 * MiB,
  /**
   * AVIF (avif-encode.c): the stripe being filled, one cell tall and the grid's width, as Y, Cb and Cr at 4:4:4
   * (3 B/px; grey 1) and alpha (1), two RGB rows; and libaom sized for one cell, per pixel of the cell by its
   * speed, with the monochrome lossless alpha encoder (always speed 9) beside it. Measured (heap top of 1 MP
   * cells, uniform and binary noise, 4:4:4, tune=iq, qualities 30 to 100, less 4 MiB of base, rows and stripe):
   * 60 B/px at speed 6 and 49 at 7 to 9 (binary noise at 100; 45 to 49 at 80); alpha 18.6 B/px more. Besides,
   * 3 MiB at any speed: heap tops of 149x156 cells of two-tone and grey binary noise with alpha, 4.3 to 6.0 MiB,
   * less the terms above. And per pixel of a cell's width plus height, whatever its other side (libaom's frame
   * borders and per-column state): a 1024x1 or 1x1024 cell's heap top is 3.1 MiB above an 8x8 one's at speed 6
   * (2.2 at 7 to 9; the alpha encoder 1.1 MiB on an 8x8 cell, 2.2 on a 1024x1 one), which those terms left
   * 1.25 MiB short of (model fuzz case 100931, a 861x15 cell from a JPEG). Intra block copy is off
   * (avif-encode.c): on content libaom takes for a screenshot its hash of every block position held about 60 B
   * per pixel of the cell (145 MiB for 1 MP of two-tone noise; model fuzz case 100069).
   */
  avifStripeBytesPerPixel: 3,
  avifGreyStripeBytesPerPixel: 1,
  avifAlphaStripeBytesPerPixel: 1,
  avifRowBytesPerColumn: 8,
  avifEncoderBytes: 3 * MiB,
  avifEncoderBytesPerCellSide: 2048,
  avifEncoderBytesPerCellPixel: [[6, 62], [7, 51], [8, 51], [9, 51]],
  avifAlphaEncoderBytes: 1.5 * MiB,
  avifAlphaEncoderBytesPerCellSide: 1536,
  avifAlphaEncoderBytesPerCellPixel: 20,
  /** Lossy PNG (quantize.c): 2^18 histogram cells of 20 B, then a 2^18 nearest-colour cache of 2 B. Measured: 5.6 MiB over lossless, 8x8 job. */
  lossyPngBytes: 5.5 * MiB,

  // Output, worst case
  /**
   * The largest output per pixel at each encoder quality, on the worst content found: binary noise (each
   * sample 0 or 255), above uniform noise for every format (1000x1000, baseline JPEG, grey or colour, the
   * larger; WebP low_memory). Times `outputMargin`. Outputs are planned for a share of it (below).
   * `jpegOutputBytesPerPixel` is libjpeg-turbo's (the baseline plan); jpegli's, with its standard Huffman
   * tables (its largest mode in every case measured), adaptive quantisation off up to q80 and on above.
   */
  jpegliOutputBytesPerPixel: [[1, 0.258], [10, 0.381], [20, 0.528], [30, 0.623], [40, 0.665], [50, 0.714], [60, 0.777], [70, 0.864], [75, 0.922], [80, 0.995], [85, 1.099], [90, 1.267], [95, 1.562], [98, 1.914], [99, 2.136], [100, 2.325]],
  jpegOutputBytesPerPixel: [[1, 0.226], [10, 0.271], [20, 0.334], [30, 0.406], [40, 0.473], [50, 0.532], [60, 0.595], [70, 0.681], [75, 0.736], [80, 0.815], [85, 0.912], [90, 1.069], [95, 1.348], [98, 1.802], [99, 2.047], [100, 2.308]],
  webpOutputBytesPerPixel: [[1, 0.307], [10, 0.456], [20, 0.531], [30, 0.598], [40, 0.643], [50, 0.678], [60, 0.719], [70, 0.758], [75, 0.775], [80, 0.832], [85, 0.908], [90, 0.998], [95, 1.12], [98, 1.215], [99, 1.265], [100, 1.28]],
  /** A WebP's ALPH chunk on uniform noise alpha. Measured: 1.02 B/px. */
  webpAlphaOutputBytesPerPixel: 1.02,
  /**
   * AVIF at libaom's quality, 4:4:4, any speed (1 MP cells, the container's few hundred bytes apart). Measured:
   * binary noise 0.43 B/px at 30, 1.79 at 80, 4.38 at 100 (uniform noise 0.16, 1.45, 3.74); each pair of points
   * joined by a straight line, which lies above the curve between them.
   */
  avifOutputBytesPerPixel: [[1, 0.2], [30, 0.43], [80, 1.79], [100, 4.38]],
  /** AVIF's alpha, lossless AV1. Measured: 1.42 B/px on uniform noise alpha, 1.51 on binary noise alpha. */
  avifAlphaOutputBytesPerPixel: 1.55,
  /** PNG: the raw rows (1 B per channel, a filter byte a row) in stored deflate blocks, and chunk overhead. */
  pngOutputOverheadBytes: 64 * 1024,
  outputMargin: 1.2,

  // Output, planned
  /**
   * JPEG and WebP output is planned from what honest photos make, not from noise: a share of the worst case
   * at the encoder's quality, plus `outputSharePerInputByte` per byte of input per output pixel (grainy and
   * dark photos are dense in and out), at most the whole worst case. Output past the plan stops the job (a 413
   * after its work, for noise a camera does not make); the engine's memory cap catches what its buffers
   * grow with before any output is written. Measured (npm run bench:output-bound: phone-like photos made from
   * the corpus's, at 6 MP to tune, then the holdout photos and 12 MP to confirm; docs/benchmarks.md), the share
   * each output needed beyond 0.5 per input byte per pixel: at service quality 80 at most 0.08 for jpegli (the
   * Hubble deep field with grain at 12 MP, written with the standard Huffman tables) and 0.16 for WebP, 0.15 and
   * 0.21 at 95, 0.23 and 0.24 at 100 (6 MP); the shares below leave the least headroom 1.7 on every photo.
   */
  jpegOutputShare: [[1, 0.2], [72, 0.2], [92, 0.3], [100, 0.35]],
  webpOutputShare: [[1, 0.25], [81, 0.3], [95, 0.4], [100, 0.5]],
  outputSharePerInputByte: 0.5,

  // JS
  /** After the job: carrying a profile copies the output once more (carry-icc.ts), and holds the profile. */
  profileCopiesOfOutput: 1,
  profileCopiesOfProfile: 2,
} as const;

/** Linear interpolation along (x, y) points sorted by x, clamped to the ends. */
function along(points: ReadonlyArray<readonly [number, number]>, x: number): number {
  const i = points.findIndex(([px]) => px >= x);
  if (i <= 0) return points[i === 0 ? 0 : points.length - 1]![1];
  const [x0, y0] = points[i - 1]!;
  const [x1, y1] = points[i]!;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/** Channels of the decoded rows: grey or colour, with alpha when the image has any. */
function channels(header: ImageHeader): number {
  return (header.grey ? 1 : 3) + (header.hasAlpha ? 1 : 0);
}

/** The colour part of the worst-case output (without a WebP's alpha), per pixel of output. */
function colourOutputBytesPerPixel(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  switch (out.format) {
    case 'jpeg':
      return plan.jpeg === 'baseline'
        ? along(TERMS.jpegOutputBytesPerPixel, libjpegTurboQuality(out.quality))
        : along(TERMS.jpegliOutputBytesPerPixel, out.quality);
    case 'webp':
      return along(TERMS.webpOutputBytesPerPixel, out.quality);
    case 'avif':
      return along(TERMS.avifOutputBytesPerPixel, planAvif(out.width, out.height, out.quality).quality);
    case 'png':
      // Lossy PNG is a palette (1 B/px) or, when no larger, the exact image; lossless keeps the channels.
      return out.quality < 100 ? 1 : channels(header);
  }
}

/** The worst case of a job's output for its encoder, quality and size (binary noise), with a margin. */
export function worstOutputBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const pixels = out.width * out.height;
  if (out.format === 'png') {
    // A filter byte a row; stored deflate blocks add 5 B per 65535.
    const raw = (out.width * colourOutputBytesPerPixel(header, out, plan) + 1) * out.height;
    return Math.ceil(raw * (1 + 5 / 65535) + TERMS.pngOutputOverheadBytes);
  }
  return Math.ceil(pixels * (colourOutputBytesPerPixel(header, out, plan) + alphaOutputBytesPerPixel(header, out)) * TERMS.outputMargin + 64 * 1024);
}

/** The worst case of a WebP's or AVIF's alpha, per pixel of output: coded losslessly, always planned for whole. */
function alphaOutputBytesPerPixel(header: ImageHeader, out: OutputSpec): number {
  if (!header.hasAlpha) return 0;
  const alphaBytes = { webp: TERMS.webpAlphaOutputBytesPerPixel, avif: TERMS.avifAlphaOutputBytesPerPixel, jpeg: 0, png: 0 };
  return alphaBytes[out.format];
}

/**
 * The share of the worst case a JPEG or WebP output is planned for (TERMS.jpegOutputShare): by the encoder's
 * quality and the input's bytes per output pixel; PNG output, and a plan for the worst case, plan it all.
 */
function outputShare(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  if (out.format === 'png' || plan.worstCaseOutput) return 1;
  const quality = out.format === 'jpeg' && plan.jpeg === 'baseline' ? libjpegTurboQuality(out.quality) : out.quality;
  const share = along(out.format === 'jpeg' ? TERMS.jpegOutputShare : TERMS.webpOutputShare, quality);
  return Math.min(1, share + (TERMS.outputSharePerInputByte * header.fileBytes) / (out.width * out.height));
}

/**
 * The most output bytes the job may write with this plan: the engine stops a job whose output passes it.
 * Photos as cameras and exporters make them are planned for (outputShare); a WebP's or AVIF's alpha and PNG
 * output for their worst case. An AVIF's alpha was once planned within its colour's share: at qualities 1 to 30,
 * where the colour is planned for 0.06 to 0.15 B/px and lossless alpha takes up to 1.5, a dithered cut-out the
 * model admitted was stopped (issue 35).
 */
export function plannedOutputBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  if (out.animated && isGifHeader(header)) {
    const frames = header.gif.frameCount;
    const share = Math.min(header.fileBytes * TERMS.animatedOutputPerInputByte, frames * out.width * out.height * along(TERMS.animatedOutputBytesPerPixel, out.quality));
    return Math.ceil(share + frames * TERMS.animatedOutputBytesPerFrame + 64 * 1024);
  }
  // A lossless re-coding writes the input's own coefficients: optimised tables rarely add bytes, and never many.
  if (out.recode) return header.fileBytes + 64 * 1024;
  if (out.format === 'png') return worstOutputBytes(header, out, plan);
  const alpha = out.width * out.height * alphaOutputBytesPerPixel(header, out) * TERMS.outputMargin;
  return Math.ceil(plannedColourBytes(header, out, plan) + alpha + 64 * 1024);
}

/** The planned output without a WebP's alpha: what libwebp's token buffer and bit writers grow with. */
function plannedColourBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  return out.width * out.height * colourOutputBytesPerPixel(header, out, plan) * outputShare(header, out, plan) * TERMS.outputMargin;
}

/** The scaled window as stored (before orientation): what the resampler or cropper hands on, before any margins. */
export function storedContent(out: OutputSpec): { width: number; height: number } {
  const { width, height } = out.placed ?? out;
  return (out.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

/**
 * The DCT scale libjpeg-turbo decodes at (codecs/src/jpeg-decode.c, dct_scale): the smallest M/8 that
 * leaves the window (the whole image unless cut) at least twice the stored size the job wants of it.
 */
export function jpegDecodeScale(header: ImageHeader, out: OutputSpec): number {
  const want = storedContent(out);
  const window = storedWindow(header, out);
  for (let m = 1; m < 8; m++) {
    if (Math.ceil((window.width * m) / 8) >= 2 * want.width && Math.ceil((window.height * m) / 8) >= 2 * want.height) return m / 8;
  }
  return 1;
}

/** The whole image at the size the decoder makes it (JPEG may scale in the DCT first; an AVIF's picture, its clean aperture cut after): its row buffers' width. */
export function decodedSize(header: ImageHeader, out: OutputSpec): { width: number; height: number } {
  if (isAvif(header)) return avifStoredSize(header);
  if (header.format !== 'jpeg') return header;
  const scale = jpegDecodeScale(header, out);
  return { width: Math.ceil(header.width * scale), height: Math.ceil(header.height * scale) };
}

/**
 * The rows the decoder hands over, as PROGRESS_DECODED counts them: a JPEG decoder only the window's rows, and its
 * columns from the iMCU column the window starts in (jpeg_crop_scanline); the others every row, whole.
 */
export function deliveredSize(header: ImageHeader, out: OutputSpec): { width: number; height: number } {
  if (header.format !== 'jpeg') return decodedSize(header, out);
  const decoded = decodedSize(header, out);
  const span = windowSpan(header, out);
  const imcu = Math.max(1, ...header.sampling.map((c) => c.h)) * 8 * jpegDecodeScale(header, out);
  const width = storedWindow(header, out).width === header.width ? decoded.width : Math.min(decoded.width, span.width + imcu);
  return { width, height: span.height };
}

/** The columns and rows of the image at the decoder's scale that the window covers (decode_scaled_span, codecs/src/engine.c). */
export function windowSpan(header: ImageHeader, out: OutputSpec): { width: number; height: number } {
  const decoded = decodedSize(header, out);
  const scale = header.format === 'jpeg' ? jpegDecodeScale(header, out) : 1;
  const window = storedWindow(header, out);
  const span = (start: number, length: number, size: number) => Math.min(size, Math.ceil((start + length) * scale)) - Math.floor(start * scale);
  return { width: span(window.left, window.width, decoded.width), height: span(window.top, window.height, decoded.height) };
}

/** The window as it reaches the resampler: at the decoder's scale, its own columns and rows only. */
function windowAtScale(header: ImageHeader, out: OutputSpec): { width: number; height: number } {
  const scale = header.format === 'jpeg' ? jpegDecodeScale(header, out) : 1;
  const window = storedWindow(header, out);
  return { width: Math.ceil(window.width * scale), height: Math.ceil(window.height * scale) };
}

type Sampling = ReadonlyArray<{ h: number; v: number }>;

/** The 8x8 blocks of one component of a JPEG, padded to its sampling factors (libjpeg's coefficient arrays). */
export function componentBlocks(width: number, height: number, sampling: Sampling, c: { h: number; v: number }): number {
  const hmax = Math.max(...sampling.map((s) => s.h));
  const vmax = Math.max(...sampling.map((s) => s.v));
  const padded = (n: number, to: number) => Math.ceil(n / to) * to;
  return padded(Math.ceil(Math.ceil((width * c.h) / hmax) / 8), c.h) * padded(Math.ceil(Math.ceil((height * c.v) / vmax) / 8), c.v);
}

/** The 8x8 blocks of every component, padded to the component's sampling factors. */
function jpegBlocks(width: number, height: number, sampling: Sampling): number {
  return sampling.reduce((sum, c) => sum + componentBlocks(width, height, sampling, c), 0);
}

/** Every coefficient of every component (libjpeg-turbo's decoder). */
function jpegCoefficientBytes(width: number, height: number, sampling: Sampling): number {
  return jpegBlocks(width, height, sampling) * TERMS.jpegCoefficientBytesPerBlock;
}

const OUTPUT_SAMPLING_420 = [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }];
const OUTPUT_SAMPLING_GREY = [{ h: 1, v: 1 }];

/** WASM bytes the decoder holds. */
function decodeBytes(header: ImageHeader, out: OutputSpec): number {
  const pixels = header.width * header.height;
  const decoded = decodedSize(header, out);
  switch (header.format) {
    case 'jpeg': {
      const hmax = Math.max(1, ...header.sampling.map((c) => c.h));
      const componentRows = header.sampling.reduce((n, c) => n + (c.h / hmax) * c.v * 8, 0);
      const rows = decoded.width * (TERMS.jpegRowBytesPerColumn + TERMS.jpegRowBytesPerComponentRow * componentRows);
      return rows + (header.coefficientsBuffered ? jpegCoefficientBytes(header.width, header.height, header.sampling) : 0);
    }
    case 'png':
      return TERMS.pngChunkCacheBytes + header.width * TERMS.pngRowBytesPerColumn + (header.interlaced ? pixels * TERMS.interlacedPngFrameBytesPerPixel : 0);
    case 'gif':
      return TERMS.gifDecoderBytes + header.width * TERMS.gifRowBytesPerColumn + (header.interlaced ? pixels * TERMS.interlacedGifBytesPerPixel : 0);
    case 'webp': {
      const file = header.fileBytes * TERMS.webpFileBytesPerFileByte;
      if (header.lossless) return file + pixels * (TERMS.webpLosslessBytesPerPixel + channels(header));
      return file + header.width * TERMS.webpLossyRowBytesPerColumn + (header.hasAlpha ? pixels * TERMS.webpLossyAlphaBytesPerPixel : 0);
    }
    case 'avif':
      return isAvif(header) ? avifDecodeBytes(header) : 0;
  }
}

/** One cell's decoder (and its alpha's), the largest cell's data and a wider grid's stripe (avif-decode.c). */
function avifDecodeBytes(header: AvifHeader): number {
  const { primary, alpha } = header.heif;
  const cell = primary.tiles[0]!;
  const full = primary.chroma === '444' || primary.chroma === '422';
  const deep = (picture: HeifPicture, full: boolean) =>
    picture.bitDepth > 8 ? (full ? TERMS.av1HighBitDepth444BytesPerCellPixel : TERMS.av1HighBitDepthBytesPerCellPixel) : 0;
  const colour = (full ? TERMS.av1Decode444BytesPerCellPixel : TERMS.av1DecodeBytesPerCellPixel) + deep(primary, full);
  const alphaPlane = alpha ? TERMS.av1DecodeBytesPerCellPixel + deep(alpha, false) : 0;
  const decoders = (alpha ? 2 : 1) * TERMS.av1DecoderBytes + cell.width * cell.height * (colour + alphaPlane);
  const cellBytes = (i: number) => [primary, ...(alpha ? [alpha] : [])].reduce((n, p) => n + p.tiles[i]!.extents.reduce((m, e) => m + e.length, 0), 0);
  const data = Math.max(...primary.tiles.map((_, i) => cellBytes(i)));
  const stripe = (primary.grid?.columns ?? 1) > 1 ? primary.width * cell.height * channels(header) * TERMS.avifStripeBytesPerSample : 0;
  return decoders + data + stripe;
}

/**
 * codecs/src/resample.c for in x in to out x out (Lanczos3: 3 input pixels each side, stretched by the
 * scale when shrinking): tap structs (12 B) and weights per output sample, one premultiplied input
 * row, a ring as tall as the widest vertical window, and an accumulator row, all float.
 */
function resamplerBytes(inW: number, inH: number, outW: number, outH: number, channels: number): number {
  if (inW === outW && inH === outH) return 0;
  const taps = (nIn: number, nOut: number) => 2 * Math.ceil(TERMS.lanczosTapsPerSide * Math.max(1, nIn / nOut)) + 1;
  const tables = (nIn: number, nOut: number) => nOut * (12 + 4 * taps(nIn, nOut));
  const ringRows = Math.min(inH, taps(inH, outH)) + 1;
  return tables(inW, outW) + tables(inH, outH) + 4 * channels * (inW + outW * (ringRows + 1)) + outW * channels;
}

/**
 * The JPEG encoder of a job, from the smallest files to the leanest memory: jpegli progressive (every
 * coefficient and token held), jpegli sequential with optimised Huffman tables (the tokens held), jpegli
 * with the standard tables (rows only; 6 to 18 % larger than optimised on corpus photos), libjpeg-turbo
 * baseline (a twentieth of jpegli's rows, for the widest images).
 */
export type JpegPlan = 'progressive' | 'optimized' | 'streaming' | 'baseline';

/** How the encoder is set up for a job; each choice trades memory for smaller files. */
export interface EncoderPlan {
  jpeg: JpegPlan;
  /** WebP with alpha: our in-place alpha coder rather than libwebp's lossless one. */
  ownWebpAlpha: boolean;
  /** WebP: libwebp's low_memory mode (no token buffer) at about 3 times the CPU. */
  webpLowMemory: boolean;
  /** Plan the output for its worst case (binary noise) rather than for photos: the tests and bench that measure the terms on noise. */
  worstCaseOutput?: boolean;
}

/** Plans from the smallest files (and fastest WebP) to the leanest memory. */
const PLANS: readonly EncoderPlan[] = [
  { jpeg: 'progressive', ownWebpAlpha: false, webpLowMemory: false },
  { jpeg: 'optimized', ownWebpAlpha: true, webpLowMemory: false },
  { jpeg: 'streaming', ownWebpAlpha: true, webpLowMemory: true },
  { jpeg: 'baseline', ownWebpAlpha: true, webpLowMemory: true },
];

/** The plan with the smallest files that fits the budget (or the leanest when none does). */
export function planEncoder(header: ImageHeader, out: OutputSpec): EncoderPlan {
  return PLANS.find((plan) => peakWith(header, out, plan) <= ENGINE_BUDGET_BYTES) ?? PLANS[PLANS.length - 1]!;
}

function jpegEncodeBytes(header: ImageHeader, out: OutputSpec, plan: JpegPlan): number {
  if (plan === 'baseline') return out.width * TERMS.jpegEncodeRowBytesPerColumn;
  const rows = out.width * TERMS.jpegliRowBytesPerColumn;
  const blocks = jpegBlocks(out.width, out.height, header.grey ? OUTPUT_SAMPLING_GREY : OUTPUT_SAMPLING_420);
  if (plan === 'progressive') return rows + blocks * TERMS.jpegliProgressiveBytesPerBlock;
  if (plan === 'optimized') return rows + blocks * TERMS.jpegliOptimizedBytesPerBlock;
  return rows;
}

/** AVIF: the stripe and one encoder (two with alpha) sized for a cell (avif-plan.ts). */
function avifEncodeBytes(header: ImageHeader, out: OutputSpec): number {
  const avif = planAvif(out.width, out.height, out.quality);
  const stripePixels = avif.columns * avif.cellWidth * avif.cellHeight;
  const cellPixels = avif.cellWidth * avif.cellHeight;
  const stripe = stripePixels * (header.grey ? TERMS.avifGreyStripeBytesPerPixel : TERMS.avifStripeBytesPerPixel);
  const cellSide = avif.cellWidth + avif.cellHeight;
  const colour = TERMS.avifEncoderBytes + cellSide * TERMS.avifEncoderBytesPerCellSide + cellPixels * along(TERMS.avifEncoderBytesPerCellPixel, avif.speed);
  const alphaEncoder = TERMS.avifAlphaEncoderBytes + cellSide * TERMS.avifAlphaEncoderBytesPerCellSide + cellPixels * TERMS.avifAlphaEncoderBytesPerCellPixel;
  const alpha = header.hasAlpha ? stripePixels * TERMS.avifAlphaStripeBytesPerPixel + alphaEncoder : 0;
  return out.width * TERMS.avifRowBytesPerColumn + stripe + colour + alpha;
}

function encodeBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const pixels = out.width * out.height;
  switch (out.format) {
    case 'jpeg':
      return jpegEncodeBytes(header, out, plan.jpeg);
    case 'png': {
      const trialFrame = pixels <= 1_000_000 ? pixels * channels(header) * TERMS.pngTrialFrameBytesPerSample : 0;
      return out.width * TERMS.pngEncodeRowBytesPerColumn + TERMS.pngEncoderBytes + trialFrame + (out.quality < 100 ? TERMS.lossyPngBytes : 0);
    }
    case 'avif':
      return avifEncodeBytes(header, out);
    case 'webp': {
      const colour = plannedColourBytes(header, out, plan);
      const tokens = plan.webpLowMemory ? 0 : colour * TERMS.webpTokensPerPlannedByte;
      const picture = pixels * TERMS.webpPictureBytesPerPixel + colour * TERMS.webpBitstreamPerPlannedByte + tokens;
      if (!header.hasAlpha) return out.width * TERMS.webpEncodeRowBytesPerColumn + picture;
      const alpha = plan.ownWebpAlpha ? pixels * TERMS.webpOwnAlphaBytesPerPixel : TERMS.webpLibwebpAlphaBytes + pixels * TERMS.webpLibwebpAlphaBytesPerPixel;
      return out.width * TERMS.webpEncodeRowBytesPerColumn + picture + pixels * TERMS.webpAlphaPlaneBytesPerPixel + alpha;
    }
  }
}

/** Rotating or flipping vertically (orientations 3 to 8) needs the whole scaled window; 2 mirrors rows. */
function orientBytes(header: ImageHeader, out: OutputSpec): number {
  if ((out.orientation ?? 1) <= 2) return 0;
  const content = storedContent(out);
  return content.width * content.height * channels(header) * TERMS.orientationFrameBytesPerSample;
}

/** pad's margins (codecs/src/frame.c): a row of background and the row being filled, of the output's width, RGBA at most. */
function padBytes(out: OutputSpec): number {
  return out.placed ? 2 * out.width * 4 : 0;
}

/** WASM memory of the job: every term at once (the model does not rely on one part freeing before the next). */
function wasmPeakBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  if (out.animated) return animatedWasmBytes(header, out, plan);
  if (out.recode) return TERMS.baseBytes + jpegCoefficientBytes(header.width, header.height, header.sampling) + TERMS.jpegRecodeBytes;
  const window = windowAtScale(header, out);
  const content = storedContent(out);
  return (
    TERMS.baseBytes +
    decodeBytes(header, out) +
    resamplerBytes(window.width, window.height, content.width, content.height, channels(header)) +
    orientBytes(header, out) +
    padBytes(out) +
    encodeBytes(header, out, plan)
  );
}

/** An animated GIF to animated WebP: the screen and its disposal copy, each frame's resampling, the animation encoder and its file. */
function animatedWasmBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const window = windowAtScale(header, out);
  const content = storedContent(out);
  return (
    TERMS.baseBytes +
    TERMS.gifDecoderBytes +
    header.width * header.height * TERMS.animatedGifScreenBytesPerPixel +
    resamplerBytes(window.width, window.height, content.width, content.height, 4) +
    padBytes(out) +
    TERMS.animatedWebpBytes +
    out.width * out.height * TERMS.animatedWebpBytesPerPixel +
    plannedOutputBytes(header, out, plan) * TERMS.animatedOutputCopies
  );
}

/**
 * JS buffers of the job: the output as planned, and after the job the copies the pipeline may make:
 * the output again with a carried profile (and the profile), the original stripped of metadata when
 * it goes back instead (never-larger: same format and size).
 */
function jsBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const output = plannedOutputBytes(header, out, plan);
  const iccBytes = out.iccBytes ?? 0;
  const carried = iccBytes > 0 ? output * TERMS.profileCopiesOfOutput + iccBytes * TERMS.profileCopiesOfProfile : 0;
  const sameSize = out.width === ((out.orientation ?? 1) >= 5 ? header.height : header.width);
  // An animation for auto may go back as the GIF, stripped.
  const original = (out.format === header.format && sameSize) || out.animated ? header.fileBytes : 0;
  // An AVIF goes to the engine as its AV1 data, copied out of the file (avif-input.ts).
  const framed = isAvif(header) ? header.fileBytes : 0;
  return output + carried + original + framed;
}

function peakWith(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  return wasmPeakBytes(header, out, plan) + jsBytes(header, out, plan);
}

/** The attention's rows (codecs/src/attention.c) for rows of `width`: three of luma (float), two of colour, and each column's cell. */
const attentionRowBytes = (width: number) => width * (3 * 4 + 2 * 3 + 4);

/** gravity=auto's job (codecs/src/attention.c): the image decoded as small as its decoder can, and the attention's rows. */
export function attentionPeakBytes(header: ImageHeader): number {
  const out = attentionDecode(header);
  const decoded = decodedSize(header, out);
  return Math.ceil(TERMS.baseBytes + decodeBytes(header, out) + attentionRowBytes(decoded.width) + 64 * 1024);
}

/**
 * gravity=auto in the transcode (codecs/src/engine.c attend_in_job): the whole image as decoded at the window's
 * scale, kept (1 B a sample), and the attention's rows beside, with its row of column sums (2 B a sample) and the
 * reduced row when a JPEG decoded above 1/8 is scored as at 1/8.
 */
function keptImageBytes(header: ImageHeader, out: OutputSpec): number {
  const decoded = decodedSize(header, out);
  const samples = channels(header);
  return decoded.width * decoded.height * samples + attentionRowBytes(decoded.width) + decoded.width * samples * 3;
}

/**
 * gravity=auto is done in the transcode, on one decode, where the image kept for it fits the budget beside the job,
 * and a JPEG is decoded at a DCT scale: at full scale the kept image is the whole photo, and its 8x8 boxes (upsampled
 * chroma, clamped pixels) are further from the 1/8 decode the attention was chosen on (one of 238 corpus cuts moved).
 */
export function subjectInJob(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): boolean {
  // An animation's frames are many decodes: the attention job places the window on its first.
  if (out.animated) return false;
  if (header.format === 'jpeg' && jpegDecodeScale(header, out) === 1) return false;
  return peakWith(header, out, plan) + keptImageBytes(header, out) <= ENGINE_BUDGET_BYTES;
}

/** gravity=auto's peak: in the transcode, the job's and the kept image; else the attention job's or the transcode's, the larger. */
export function subjectPeakBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  if (subjectInJob(header, out, plan)) return Math.ceil(peakWith(header, out, plan) + keptImageBytes(header, out));
  return Math.max(attentionPeakBytes(header), estimatePeakBytes(header, out, plan));
}

/** What the attention job asks of the decoder: a size so small that a JPEG is decoded at 1/8. */
export function attentionDecode(header: ImageHeader): OutputSpec {
  return { format: header.format === 'gif' ? 'png' : header.format, quality: 100, width: 1, height: 1 };
}

/**
 * Peak bytes of a job, from the header alone, with the encoder plan the engine will use (when the
 * smallest files would not fit, the leaner plan's estimate is the one that counts), or with a given one.
 */
export function estimatePeakBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan = planEncoder(header, out)): number {
  return Math.ceil(peakWith(header, out, plan));
}

/**
 * After a job whose instance grew its memory past this, the instance is retired (engine-memory.ts), so
 * a large job's memory can go back to the isolate while the usual jobs keep one warm instance.
 * Measured: heap tops of the corpus's 670 jobs (every image to its own format, WebP and JPEG at q80):
 * median 1.3 MiB, 95 % under 15.3, 99 % under 30.6, the largest 50.3 (a 4 MP photo to mozjpeg, since retired).
 */
export const RETIRE_AFTER_BYTES = 32 * MiB;
