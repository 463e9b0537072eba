import { changedFramePixels } from '../steps/frame-area';
import { type GifHeader, type ImageHeader, isAvif, isGifHeader, type OutputSpec } from '../types';
import {
  PROGRESS_ALPHA_PERCENT,
  PROGRESS_DECODED,
  PROGRESS_ENCODED,
  PROGRESS_ENCODER_PERCENT,
  PROGRESS_ENCODER_STEP,
  PROGRESS_FRAME_DECODED,
  PROGRESS_HUFFMAN_TABLE,
  PROGRESS_INPUT,
  PROGRESS_SCANNED,
} from './abi';
import { planAvif } from './avif-plan';
import { storedWindow } from '../steps/geometry';
import {
  type EncoderPlan,
  type JpegPlan,
  attentionDecode,
  componentBlocks,
  decodedSize,
  deliveredSize,
  jpegDecodeScale,
  storedContent,
  windowSpan,
} from './memory-model';

/**
 * The engine's CPU model, beside its memory model: the work of one job predicted from the header as
 * megapixels times passes times a cost per megapixel, in milliseconds of this machine's CPU (WASM on
 * Node 22, measured by the bench's jobs on 2 MP uniform noise, the slowest content for every encoder,
 * with a margin). The pipeline refuses a request whose jobs would pass its plan's budget
 * (src/limits/cpu.ts). Each term says where it was measured.
 */
const CPU_TERMS = {
  /** Baseline JPEG decoding at full scale; at a DCT scale M/8 the inverse DCT shrinks, Huffman decoding does not. Measured: 50 ms/MP full, 16 at 1/8. */
  jpegDecodeMsPerMp: 60,
  jpegHuffmanMsPerMp: 20,
  /** Progressive input is decoded scan by scan into the coefficient buffer first. Measured: 58 ms/MP at 1/8. */
  progressiveJpegExtraMsPerMp: 50,
  /**
   * Into the coefficient buffer every scan visits every block of its components, however few bytes it has
   * (the header counts them: scanBlocks). Measured: 8 to 14 ns a block on 100 to 200 copies of one AC scan
   * coded as EOB runs (4000x4000 grey, issue 19's scan bomb).
   */
  jpegScanMsPerMillionBlocks: 20,
  /** An AC refinement scan visits every coefficient of its band in each block (refinedCoefficients). Measured: 1.3 ns each. */
  jpegRefineMsPerMillionCoefficients: 2.5,
  /**
   * The lossless re-coding (jpeg-recode.c): the input's scans read into the coefficient buffer as a buffered
   * file's are (scanMs), then libjpeg-turbo's progressive encoder with optimised Huffman tables passes over
   * the blocks (recodeBlockVisits). Measured per block a pass visits, less the scans' terms: 280 to 370 ns on
   * 3 MP noise at q100 (4:4:4, 4:2:0, grey, baseline and progressive; the machine at load 8), about half on
   * the development set's photos.
   */
  jpegRecodeMsPerMillionBlockVisits: 400,
  /** libspng: inflate, unfilter, RGBA8 rows. Measured: 77 ms/MP on noise, resampling included. */
  pngDecodeMsPerMp: 100,
  /** Adam7: seven passes assembled into a frame. */
  interlacedPngExtraMsPerMp: 40,
  /**
   * giflib: LZW per pixel of the first frame it decodes (PROGRESS_FRAME_DECODED: every row it reads, each whole), and
   * the palette lookup per pixel of the screen's rows handed on.
   */
  gifLzwMsPerMp: 60,
  gifRowsMsPerMp: 20,
  /**
   * libwebp's animation encoder, per megapixel of each frame's output canvas: its comparison of the frame with the
   * canvas before it (the changed rectangle, pixels made transparent where unchanged), the rectangle's lossy encoding
   * and its alpha's; reported as percents of each encoding (codecs/src/webp-encode.c, every picture). Measured: 290
   * ms/MP on a 800x600 photo panning over 100 frames at q80 (every frame changed whole); the still encoder's noise
   * figure, as each frame is libwebp's lossy encoding at the same settings. Per megapixel of the part of the canvas a
   * frame can change (changedFramePixels, scaled to the output); its comparisons and copies per pixel of every
   * frame's whole canvas.
   */
  animatedWebpMsPerMp: 650,
  animatedCanvasMsPerMp: 30,
  /** libwebp's VP8 and VP8L decoders. Measured: 217 ms/MP lossy (2 MP, q90). */
  webpDecodeMsPerMp: 250,
  /**
   * libaom's AV1 decoder (avif-decode.c), per megapixel of the cells it decodes (an alpha plane's too), the
   * conversion to RGB rows included, and per byte of AV1 data it reads. Measured (WASM with libaom's SIMD,
   * JPEG output included): 1 MP binary noise 215 ms at 0.2 MB, 323 at 1.2 MB (4:2:0), 452 at 2.5 MB (4:4:4),
   * 498 with alpha (2 MP of cells, 2.7 MB); photos 60 to 70 ms/MP (12 and 24 MP).
   */
  avifDecodeMsPerMp: 250,
  avifInputMsPerMb: 150,
  /**
   * The separable resampler, per megapixel reaching it or leaving it, whichever is more (enlarging filters each
   * output sample). Measured: within the decode figures above, about 20 ms/MP.
   */
  resampleMsPerMp: 30,
  /** gravity=auto's scoring (codecs/src/attention.c), per megapixel decoded (a JPEG's at 1/8): a Laplacian, saturation and a skin distance a pixel. */
  attentionMsPerMp: 100,
  /** gravity=auto in the transcode: each decoded pixel kept, and summed into the attention's boxes (codecs/src/engine.c keep). */
  keptImageMsPerMp: 10,
  /**
   * Encoders, per megapixel of output. Measured on 2 MP noise at q80. jpegli against libjpeg-turbo in one run
   * (decode included, q80 and q100, the larger): progressive 49 ms/MP where libjpeg-turbo's progressive took
   * 81 (its term was 300), optimised 19 and streaming 18 where libjpeg-turbo baseline took 19.
   */
  jpegBaselineEncodeMsPerMp: 100,
  jpegliProgressiveEncodeMsPerMp: 200,
  jpegliOptimizedEncodeMsPerMp: 120,
  jpegliStreamingEncodeMsPerMp: 100,
  webpEncodeMsPerMp: 650,
  webpLowMemoryEncodeMsPerMp: 1000,
  /** Lossless PNG: zlib level 9 up to 4.5 MP of output, level 6 above (png-encode.c). Measured: 1576 ms/MP at level 9 (photo). */
  pngLevel9EncodeMsPerMp: 1700,
  pngLevel6EncodeMsPerMp: 600,
  /** Lossy PNG: histogram, palette, dithering, deflate. Measured: 1139 ms/MP (2 MP photo with alpha). */
  lossyPngEncodeMsPerMp: 1300,
  /** Up to 1 MP of PNG output the strategy trials deflate the buffered frame again. Measured: 5200 ms/MP lossless, 1200 lossy. */
  pngLosslessTrialsMsPerMp: 5600,
  pngLossyTrialsMsPerMp: 1300,
  /**
   * AVIF: libaom per megapixel of the cells coded (the grid's padding included), by speed (4:4:4, tune=iq), and
   * its lossless alpha (speed 9) beside. Measured with libaom's SIMD on 1 MP of uniform and binary noise, qualities
   * 30 to 100, PNG decoding included, the slowest: 1928 ms/MP at speed 6, 1297 at 7, 1037 at 8, 510 at 9; alpha up
   * to 750 more (uniform noise). Without SIMD they were 5044, 2887, 2285 and 688.
   */
  avifEncodeMsPerMpBySpeed: { 6: 2200, 7: 1500, 8: 1200, 9: 600 } as Record<number, number>,
  avifAlphaEncodeMsPerMp: 900,
  /**
   * Reading is work (decisions.md): every byte a decoder reads (PROGRESS_INPUT) is charged at the most a
   * byte was measured to cost, on input that makes the decoder work without rows (bench/input-work.mjs, the
   * machine loaded by a build: docs/benchmarks.md). PNG: empty dynamic-Huffman deflate blocks, 158 to 183
   * ns a byte in IDAT, iCCP and zTXt alike. JPEG: fill bytes, 2.0 ns. Lossless WebP: the bytes handed to
   * libwebp, whose costly part, its Huffman tables, is counted apart (1.7 ns a unit, 65,536 groups of a
   * 16x16 file taking 1.1 s); the rest of its reading is charged as JPEG's.
   */
  pngInputMsPerMb: 250,
  jpegInputMsPerMb: 5,
  webpLosslessInputMsPerMb: 5,
  /** GIF: the bytes giflib reads (clear codes make no pixels). */
  gifInputMsPerMb: 20,
  /** VP8L's Huffman tables, per million symbols and root entries (PROGRESS_HUFFMAN_TABLE). */
  huffmanTableMsPerMillion: 2.5,
} as const;

/**
 * The share of an encoder's work done as its rows arrive (reported per row); the rest comes after the last
 * row, reported in steps (libwebp's macroblocks, progressive jpegli's block rows), and for a WebP whose
 * alpha libwebp codes losslessly, that coder's share, reported in percent. The shares only spread the
 * predicted work over the job, so that the engine hands the event loop back every so much of it: the bench
 * measures the longest hold they leave (docs/benchmarks.md). Measured on 1 MP noise at q90: libwebp's
 * alpha coder took 170 to 360 ms of 450 to 630.
 */
const ENCODER_ROW_SHARE = { progressive: 0.5, optimized: 1, streaming: 1, baseline: 1, webp: 0.05, png: 1, avif: 0.02 } as const;
const WEBP_LOSSLESS_ALPHA_SHARE = 0.4;
/** Adam7 PNG, lossless WebP and AVIF decode into a whole frame (reported as they go), then hand its rows on. */
const FRAME_DECODE_SHARE = 0.8;

const JPEG_ENCODE_MS_PER_MP: Record<JpegPlan, number> = {
  progressive: CPU_TERMS.jpegliProgressiveEncodeMsPerMp,
  optimized: CPU_TERMS.jpegliOptimizedEncodeMsPerMp,
  streaming: CPU_TERMS.jpegliStreamingEncodeMsPerMp,
  baseline: CPU_TERMS.jpegBaselineEncodeMsPerMp,
};

const MP = 1e6;

/**
 * Decoding into rows, per pass: what the decoder does as it hands each row on (not a JPEG's scans into its coefficient
 * buffer); `whole`: every row and column at the window's scale (gravity=auto in the transcode).
 */
function decodeRowsMs(header: ImageHeader, out: OutputSpec, whole = false): number {
  const mp = (header.width * header.height) / MP;
  switch (header.format) {
    case 'jpeg': {
      // Huffman decoding down to the window's last row (those below are never read); the inverse DCT of its blocks only.
      const window = whole ? storedWindow(header, {}) : storedWindow(header, out);
      const read = (header.width * (window.top + window.height)) / MP;
      const scale = jpegDecodeScale(header, out);
      const idct = ((CPU_TERMS.jpegDecodeMsPerMp - CPU_TERMS.jpegHuffmanMsPerMp) * scale * scale * window.width * window.height) / MP;
      // A buffered file's Huffman decoding happens in its scans (scanMs).
      return (header.coefficientsBuffered ? 0 : read * CPU_TERMS.jpegHuffmanMsPerMp) + idct;
    }
    case 'png':
      return mp * (CPU_TERMS.pngDecodeMsPerMp + (header.interlaced ? CPU_TERMS.interlacedPngExtraMsPerMp : 0));
    case 'webp':
      return mp * CPU_TERMS.webpDecodeMsPerMp;
    case 'avif':
      return (frameUnits(header) / MP) * CPU_TERMS.avifDecodeMsPerMp;
    case 'gif':
      return mp * CPU_TERMS.gifRowsMsPerMp + frameDecodeMs(header, 0);
  }
}

/**
 * The pixels a decoder reports as it decodes into a whole frame (PROGRESS_FRAME_DECODED): an AVIF's every cell,
 * its alpha plane's too, as libaom reads their blocks; the GIF pixels giflib decodes (its first frame's every line
 * it reads, whole); the image's for the others.
 */
function frameUnits(header: ImageHeader): number {
  if (isGifHeader(header)) return Math.max(1, header.gif.firstDecodedPixels);
  if (!isAvif(header)) return header.width * header.height;
  const { primary, alpha } = header.heif;
  const cells = [...primary.tiles, ...(alpha?.tiles ?? [])];
  return cells.reduce((n, cell) => n + cell.width * cell.height, 0);
}

/** Decoders that decode into a whole frame before its rows go on. */
const decodesFrame = (header: ImageHeader) => (header.format === 'png' && header.interlaced) || (header.format === 'webp' && header.lossless) || header.format === 'avif';

/** The part of a pass's `decode` reported as PROGRESS_FRAME_DECODED: a whole frame's share, or a GIF's LZW. */
function frameDecodeMs(header: ImageHeader, decode: number): number {
  if (isGifHeader(header)) return (header.gif.firstDecodedPixels / MP) * CPU_TERMS.gifLzwMsPerMp;
  return decodesFrame(header) ? decode * FRAME_DECODE_SHARE : 0;
}

/** The input's bytes as the decoder reads them (once a pass), in model milliseconds a byte: lossy WebP is copied whole, not read as work. */
function inputMsPerByte(header: ImageHeader): number {
  switch (header.format) {
    case 'png':
      return CPU_TERMS.pngInputMsPerMb / MP;
    case 'jpeg':
      return CPU_TERMS.jpegInputMsPerMb / MP;
    case 'webp':
      return header.lossless ? CPU_TERMS.webpLosslessInputMsPerMb / MP : 0;
    case 'avif':
      return CPU_TERMS.avifInputMsPerMb / MP;
    case 'gif':
      return CPU_TERMS.gifInputMsPerMb / MP;
  }
}

/** The kinds of work any decoding counts beside its rows: the input it reads and VP8L's Huffman tables. */
function readingMsPerUnit(header: ImageHeader): Record<number, number> {
  return { [PROGRESS_INPUT]: inputMsPerByte(header), [PROGRESS_HUFFMAN_TABLE]: CPU_TERMS.huffmanTableMsPerMillion / 1e6 };
}

/**
 * VP8L's Huffman tables as an honest file has them: libwebp's encoder writes at most 2,600 groups, one per
 * pixel of an entropy image of 4x4-pixel blocks or larger (vp8l_enc.c MAX_HUFF_IMAGE_SIZE), and up to five
 * sub-images' codes beside; a group's five codes count at most 5,151 units (alphabets of 2,328 with an 11-bit
 * colour cache, 256, 256, 256 and 40; a 256-entry root table each; a code-length code of 19 symbols and 128
 * entries each), and the incremental decoder may read the header twice. A lossy WebP's alpha plane is VP8L.
 */
function huffmanTableUnits(header: ImageHeader): number {
  if (header.format !== 'webp' || !(header.lossless || header.hasAlpha)) return 0;
  const groups = Math.min(2600, Math.ceil(header.width / 4) * Math.ceil(header.height / 4)) + 5;
  return 2 * groups * 5151;
}

/** Reading, per pass: the input's bytes and the Huffman tables an honest file has. */
const readingMs = (header: ImageHeader) =>
  header.fileBytes * inputMsPerByte(header) + (huffmanTableUnits(header) * CPU_TERMS.huffmanTableMsPerMillion) / 1e6;

/** A JPEG that holds its coefficients (or is re-coded) reads its scans into them first, per pass: the data, and every block each scan visits. */
function scanMs(header: ImageHeader, recode = false): number {
  if (header.format !== 'jpeg' || !(header.coefficientsBuffered || recode)) return 0;
  const mp = (header.width * header.height) / MP;
  return (
    mp * (CPU_TERMS.jpegHuffmanMsPerMp + CPU_TERMS.progressiveJpegExtraMsPerMp) +
    (header.scanBlocks * CPU_TERMS.jpegScanMsPerMillionBlocks + header.refinedCoefficients * CPU_TERMS.jpegRefineMsPerMillionCoefficients) / 1e6
  );
}

function encodeMs(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const mp = (out.width * out.height) / MP;
  switch (out.format) {
    case 'jpeg':
      return mp * JPEG_ENCODE_MS_PER_MP[plan.jpeg];
    case 'webp':
      return mp * (plan.webpLowMemory ? CPU_TERMS.webpLowMemoryEncodeMsPerMp : CPU_TERMS.webpEncodeMsPerMp);
    case 'avif': {
      const avif = planAvif(out.width, out.height, out.quality);
      const coded = (avif.columns * avif.cellWidth * avif.rows * avif.cellHeight) / MP;
      return coded * (CPU_TERMS.avifEncodeMsPerMpBySpeed[avif.speed]! + (header.hasAlpha ? CPU_TERMS.avifAlphaEncodeMsPerMp : 0));
    }
    case 'png': {
      const lossy = out.quality < 100;
      const write = lossy ? CPU_TERMS.lossyPngEncodeMsPerMp : mp > 4.5 ? CPU_TERMS.pngLevel6EncodeMsPerMp : CPU_TERMS.pngLevel9EncodeMsPerMp;
      const trials = mp <= 1 ? (lossy ? CPU_TERMS.pngLossyTrialsMsPerMp : CPU_TERMS.pngLosslessTrialsMsPerMp) : 0;
      return mp * (write + trials);
    }
  }
}

/**
 * Rows the encoder takes in per output pixel: PNG output of 1 MP or less deflates it in trial passes
 * (codecs/src/engine.c), those with zlib's fast strategies (Huffman-only, RLE) counted a quarter.
 */
function encoderRowPasses(out: OutputSpec): number {
  if (out.format !== 'png' || out.width * out.height > MP) return 1;
  // Lossless: four strategies (two fast) and the write. Lossy at most: two fast counts, two exact ones, the four strategies if lossless wins, the write.
  return out.quality < 100 ? 0.5 + 2 + 2.5 + 1 : 2.5 + 1;
}

/** codecs/src/webp-encode.c: a macroblock after libwebp's analysis pass counts this many steps. */
const WEBP_ENCODE_STEPS = 4;

/** codecs/src/avif-encode.c: libaom reports a cell's 64x64 blocks as it codes them (2 or 3 steps each), as its CDEF search visits them (1, at speed 6) and as it writes them (1). */
const AVIF_STEPS_PER_BLOCK = 4;

/** jpegli's progressive script (progressive level 2): a DC scan and four AC scans of each component. */
const JPEGLI_SCANS_PER_COMPONENT = 5;

/**
 * The encoder's steps after its rows (codecs/src/progress.h): libwebp's macroblocks in each pass (an analysis
 * and, as a rule, one encoding pass, two in low_memory; more on some content and sizes, which is why they only
 * pace the hand-backs), progressive jpegli's block rows read from its
 * coefficient buffer, once as the rows store them and once per scan as it tokenises them.
 */
function encoderSteps(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  // AVIF: AVIF_STEPS_PER_BLOCK for each 64x64 block of each coded cell (avif-encode.c), its alpha cell's too.
  if (out.format === 'avif') {
    const avif = planAvif(out.width, out.height, out.quality);
    const blocks = Math.ceil(avif.cellWidth / 64) * Math.ceil(avif.cellHeight / 64);
    return avif.columns * avif.rows * blocks * AVIF_STEPS_PER_BLOCK * (header.hasAlpha ? 2 : 1);
  }
  // The analysis pass, then one pass (two in low_memory) counted WEBP_ENCODE_STEPS a macroblock.
  if (out.format === 'webp') return (1 + WEBP_ENCODE_STEPS * (plan.webpLowMemory ? 2 : 1)) * Math.ceil(out.width / 16) * Math.ceil(out.height / 16);
  if (out.format !== 'jpeg' || plan.jpeg !== 'progressive') return 0;
  // 4:2:0 (luma, then two chroma at half height) or grey; block rows padded to the MCU.
  const mcuRows = Math.ceil(out.height / (header.grey ? 8 : 16));
  const blockRows = header.grey ? mcuRows : 2 * mcuRows + 2 * mcuRows;
  return blockRows * (1 + JPEGLI_SCANS_PER_COMPONENT);
}

function encoderRowShare(out: OutputSpec, plan: EncoderPlan): number {
  return ENCODER_ROW_SHARE[out.format === 'jpeg' ? plan.jpeg : out.format];
}

/**
 * A job's predicted work: its CPU milliseconds, and the model milliseconds each unit of each kind of
 * reported progress stands for. Kinds in `timingOnly` only pace the hand-backs: their count is not the
 * header's to predict (libwebp's passes over the macroblocks depend on the content and the size; its
 * percent is the work counted instead).
 */
export interface JobWork {
  ms: number;
  msPerUnit: Readonly<Record<number, number>>;
  timingOnly?: readonly number[];
}

/**
 * The passes libjpeg-turbo's encoder makes over each component's blocks in the re-coding's script (simple
 * progression, optimised Huffman tables): each scan twice (statistics, then output), but the DC refinement,
 * which needs no table, once. YCbCr luma and grey are in six scans (DC, AC 1-5, AC 6-63, three refinements),
 * each chroma in four (DC, AC 1-63, two refinements).
 */
const RECODE_PASSES_LUMA = 11;
const RECODE_PASSES_CHROMA = 7;

/** The blocks the re-coding's encoder visits (codecs/src/jpeg-recode.c reports them as it goes), from the header. */
export function recodeBlockVisits(header: ImageHeader): number {
  return header.sampling.reduce(
    (sum, component, c) => sum + componentBlocks(header.width, header.height, header.sampling, component) * (c === 0 ? RECODE_PASSES_LUMA : RECODE_PASSES_CHROMA),
    0,
  );
}

/**
 * The lossless re-coding: no pixels, no rows; the input's scans read whole, then the coefficients written
 * in the encoder's scans (PROGRESS_SCANNED, then PROGRESS_ENCODER_STEP per block visited).
 */
function recodeWork(header: ImageHeader): JobWork {
  const scans = scanMs(header, true);
  const visits = recodeBlockVisits(header);
  const write = (visits * CPU_TERMS.jpegRecodeMsPerMillionBlockVisits) / 1e6;
  return {
    ms: scans + write + readingMs(header),
    msPerUnit: { ...readingMsPerUnit(header), [PROGRESS_SCANNED]: scans / Math.max(1, header.scanBlocks), [PROGRESS_ENCODER_STEP]: write / Math.max(1, visits) },
  };
}

/**
 * Predicted work of a job. PNG output decodes the input twice (a pass to count colours, one to write) above
 * 1 MP; up to 1 MP it decodes once into a frame at output size and every further pass replays that frame
 * (codecs/src/engine.c), so the input's size is paid once. The engine counts the work its stages report
 * against this (job-watch.ts): an honest job's count comes to about `ms`.
 */
/** The percents libwebp reports of a frame's encodings: the frame's own and its alpha's (codecs/src/webp-encode.c). */
const ANIMATED_PERCENTS_PER_FRAME = 200;

/**
 * An animated GIF to animated WebP (codecs/src/gif-decode.c decode_frames): every line of every frame decoded, the
 * screen handed on after each (resampled where asked), and each frame's canvas encoded.
 */
function animatedWork(header: GifHeader, out: OutputSpec): JobWork {
  const frames = header.gif.frameCount;
  const decoded = header.gif.decodedPixels;
  const screen = header.width * header.height;
  const window = storedWindow(header, out);
  const content = storedContent(out);
  const canvas = out.width * out.height;
  const resized = window.width * window.height !== content.width * content.height;
  const lzw = (decoded / MP) * CPU_TERMS.gifLzwMsPerMp;
  const rows = ((frames * screen) / MP) * CPU_TERMS.gifRowsMsPerMp + (resized ? ((frames * Math.max(window.width * window.height, content.width * content.height)) / MP) * CPU_TERMS.resampleMsPerMp : 0);
  const changed = (changedFramePixels(header.gif, screen) * canvas) / screen;
  const encode = (changed / MP) * CPU_TERMS.animatedWebpMsPerMp + ((frames * canvas) / MP) * CPU_TERMS.animatedCanvasMsPerMp;
  const rowShare = ENCODER_ROW_SHARE.webp;
  return {
    ms: lzw + rows + encode + readingMs(header),
    msPerUnit: {
      ...readingMsPerUnit(header),
      [PROGRESS_FRAME_DECODED]: lzw / Math.max(1, decoded),
      [PROGRESS_DECODED]: rows / Math.max(1, frames * screen),
      [PROGRESS_ENCODED]: (encode * rowShare) / Math.max(1, frames * canvas),
      [PROGRESS_ENCODER_PERCENT]: (encode * (1 - rowShare)) / (frames * ANIMATED_PERCENTS_PER_FRAME),
    },
  };
}

export function jobWork(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): JobWork {
  if (out.recode) return recodeWork(header);
  if (out.animated && isGifHeader(header)) return animatedWork(header, out);
  const outPixels = out.width * out.height;
  const delivered = deliveredSize(header, out);
  const window = storedWindow(header, out);
  const content = storedContent(out);
  const scale = header.format === 'jpeg' ? jpegDecodeScale(header, out) : 1;
  const windowPixels = Math.ceil(window.width * scale) * Math.ceil(window.height * scale);
  const resized = windowPixels !== content.width * content.height;
  const decodePasses = out.format === 'png' && outPixels > MP ? 2 : 1;
  const resample = resized ? (Math.max(windowPixels, content.width * content.height) / MP) * CPU_TERMS.resampleMsPerMp : 0;
  const decode = decodeRowsMs(header, out);
  const frame = frameDecodeMs(header, decode);
  const rows = decode - frame + resample;
  const scans = scanMs(header);
  const encode = encodeMs(header, out, plan);
  const rowShare = encoderRowShare(out, plan);
  const alphaShare = out.format === 'webp' && header.hasAlpha && !plan.ownWebpAlpha ? WEBP_LOSSLESS_ALPHA_SHARE : 0;
  const steps = encoderSteps(header, out, plan);
  return {
    ms: decodePasses * (frame + rows + scans + readingMs(header)) + encode,
    msPerUnit: {
      ...readingMsPerUnit(header),
      [PROGRESS_FRAME_DECODED]: frame / frameUnits(header),
      [PROGRESS_DECODED]: rows / (delivered.width * delivered.height),
      [PROGRESS_SCANNED]: scans / Math.max(1, header.scanBlocks),
      [PROGRESS_ENCODED]: (encode * rowShare) / (outPixels * encoderRowPasses(out)),
      [PROGRESS_ENCODER_STEP]: steps > 0 ? (encode * (1 - rowShare - alphaShare)) / steps : 0,
      [PROGRESS_ENCODER_PERCENT]: (encode * (1 - rowShare - alphaShare)) / 100,
      [PROGRESS_ALPHA_PERCENT]: (encode * alphaShare) / 100,
    },
    timingOnly: out.format === 'webp' ? [PROGRESS_ENCODER_STEP] : [],
  };
}

/** gravity=auto's job: the image decoded as small as its decoder can and scored, a pixel at a time (codecs/src/attention.c). */
export function attentionWork(header: ImageHeader): JobWork {
  const out = attentionDecode(header);
  const decoded = decodedSize(header, out);
  const decode = decodeRowsMs(header, out);
  const frame = frameDecodeMs(header, decode);
  const rows = decode - frame + ((decoded.width * decoded.height) / MP) * CPU_TERMS.attentionMsPerMp;
  const scans = scanMs(header);
  return {
    ms: frame + rows + scans + readingMs(header),
    msPerUnit: {
      ...readingMsPerUnit(header),
      [PROGRESS_FRAME_DECODED]: frame / frameUnits(header),
      [PROGRESS_DECODED]: rows / (decoded.width * decoded.height),
      [PROGRESS_SCANNED]: scans / Math.max(1, header.scanBlocks),
    },
  };
}

/**
 * auto's measured look: our metric in JS on two windows (steps/look-metric.ts), per million pixels of the window.
 * Measured: 1,800 ms/MP with the machine at load 6 on two cores (bench/look-calibrate.mjs's machine), about 700 alone.
 */
const LOOK_METRIC_MS_PER_MP = 1000;

/** A candidate's window decoded for its look: as the candidate's format decodes (a WebP's or AVIF's whole frame, all of it). */
const CANDIDATE_DECODE_MS_PER_MP: Record<'jpeg' | 'png' | 'webp' | 'avif', number> = {
  jpeg: CPU_TERMS.jpegDecodeMsPerMp,
  png: CPU_TERMS.pngDecodeMsPerMp,
  webp: CPU_TERMS.webpDecodeMsPerMp,
  avif: CPU_TERMS.avifDecodeMsPerMp,
};

/** One candidate's look (steps/one-look.ts): its window decoded from an image of `pixels` in `format`, and the metric on the window. */
export function candidateLookMs(format: 'jpeg' | 'png' | 'webp' | 'avif', pixels: number, windowPixels: number): number {
  return Math.ceil(((pixels * CANDIDATE_DECODE_MS_PER_MP[format]) / MP) + (windowPixels * LOOK_METRIC_MS_PER_MP) / MP);
}

/** auto's measured look (steps/one-look.ts): the window of `out` decoded to RGB rows (FORMAT_RAW), nothing encoded. */
export function windowWork(header: ImageHeader, out: OutputSpec): JobWork {
  const delivered = deliveredSize(header, out);
  const decode = decodeRowsMs(header, out);
  const frame = frameDecodeMs(header, decode);
  const scans = scanMs(header);
  return {
    ms: decode + scans + readingMs(header),
    msPerUnit: {
      ...readingMsPerUnit(header),
      [PROGRESS_FRAME_DECODED]: frame / frameUnits(header),
      [PROGRESS_DECODED]: (decode - frame) / (delivered.width * delivered.height),
      [PROGRESS_SCANNED]: scans / Math.max(1, header.scanBlocks),
    },
  };
}

/**
 * gravity=auto in the transcode (codecs/src/engine.c attend_in_job): the job's work, its decoding of the window's rows
 * replaced by the whole image's (kept and scored at the attention's scale); the kept image's window replayed is
 * counted as decoded rows again, at the resampler's cost in the job's own.
 */
export function subjectInJobWork(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): JobWork {
  const work = jobWork(header, out, plan);
  const decoded = decodedSize(header, out);
  const reduce = header.format === 'jpeg' ? jpegDecodeScale(header, out) * 8 : 1;
  const scored = Math.ceil(decoded.width / reduce) * Math.ceil(decoded.height / reduce);
  const extra =
    decodeRowsMs(header, out, true) -
    decodeRowsMs(header, out) +
    (scored / MP) * CPU_TERMS.attentionMsPerMp +
    ((decoded.width * decoded.height) / MP) * CPU_TERMS.keptImageMsPerMp;
  const delivered = deliveredSize(header, out);
  const replayed = windowSpan(header, out);
  const decodedMs = work.msPerUnit[PROGRESS_DECODED]! * delivered.width * delivered.height + extra;
  const units = replayed.width * replayed.height + decoded.width * decoded.height;
  return { ...work, ms: work.ms + extra, msPerUnit: { ...work.msPerUnit, [PROGRESS_DECODED]: decodedMs / units } };
}

/** The profile read's inflating of `bytes` of a PNG's iCCP data (src/image/container/icc.ts), charged as the engine's PNG input. */
export function profileReadMs(bytes: number): number {
  return (bytes * CPU_TERMS.pngInputMsPerMb) / MP;
}

/** Predicted CPU milliseconds of a job (jobWork's). */
export function estimateCpuMs(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  return Math.ceil(jobWork(header, out, plan).ms);
}
