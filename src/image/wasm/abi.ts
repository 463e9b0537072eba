import type { DecodedFormat, OutputFormat } from '../types';

/** Format codes and flags of `transcode` in codecs/src/engine.c. */
export const FORMAT_CODES: Record<OutputFormat | DecodedFormat, number> = { jpeg: 0, png: 1, webp: 2, avif: 3, gif: 4 };
/** `transcode`'s internal output: the rows as 8-bit RGB (codecs/src/raw-encode.c), never an answer's format. */
export const FORMAT_RAW = 5;

export const FLAG_PROGRESSIVE = 1;
export const FLAG_MITCHELL = 2;
export const FLAG_OWN_WEBP_ALPHA = 4;
export const FLAG_LIBJPEG_TURBO = 8;
export const FLAG_WEBP_LOW_MEMORY = 16;
export const FLAG_JPEG_OPTIMIZE = 32;
export const FLAG_JPEG_ADAPTIVE_QUANTIZATION = 64;
export const FLAG_JPEG_RECODE = 128;
/** Bit 12, after the orientation's: jpegli's steps on a JPEG source's grid (same size, orientation 1). */
export const FLAG_JPEG_ALIGN = 4096;
/** Bit 13: JPEG to JPEG at the same size and orientation: a DC step of 7 becomes 8 (on the source's grid, where 8 is on it). */
export const FLAG_JPEG_DC_LEVELS = 8192;
/** Bit 14, with FLAG_JPEG_DC_LEVELS: from a smooth source, DC steps of 5 and 6 become 8 as well, and the chroma's 7 on a source's 7. */
export const FLAG_JPEG_DC_LEVELS_SMOOTH = 16384;
/** Bit 15, with FLAG_JPEG_DC_LEVELS_SMOOTH: from a flat source, the luma's 7 on a source's 7 becomes 8 as well. */
export const FLAG_JPEG_DC_LEVELS_FLAT = 32768;
/** Bit 16: gravity=auto in the transcode's own decode (engine.c attend_in_job): geometry's window placed where the subject is. */
export const FLAG_ATTEND = 65536;
/** Bit 17: a GIF's every frame into an animated WebP (anim_options first). */
export const FLAG_ANIMATED = 131072;
/** Bits 8 to 11 of the flags: the EXIF orientation to apply (codecs/src/orient.h). */
export const ORIENTATION_SHIFT = 8;

/** `kind` of the `fail` import, from codecs/src/host.h. */
export const FAIL_UNSUPPORTED = 1;
export const FAIL_MEMORY = 2;
export const FAIL_INTERNAL = 3;
/** JS's own: the job's watch stopped it (its CPU budget spent, or far past its prediction: job-watch.ts). */
export const FAIL_CPU = 4;

/** `kind` of the `progress` import, from codecs/src/progress.h: what the units count. */
export const PROGRESS_DECODED = 1;
export const PROGRESS_SCANNED = 2;
export const PROGRESS_SCAN_START = 3;
export const PROGRESS_ENCODED = 4;
export const PROGRESS_ENCODER_STEP = 5;
export const PROGRESS_ALPHA_PERCENT = 6;
export const PROGRESS_FRAME_DECODED = 7;
export const PROGRESS_ENCODER_PERCENT = 8;
/** Bytes of input a decoder read (decisions.md "Reading is work"). */
export const PROGRESS_INPUT = 9;
/** Symbols and root entries of the Huffman tables libwebp's VP8L decoder built. */
export const PROGRESS_HUFFMAN_TABLE = 10;
/** A kind's bits; above them, a stage of it that runs at a pace of its own (progress.h PROGRESS_STAGE): counted as the kind, paced apart. */
export const PROGRESS_KIND_MASK = 0xff;
const PROGRESS_STAGE_SHIFT = 8;
const progressStage = (kind: number, stage: number) => kind | (stage << PROGRESS_STAGE_SHIFT);
/** The stages of PROGRESS_ENCODER_STEP that AVIF's encoder reports (codecs/src/avif-encode.c), as reported. */
export const AVIF_STEP_STAGES = {
  coding: progressStage(PROGRESS_ENCODER_STEP, 1),
  searching: progressStage(PROGRESS_ENCODER_STEP, 2),
  writing: progressStage(PROGRESS_ENCODER_STEP, 3),
} as const;

export interface EngineExports {
  /** width x height is the scaled window as displayed (the canvas is geometry's); inWidth x inHeight the stored size the header says. */
  transcode(inFormat: number, outFormat: number, quality: number, width: number, height: number, flags: number, inWidth: number, inHeight: number): void;
  /**
   * The next transcode's geometry: the window of the stored image it takes (left, top, width, height, in stored pixels),
   * the canvas as displayed, where the scaled window lies in it, and the background as 0xRRGGBBAA.
   */
  geometry(left: number, top: number, width: number, height: number, canvasWidth: number, canvasHeight: number, x: number, y: number, background: number): void;
  /** gravity=auto: the stored window of winWidth x winHeight that holds the subject; its left and top are the output (two little-endian int32). */
  attend(inFormat: number, inWidth: number, inHeight: number, winWidth: number, winHeight: number): void;
  /** The window's left and top (stored pixels) as the last transcode took it: FLAG_ATTEND's, placed by the attention. */
  window_left(): number;
  window_top(): number;
  /** The next FLAG_ANIMATED transcode's: the frames the header walk found (a decoder meeting more fails), the WebP loop count (plays, 0 forever). */
  anim_options(frames: number, loopCount: number): void;
  /** AVIF output's settings for the next transcode: libaom's speed and tune, the cell size, 4:4:4 (src/image/wasm/avif-plan.ts). */
  avif_options(speed: number, tune: number, cellWidth: number, cellHeight: number, yuv444: number): void;
  /** The top of the instance's heap: the most memory it has needed (codecs/src/host.c). */
  heap_top(): number;
}
