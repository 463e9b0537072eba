import type { ImageHeader, OutputSpec } from '../types';
import { readHeader } from '../header/read-header';

/** Kept as stored: JPEG to JPEG at the input's own size and orientation, so output blocks are the input's. */
function asStored(header: ImageHeader, out: OutputSpec): boolean {
  return header.format === 'jpeg' && out.format === 'jpeg' && out.width === header.width && out.height === header.height && (out.orientation ?? 1) === 1;
}

const is420 = ({ sampling: s }: ImageHeader) =>
  s.length === 3 && s[0]!.h === 2 && s[0]!.v === 2 && s.slice(1).every(({ h, v }) => h === 1 && v === 1);

/** A table with a zero step has no grid (T.81 forbids the value; libjpeg decodes it, as every coefficient 0). */
const onAGrid = ({ steps }: ImageHeader) => steps.every((table) => table.every((step) => step > 0));

/**
 * A JPEG re-encoded as stored from 4:2:0 or grey JPEG (the layouts the encoder writes, so every block is the
 * input's) has its quantisation steps put on the input's grid (`alignSteps`): what the input quantised is
 * re-quantised with a multiple of its own step, adding no second rounding, and never with a finer step than the
 * input's (bytes spent on its artefacts). Measured on the development set (docs/benchmarks.md, "JPEG from JPEG"):
 * 0.92 of the unaligned bytes at equal SSIMULACRA2 (median, service 80); from 4:4:4 input only the luma could be
 * aligned, which was worse, so it is not. Grey input's table is aligned only where that keeps every step of the
 * input (codecs/src/jpeg-encode.c, align_table): jpegli's luma table, which grey output gets, aligned in part
 * measured worse than as it is. Other layouts as stored (4:4:4) keep jpegli's steps but for a DC step of 7, which
 * becomes 8 (`dcOnLevels`) unless the input is dense: the input's flat blocks, a whole pixel level each, are then
 * re-quantised exactly; from a smooth input, steps of 5 and 6 as well. A smooth 4:2:0 input's DC step on its grid
 * becomes 8 the same way where 8 is on that grid (a DC step of 1, 2 or 4: libjpeg qualities 86 to 89 and 93 up),
 * and over an input's step of 7 (libjpeg 77 to 80) the chroma's does, and from a flat input the luma's too
 * (codecs/src/jpeg-encode.c, dc_on_levels, has the measurements).
 */
export function onSourceGrid(header: ImageHeader, out: OutputSpec): OutputSpec {
  if (!asStored(header, out) || !onAGrid(header)) return out;
  if (header.grey) return { ...out, alignSteps: true };
  const level = dcLevel(header);
  if (is420(header)) return level === 'detailed' || level === 'dense' ? { ...out, alignSteps: true } : { ...out, alignSteps: true, dcOnLevels: level };
  return level === 'dense' ? out : { ...out, dcOnLevels: level };
}

/** How much of a JPEG is flat, read from its bits per pixel: the `dcOnLevels` it gets, none when dense. */
function dcLevel(header: ImageHeader): NonNullable<OutputSpec['dcOnLevels']> | 'dense' {
  const bitsPerPixel = (header.fileBytes * 8) / (header.width * header.height);
  if (bitsPerPixel > DENSE_BITS_PER_PIXEL) return 'dense';
  return bitsPerPixel <= FLAT_BITS_PER_PIXEL ? 'flat' : bitsPerPixel <= SMOOTH_BITS_PER_PIXEL ? 'smooth' : 'detailed';
}

/**
 * The bits per pixel of a JPEG above which it is dense (grain, fine detail: few flat blocks to keep exact), and a
 * 4:4:4 one keeps jpegli's DC step of 7. On issue 24's 4:4:4 sources at service 80, 8 for 7 lost 0.2 to 1.3 % of
 * the former engine's bytes at equal SSIMULACRA2 on every one of 2.43 or more (grainy dark photos, hubble, chelsea)
 * and gained on every one of 1.96 or fewer; between, 2.22 lost 0.3 % and 2.26 gained 1.4 %. Seen against it: the
 * corpus's rocket (3.29, a flat sky beside a detailed rocket) gained 4 % with 8, which it gives back.
 */
const DENSE_BITS_PER_PIXEL = 2.35;

/**
 * The bits per pixel of a JPEG at or under which it is smooth for `dcOnLevels`. On issue 24's 4:4:4 sources at
 * service 85 (jpegli's DC step 5), a step of 8 took 0.85 to 0.98 of the bytes at equal SSIMULACRA2 on each one
 * of 0.50 or fewer (smooth gradients, renders, pastel photos: most of their blocks flat), 0.98 to 1.00 on those
 * near 1, 1.01 at 0.59, and lost 1.5 to 6.6 % on every one of 1.03 or more (grain, fine detail).
 */
const SMOOTH_BITS_PER_PIXEL = 0.55;

/**
 * The bits per pixel of a 4:2:0 JPEG at or under which it is flat: its luma's DC step of 7 becomes 8 too. On the
 * tuning photos re-saved at 78, and konqui re-saved twice (sources of 0.20 to 0.28), that took 0.90 to 0.94 of the
 * former engine's bytes at equal SSIMULACRA2 at service 80 where the chroma's alone took 0.94 to 1.01; from 0.41
 * up it lost up to 13 %.
 */
const FLAT_BITS_PER_PIXEL = 0.3;

/**
 * The lossless re-coding of a JPEG (codecs/src/jpeg-recode.c, as `jpegtran -optimize -progressive -copy none`
 * does it): the input's own DCT coefficients written again, progressive with optimised Huffman tables, so the
 * pixels stay exactly as they were and the file is usually smaller (0 to 26 % on the development set). Only where
 * nothing but re-coding is asked: kept as stored (the coefficients are not turned), from YCbCr or grey data whose
 * tables the file defines once.
 */
export function losslessRecoding(header: ImageHeader, out: OutputSpec): OutputSpec | undefined {
  return asStored(header, out) && header.recodable ? { ...out, quality: 100, recode: true } : undefined;
}

/**
 * A re-encode on the input's grid near the input's own steps (on the whole at most `NEAR_STEPS` coarser: the
 * quality asked for is about the input's own or above) is the input again, re-rounded, or little more: then the
 * lossless re-coding, the very same pixels, is the answer unless the re-encode takes at least `RECODING_SAVING` off
 * its bytes. A grey input, whose steps are on the grid only whole, is re-coded whatever the sizes where its steps
 * are on the whole no finer than the re-encode's: re-encoding would only add a second generation of loss (the
 * development set's grey photo saved at 75, at service 85: 0.97 of the re-coding's bytes, larger than cjpeg's at
 * equal butteraugli, docs/benchmarks.md). `recode` runs that job (undefined when it cannot be done).
 */
export async function preferRecoding<C extends { bytes: Uint8Array; spec: OutputSpec }>(
  header: ImageHeader,
  encoded: C,
  recode: (() => Promise<C | undefined>) | undefined,
): Promise<C> {
  if (!recode || !encoded.spec.alignSteps) return encoded;
  const coarser = coarsening(header.steps, readHeader(encoded.bytes).steps);
  if (header.grey && coarser <= 1) return (await recode()) ?? encoded;
  if (!(coarser <= NEAR_STEPS)) return encoded;
  const recoded = await recode();
  return recoded && encoded.bytes.length > (1 - RECODING_SAVING) * recoded.bytes.length ? recoded : encoded;
}

/** How much coarser the `written` steps are than the `source` ones on the whole (the geometric mean of their ratios). */
function coarsening(source: number[][], written: number[][]): number {
  const ratios = source.flatMap((table, c) => table.map((step, k) => (written[c]?.[k] ?? NaN) / step));
  return ratios.length === 64 * written.length ? Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length) : NaN;
}

/**
 * Steps on the whole at most this much coarser than the input's make a re-encode that may save too little to be
 * worth its loss, and only then is the re-coding made: it costs about as much CPU again as the whole re-encode (a
 * 3.6 MP photo saved at 70, at service 85: 548 against 254 CPU-ms). Of issue 24's development set's 98 re-encodes from
 * 4:2:0 at service 80 and 85, the two that took less than 5 % off the re-coding's bytes were 1.019 coarser (sources
 * saved at 70, at 85), six were within 1.03 (all at 85), and none from 1.037 up took less than 8 %.
 */
const NEAR_STEPS = 1.03;

/**
 * What a re-encode near the input's steps must take off the re-coding's bytes. On the development set two took
 * less, both sources saved at 70 sent at service 85: one-stands-out 2.3 % (1.010 of cjpeg's bytes at equal
 * butteraugli) and motorcycle 3.1 %; the next took 6.4 % (wood saved twice, at 85 then 70).
 */
const RECODING_SAVING = 0.05;
