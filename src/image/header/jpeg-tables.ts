import type { JpegScanPart, JpegSegment } from '../container/jpeg-segments';

/** The DQT marker code (T.81 B.2.4.1). */
const DQT = 0xdb;

/** The position in natural (row-major) order of each coefficient in zigzag order, which DQT uses (T.81 figure A.6). */
const NATURAL_ORDER = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50,
  43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** The example tables of T.81 Annex K (K.1 luminance, K.2 chrominance), natural order: what libjpeg scales by quality. */
const ANNEX_K = [
  [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56,
    68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
  ],
  [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
    ...Array<number>(32).fill(99),
  ],
];

/** libjpeg's table at a quality (jcparam.c: jpeg_quality_scaling, jpeg_add_quant_table with force_baseline). */
function scaledTable(table: readonly number[], quality: number): number[] {
  const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  return table.map((v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

const SCALED = Array.from({ length: 100 }, (_, i) => ANNEX_K.map((table) => scaledTable(table, i + 1)));

export interface JpegTables {
  /** The quantisation table of each component, natural order (undefined where the file defines none). */
  components: Array<number[] | undefined>;
  /** Every table a component uses is defined once (or again with the same values) in the whole file. */
  definedOnce: boolean;
}

/**
 * The quantisation tables of a JPEG from its DQT segments (T.81 B.2.4.1: Pq/Tq, then 64 values of 8 or 16
 * bits in zigzag order), wherever the walker found them, and the table slot of each frame component.
 */
export function readQuantTables(segments: JpegSegment[], scans: JpegScanPart[], slots: number[]): JpegTables {
  const defined = new Map<number, number[]>();
  let definedOnce = true;
  for (const part of [...segments, ...scans]) {
    if ('raw' in part || part.marker !== DQT) continue;
    const { data } = part;
    let at = 0;
    while (at < data.length) {
      const precision = data[at]! >> 4;
      const slot = data[at]! & 15;
      const size = precision ? 2 : 1;
      if (at + 1 + 64 * size > data.length) break;
      const table = Array<number>(64);
      for (let k = 0; k < 64; k++) table[NATURAL_ORDER[k]!] = size === 2 ? (data[at + 1 + 2 * k]! << 8) | data[at + 2 + 2 * k]! : data[at + 1 + k]!;
      const earlier = defined.get(slot);
      if (earlier && earlier.some((v, k) => v !== table[k])) definedOnce = false;
      defined.set(slot, table);
      at += 1 + 64 * size;
    }
  }
  return { components: slots.map((slot) => defined.get(slot)), definedOnce: definedOnce && slots.every((slot) => defined.has(slot)) };
}

/**
 * The libjpeg quality whose scaled Annex K tables are nearest (least squares of the log ratio, so every step
 * counts by its relative error) to the first component's table and, in colour, the second's: exact for files
 * libjpeg wrote, the effective quality of others (phones and editors use tables of their own). 0 without tables.
 */
export function effectiveQuality(components: Array<number[] | undefined>): number {
  const [luma, chroma] = components;
  if (!luma) return 0;
  const compared: Array<[number[], number]> = [[luma, 0]];
  if (chroma && chroma !== luma) compared.push([chroma, 1]);
  let best = 0;
  let bestError = Infinity;
  for (let quality = 1; quality <= 100; quality++) {
    let error = 0;
    for (const [table, kind] of compared) {
      const standard = SCALED[quality - 1]![kind]!;
      for (let k = 0; k < 64; k++) error += Math.log(Math.max(1, table[k]!) / standard[k]!) ** 2;
    }
    if (error < bestError) [best, bestError] = [quality, error];
  }
  return best;
}
