import { ENGINE_BUDGET_BYTES } from '../../limits/memory';
import type { ImageHeader, OutputSpec } from '../types';

const MiB = 1024 * 1024;

/** The module's static data, stack and allocator slack, measured after a small job. */
const BASE_BYTES = 2 * MiB;

/**
 * Per-pixel costs of the parts that hold a whole frame, from codecs/src and measured with
 * `npm run bench`. Everything else streams rows and costs a few rows of the image width.
 */
const COST = {
  /** libjpeg-turbo keeps every DCT coefficient (2 B) of a progressive input. */
  coefficientBytes: 2,
  /** Adam7 PNG is assembled as a full RGBA8 frame before its rows can flow. */
  interlacedPngPerPixel: 4,
  /** mozjpeg keeps the coefficients (3 B/px at 4:2:0) and more for trellis; measured. */
  mozjpegPerPixel: 6,
  /** mozjpeg encodes candidate scans into memory to pick the smallest. */
  mozjpegScanTrialsPerOutputByte: 2,
  /** The compressed WebP is copied in whole; a lossy one is rarely over 1 B/px. */
  webpInputPerPixel: 1,
  /** Lossy WebP streams rows, but libwebp decodes an ALPH chunk into a whole plane. */
  webpLossyAlphaPerPixel: 1,
  /** VP8L keeps the whole ARGB image, and is decoded into a full RGB(A) frame. */
  webpLosslessDecodePerPixel: 4,
  /** libwebp encodes from a YUV 4:2:0 picture (1.5 B/px) and keeps per-macroblock state. */
  webpEncodePerPixel: 1.7,
  /**
   * libwebp assembles the whole bitstream in memory before writing it, in bit writers that
   * grow by doubling: about twice the output.
   */
  webpBitstreamPerOutputByte: 2,
  /**
   * Without low_memory, libwebp records every token of the image first: 0.5 to 3 B/px on
   * photos, 6.4 measured on noise (every coefficient non-zero), which is what is counted.
   */
  webpTokensPerPixel: 6.5,
  webpAlphaPlanePerPixel: 1,
  /**
   * libwebp 1.2.4 compresses the alpha plane with its lossless encoder: ARGB copy, hash chain,
   * backward references; 14 B/px in memory-and-codecs.md, up to 22 B/px measured here.
   */
  webpAlphaEncodePerPixel: 22,
  /** codecs/src/webp-alpha.c codes the plane in place; only its output is extra. */
  ownWebpAlphaEncodePerPixel: 0.25,
  /**
   * Lossy PNG (codecs/src/quantize.c): a 2^18-bucket colour histogram of 20 B each on the first pass
   * (with, for a graphic, at most 70 KiB for merging its colours), a 2^18 nearest-colour cache of 2 B
   * on the second, once the histogram is freed.
   */
  lossyPngBytes: 5 * MiB + 0.5 * MiB,
  /**
   * PNG output gathers IDAT data into chunks of up to 1 MiB (codecs/src/png-encode.c: libspng's
   * 8 KiB ones cost 0.15 % of the file). The strategy trials of small images add nothing: each
   * frees its encoder before the next.
   */
  pngIdatBufferBytes: 1 * MiB,
  /** Orientations 3 to 8 hold the output frame (codecs/src/orient.c): 1 B per channel. */
  orientationFrameBytesPerSample: 1,
  /** Row buffers of the decoders, resampler and encoders, per pixel of width. */
  rowBytesPerColumn: 256,
};

/** Output size of a typical photo, not the worst case. */
export function expectedOutputBytes(header: ImageHeader, out: OutputSpec): number {
  const pixels = out.width * out.height;
  switch (out.format) {
    case 'jpeg':
      // Photos at q80 write 0.2 to 0.35 B/px (grainy ones more).
      return pixels * (out.quality > 85 ? 0.8 : 0.35);
    case 'webp':
      // Photos at q80 write 0.1 to 0.3 B/px.
      return pixels * 0.3 * (out.quality > 85 ? 2 : 1);
    case 'png':
      // Lossless photos keep 0.5 to 0.65 of their raw size (a 24 MP one, 0.57); graphics far less.
      return pixels * (header.grey ? 1 : 3) * (header.hasAlpha ? 4 / 3 : 1) * 0.65;
  }
}

/** JPEG coefficients per pixel: the luma plane plus chroma planes subsampled by h x v. */
function coefficientsPerPixel(header: ImageHeader): number {
  const chroma = Math.max(0, header.components - 1);
  const subsampling = Math.max(1, header.maxSampling.h * header.maxSampling.v);
  return 1 + chroma / subsampling;
}

/** WASM bytes the decoder holds for the whole job. */
function decodeBytes(header: ImageHeader): number {
  const pixels = header.width * header.height;
  switch (header.format) {
    case 'jpeg':
      if (!header.progressive) return 0;
      // Blocks are whole 8x8 per component, padded to the MCU.
      return (header.width + 16) * (header.height + 16) * coefficientsPerPixel(header) * COST.coefficientBytes;
    case 'png':
      return header.interlaced ? pixels * COST.interlacedPngPerPixel : 0;
    case 'webp': {
      const input = pixels * COST.webpInputPerPixel;
      if (header.lossless) return input + pixels * (COST.webpLosslessDecodePerPixel + (header.hasAlpha ? 4 : 3));
      return input + (header.hasAlpha ? pixels * COST.webpLossyAlphaPerPixel : 0);
    }
  }
}

/** How the encoder is set up for a job; each choice trades memory for smaller files. */
export interface EncoderPlan {
  /** JPEG: mozjpeg (trellis, optimised scans: the smallest files) rather than libjpeg-turbo. */
  mozjpeg: boolean;
  /** JPEG with libjpeg-turbo: progressive scans (3 B/px of output) rather than baseline. */
  progressive: boolean;
  /** WebP with alpha: our in-place alpha coder rather than libwebp's 14 B/px lossless one. */
  ownWebpAlpha: boolean;
  /** WebP: libwebp's low_memory mode (no token buffer) at about 3 times the CPU. */
  webpLowMemory: boolean;
}

/** Plans from the smallest files (and fastest WebP) to the leanest memory. */
const PLANS: EncoderPlan[] = [
  { mozjpeg: true, progressive: false, ownWebpAlpha: false, webpLowMemory: false },
  { mozjpeg: false, progressive: true, ownWebpAlpha: true, webpLowMemory: false },
  { mozjpeg: false, progressive: false, ownWebpAlpha: true, webpLowMemory: true },
];

/** The plan with the smallest files that fits the budget (or the leanest when none does). */
export function planEncoder(header: ImageHeader, out: OutputSpec): EncoderPlan {
  return PLANS.find((plan) => peakWith(header, out, plan) <= ENGINE_BUDGET_BYTES) ?? PLANS[PLANS.length - 1]!;
}

function encodeBytes(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const pixels = out.width * out.height;
  switch (out.format) {
    case 'jpeg':
      const blocks = (out.width + 16) * (out.height + 16);
      if (plan.mozjpeg) return blocks * COST.mozjpegPerPixel + expectedOutputBytes(header, out) * COST.mozjpegScanTrialsPerOutputByte;
      return plan.progressive ? blocks * (header.grey ? 1 : 1.5) * COST.coefficientBytes : 0;
    case 'png':
      return COST.pngIdatBufferBytes + (out.quality < 100 ? COST.lossyPngBytes : 0);
    case 'webp': {
      const tokens = plan.webpLowMemory ? 0 : pixels * COST.webpTokensPerPixel;
      const buffered = expectedOutputBytes(header, out) * COST.webpBitstreamPerOutputByte + tokens;
      if (!header.hasAlpha) return pixels * COST.webpEncodePerPixel + buffered;
      const alpha = plan.ownWebpAlpha ? COST.ownWebpAlphaEncodePerPixel : COST.webpAlphaEncodePerPixel;
      return pixels * (COST.webpEncodePerPixel + COST.webpAlphaPlanePerPixel + alpha) + buffered;
    }
  }
}

/** Rotating or flipping vertically (orientations 3 to 8) needs the whole output frame; 2 mirrors rows. */
function orientBytes(header: ImageHeader, out: OutputSpec): number {
  if ((out.orientation ?? 1) <= 2) return 0;
  const channels = (header.grey ? 1 : 3) + (header.hasAlpha ? 1 : 0);
  return out.width * out.height * channels * COST.orientationFrameBytesPerSample;
}

function peakWith(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const rows = Math.max(header.width, out.width) * COST.rowBytesPerColumn;
  const wasm = BASE_BYTES + rows + decodeBytes(header) + encodeBytes(header, out, plan) + orientBytes(header, out);
  // JPEG and PNG output grows in place in JS, then is copied once into a fixed-length buffer;
  // WebP announces its size first and is written straight into one.
  return wasm + (out.format === 'webp' ? 1 : 2) * expectedOutputBytes(header, out);
}

/**
 * Peak bytes of a job, from the header alone, with the encoder plan the engine will use:
 * when the smallest files would not fit, the leaner plan's estimate is the one that counts.
 */
export function estimatePeakBytes(header: ImageHeader, out: OutputSpec): number {
  return Math.ceil(peakWith(header, out, planEncoder(header, out)));
}
