/**
 * How the engine encodes AVIF (codecs/src/avif-encode.c), from the output's size alone: the grid of cells
 * one libaom encoder codes one after another, and libaom's speed. The memory and CPU models count the same
 * cells and speed, so this is the one place they are decided.
 */
export interface AvifPlan {
  /** libaom's cpu-used, 0 (slowest, smallest files) to 9. */
  speed: number;
  /** libaom's quality (1 to 100): the encoder quality asked for, raised at faster speeds to keep its look. */
  quality: number;
  /** The size of every coded frame; the image's own when it is one cell (no grid). */
  cellWidth: number;
  cellHeight: number;
  columns: number;
  rows: number;
}

/**
 * The largest side of a cell. libaom holds 49 to 62 B per pixel of the frame it is sized for at 4:4:4 (speed 9 to
 * 6, measured on noise): a cell of 1 MP keeps that near 60 MiB, beside the stripe of rows being filled (3 B/px,
 * the image's width times a cell's height). Images large enough for speeds 7 to 9 (above 4 MP) take cells of 512,
 * a quarter of that, so a 24 MP photo's job fits the budget with its output (which is what grows with the image).
 */
export const AVIF_MAX_CELL_SIDE = 1024;
const LARGE_IMAGE_CELL_SIDE = 512;
/** MIAF: a grid's cells are at least 64 pixels a side (a cell may reach past the image: the grid crops it). */
const MIN_CELL_SIDE = 64;
/** An AVIF grid has at most 256 cells a side (8-bit counts): 262144 pixels at 1024 a cell. */
export const AVIF_MAX_SIDE = 256 * AVIF_MAX_CELL_SIDE;

/**
 * libaom's tune=iq (AOM_TUNE_IQ, 10; all-intra only, developed against SSIMULACRA2): at equal SSIMULACRA2 its files
 * are 0.92 of tune=ssim's against our JPEG and WebP (docs/benchmarks.md, "AVIF").
 */
export const AVIF_TUNE = 10;

/**
 * Chroma at full resolution (4:4:4, AV1's High profile; grey stays 4:0:0): at equal SSIMULACRA2 its files are 0.93
 * of 4:2:0's against our JPEG and 0.96 against our WebP with tune=iq, for 1.5 times the CPU (docs/benchmarks.md).
 */
export const AVIF_YUV444 = true;

/**
 * libaom's speed by output megapixels: slower speeds find smaller files for more CPU, which large images
 * cannot afford within a request's CPU budget. Speed 8 is not used: it made the photos of 8 to 16 MP 0.93 to 0.95 of
 * our WebP's bytes at equal SSIMULACRA2 (docs/benchmarks.md, "AVIF"), and speed 7 costs 1.5 s per megapixel of noise
 * with libaom's SIMD (cpu-model.ts), 24 s at 16 MP, within a key's 45 s.
 */
const SPEED_BY_MEGAPIXELS: ReadonlyArray<readonly [number, number]> = [
  [4, 6],
  [16, 7],
  [Infinity, 9],
];

/**
 * Faster speeds look worse at one quality: the quality that matches our JPEG's SSIMULACRA2 at service 80 is
 * about 10 higher at speed 8 and 12 at speed 9 than at 6 (medians over eight photos, 4:2:0); 7 is between.
 */
const QUALITY_RAISE_BY_SPEED: Record<number, number> = { 6: 0, 7: 5, 8: 10, 9: 12 };

/** libaom's quality for an encoder quality at a speed (the bench forces speeds with it). */
export function avifQualityAt(speed: number, quality: number): number {
  return quality >= 100 ? 100 : Math.min(99, quality + QUALITY_RAISE_BY_SPEED[speed]!);
}

function cells(size: number, largest: number): { count: number; side: number } {
  if (size <= largest) return { count: 1, side: size };
  const count = Math.ceil(size / largest);
  return { count, side: Math.max(MIN_CELL_SIDE, 2 * Math.ceil(size / count / 2)) };
}

export function planAvif(width: number, height: number, quality: number): AvifPlan {
  const megapixels = (width * height) / 1e6;
  const speed = SPEED_BY_MEGAPIXELS.find(([upTo]) => megapixels <= upTo)![1];
  // Smaller cells for large images, unless a side would then need more than a grid's 256 cells.
  const small = speed >= 7 && Math.max(width, height) <= 256 * LARGE_IMAGE_CELL_SIDE;
  const largest = small ? LARGE_IMAGE_CELL_SIDE : AVIF_MAX_CELL_SIDE;
  const across = cells(width, largest);
  const down = cells(height, largest);
  const grid = across.count * down.count > 1;
  // One cell is the image itself; in a grid every cell has even sides (4:2:0) of at least 64 pixels.
  const cellWidth = grid ? Math.max(MIN_CELL_SIDE, 2 * Math.ceil(across.side / 2)) : width;
  const cellHeight = grid ? Math.max(MIN_CELL_SIDE, 2 * Math.ceil(down.side / 2)) : height;
  return { speed, quality: avifQualityAt(speed, quality), cellWidth, cellHeight, columns: Math.ceil(width / cellWidth), rows: Math.ceil(height / cellHeight) };
}
