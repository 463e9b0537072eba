/**
 * CPU time a request's image jobs may take, as the CPU model predicts it (src/image/wasm/cpu-model.ts:
 * milliseconds of the machine it was measured on, for the slowest content). Jobs run one at a time per
 * isolate, so a long one also delays every request waiting behind it; production stops a request at
 * wrangler.toml's cpu_ms (60 s), above these.
 */
export const PAID_CPU_BUDGET_MS = 45_000;
/**
 * The demo needs no key and gets a third of that: a 4K screenshot to lossy PNG fits, a 12 MP PNG does
 * not, and its WebP candidate is skipped above about 6 MP.
 */
export const DEMO_CPU_BUDGET_MS = 15_000;

/**
 * The most scans a JPEG may have; more is refused from the header (400 unsupported_image). Every scan makes
 * the decoder visit every block of its components whatever its length (an EOB run codes 32,767 blocks in
 * 15 bits), and libjpeg accepts an AC scan repeated without end, so the scan count, not the file size, bounds
 * that work (issue 19: 5,000 copies of one scan in 316 KB took 38 s). Real encoders write far fewer:
 * libjpeg-turbo's progression (cjpeg, GIMP, ImageMagick, Pillow) 10 scans for colour, 6 for grey, 18 for CMYK
 * (jcparam.c, jpeg_simple_progression); jpegli 5 to 17 (a DC scan and four AC scans per component);
 * mozjpeg keeps a subset of the 64 scans it searches (jpeg_search_progression); Photoshop writes 3 to 5;
 * cameras and phones write baseline, one scan. libjpeg-turbo's own guards sit in the hundreds (TurboJPEG's
 * TJFLAG_LIMITSCANS refuses more than 500, djpeg takes -maxscans); 100 keeps a margin over every writer above.
 */
export const MAX_JPEG_SCANS = 100;
