import type { ImageHeader, OutputSpec } from '../types';
import { type EncoderPlan, type JpegPlan, jpegDecodeScale } from './memory-model';

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
  /** libspng: inflate, unfilter, RGBA8 rows. Measured: 77 ms/MP on noise, resampling included. */
  pngDecodeMsPerMp: 100,
  /** Adam7: seven passes assembled into a frame. */
  interlacedPngExtraMsPerMp: 40,
  /** libwebp's VP8 and VP8L decoders. Measured: 217 ms/MP lossy (2 MP, q90). */
  webpDecodeMsPerMp: 250,
  /** The separable resampler, per input megapixel reaching it. Measured: within the decode figures above, about 20 ms/MP. */
  resampleMsPerMp: 30,
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
} as const;

const JPEG_ENCODE_MS_PER_MP: Record<JpegPlan, number> = {
  progressive: CPU_TERMS.jpegliProgressiveEncodeMsPerMp,
  optimized: CPU_TERMS.jpegliOptimizedEncodeMsPerMp,
  streaming: CPU_TERMS.jpegliStreamingEncodeMsPerMp,
  baseline: CPU_TERMS.jpegBaselineEncodeMsPerMp,
};

const MP = 1e6;

function decodeMs(header: ImageHeader, out: OutputSpec): number {
  const mp = (header.width * header.height) / MP;
  switch (header.format) {
    case 'jpeg': {
      const scale = jpegDecodeScale(header, out);
      const idct = (CPU_TERMS.jpegDecodeMsPerMp - CPU_TERMS.jpegHuffmanMsPerMp) * scale * scale;
      return mp * (CPU_TERMS.jpegHuffmanMsPerMp + idct + (header.coefficientsBuffered ? CPU_TERMS.progressiveJpegExtraMsPerMp : 0));
    }
    case 'png':
      return mp * (CPU_TERMS.pngDecodeMsPerMp + (header.interlaced ? CPU_TERMS.interlacedPngExtraMsPerMp : 0));
    case 'webp':
      return mp * CPU_TERMS.webpDecodeMsPerMp;
  }
}

function encodeMs(out: OutputSpec, plan: EncoderPlan): number {
  const mp = (out.width * out.height) / MP;
  switch (out.format) {
    case 'jpeg':
      return mp * JPEG_ENCODE_MS_PER_MP[plan.jpeg];
    case 'webp':
      return mp * (plan.webpLowMemory ? CPU_TERMS.webpLowMemoryEncodeMsPerMp : CPU_TERMS.webpEncodeMsPerMp);
    case 'png': {
      const lossy = out.quality < 100;
      const write = lossy ? CPU_TERMS.lossyPngEncodeMsPerMp : mp > 4.5 ? CPU_TERMS.pngLevel6EncodeMsPerMp : CPU_TERMS.pngLevel9EncodeMsPerMp;
      const trials = mp <= 1 ? (lossy ? CPU_TERMS.pngLossyTrialsMsPerMp : CPU_TERMS.pngLosslessTrialsMsPerMp) : 0;
      return mp * (write + trials);
    }
  }
}

/**
 * Predicted CPU milliseconds of a job. PNG output decodes the input twice (a pass to count colours,
 * one to write) above 1 MP; up to 1 MP it decodes once into a frame at output size and every further
 * pass replays that frame (codecs/src/engine.c), so the input's size is paid once.
 */
export function estimateCpuMs(header: ImageHeader, out: OutputSpec, plan: EncoderPlan): number {
  const resized = out.width * out.height < header.width * header.height;
  const decodePasses = out.format === 'png' && out.width * out.height > MP ? 2 : 1;
  const resample = resized ? ((header.width * header.height) / MP) * CPU_TERMS.resampleMsPerMp : 0;
  return Math.ceil(decodePasses * (decodeMs(header, out) + resample) + encodeMs(out, plan));
}
