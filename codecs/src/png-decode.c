#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "host.h"
#include "progress.h"
#include "spng.h"

static int read_input(spng_ctx *ctx, void *user, void *dst, size_t length) {
  (void)ctx;
  (void)user;
  uint8_t *p = dst;
  while (length > 0) {
    int n = input_read(p, length > 0x40000000 ? 0x40000000 : (int)length);
    if (n <= 0) return SPNG_IO_EOF;
    p += n;
    length -= (size_t)n;
  }
  return 0;
}

/* libspng keeps ancillary chunks in memory while decoding: text (zTXt and iTXt inflated), EXIF
 * and an iCCP profile (inflated). A zlib bomb in any of them would take WASM memory the header
 * cannot predict, so they may hold this much in all, each inflated stream too (the memory model
 * counts it); past it the image is refused. The TypeScript side carries no profile over 1 MiB. */
#define PNG_CHUNK_CACHE_BYTES (2u << 20)

/* A refused allocation is a memory failure whatever libspng calls it: zlib's Z_MEM_ERROR (its window is
 * allocated on the first IDAT data) comes out as "IDAT stream error". malloc sets errno to ENOMEM then
 * (png_decode clears it first). */
static __attribute__((noreturn)) void fail_spng(int code) {
  if (code == SPNG_ECHUNK_LIMITS) host_fail(FAIL_UNSUPPORTED, "its text, EXIF and ICC chunks take more than 2 MiB once inflated");
  host_fail(code == SPNG_EMEM || errno == ENOMEM ? FAIL_MEMORY : FAIL_UNSUPPORTED, spng_strerror(code));
}

static void check(int code) {
  if (code) fail_spng(code);
}

/* Pixels that keep what the image has: grey stays grey, alpha only when the PNG has it. */
static int channels_of(const struct spng_ihdr *ihdr, int has_trns) {
  int grey = ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE ||
             ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA;
  int alpha = has_trns || ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA ||
              ihdr->color_type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  return (grey ? 1 : 3) + (alpha ? 1 : 0);
}

/* A PNG with gAMA but neither sRGB nor iCCP (which override it: PNG 3rd edition 11.3.2.5)
 * is shown by browsers as its samples raised to 1 / (gamma x 2.2), the sRGB display gamma.
 * The output is untagged (sRGB), so that is done to the samples here; 1/2.2 (45455) is
 * already sRGB-like and gives an identity table. cHRM is not applied here: with this gAMA,
 * the TypeScript side writes it into the output as an ICC profile whose curve is the 2.2
 * these samples then have (src/image/container/chrm-profile.ts). Returns 0 when the
 * samples stay as they are. */
static int gamma_table(spng_ctx *ctx, uint8_t lut[256]) {
  uint32_t gama;
  uint8_t intent;
  struct spng_iccp iccp;
  if (spng_get_gama_int(ctx, &gama) || gama == 0) return 0;
  if (spng_get_srgb(ctx, &intent) == 0 || spng_get_iccp(ctx, &iccp) == 0) return 0;
  double exponent = 1.0 / (gama / 100000.0 * 2.2);
  int identity = 1;
  for (int i = 0; i < 256; i++) {
    lut[i] = (uint8_t)(pow(i / 255.0, exponent) * 255.0 + 0.5);
    identity &= lut[i] == i;
  }
  return !identity;
}

/* Decoding always yields RGBA8 (16-bit reduced, palette and tRNS expanded); this drops the
 * channels the image does not use and applies the gamma table, if any, to colour samples. */
static void pack(uint8_t *rgba, uint8_t *dst, int width, int channels, const uint8_t *gamma) {
  for (int x = 0; x < width; x++) {
    uint8_t *s = rgba + 4 * x;
    uint8_t *d = dst + channels * x;
    if (gamma) s[0] = gamma[s[0]], s[1] = gamma[s[1]], s[2] = gamma[s[2]];
    switch (channels) {
      case 1: d[0] = s[0]; break;
      case 2: d[0] = s[0]; d[1] = s[3]; break;
      case 3: d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; break;
      default: memcpy(d, s, 4);
    }
  }
}

/* The first column and the column step of each Adam7 pass (PNG 3rd edition, 8.2). */
static const int adam7_x0[7] = {0, 4, 0, 2, 0, 1, 0};
static const int adam7_dx[7] = {8, 8, 4, 4, 2, 2, 1};

void png_decode(decode_target *target) {
  errno = 0;
  spng_ctx *ctx = spng_ctx_new(0);
  if (!ctx) host_fail(FAIL_MEMORY, "out of memory");
  /* Ancillary chunks with a bad CRC are dropped rather than refusing the image. */
  spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_DISCARD);
  check(spng_set_chunk_limits(ctx, PNG_CHUNK_CACHE_BYTES, PNG_CHUNK_CACHE_BYTES));
  check(spng_set_png_stream(ctx, read_input, NULL));
  struct spng_ihdr ihdr;
  check(spng_get_ihdr(ctx, &ihdr));
  struct spng_trns trns;
  /* The first getter past IHDR reads every chunk before the image data (and meets the cache limit). */
  int trns_code = spng_get_trns(ctx, &trns);
  if (trns_code && trns_code != SPNG_ECHUNKAVAIL) fail_spng(trns_code);
  int has_trns = trns_code == 0;
  decode_check_size(target, ihdr.width, ihdr.height);
  int width = (int)ihdr.width, height = (int)ihdr.height;
  int channels = channels_of(&ihdr, has_trns);
  uint8_t lut[256];
  const uint8_t *gamma = gamma_table(ctx, lut) ? lut : NULL;
  size_t rgba_row = (size_t)width * 4;
  uint8_t *out = xmalloc((size_t)width * channels);
  row_sink *sink = target->begin(target, width, height, channels);

  if (ihdr.interlace_method) {
    /* Adam7 rows arrive in seven passes: the whole frame has to be assembled first, each pass's
     * rows put in place as they are decoded (libspng spreads them along the row). */
    size_t size = rgba_row * (size_t)height;
    uint8_t *frame = xmalloc(size);
    check(spng_decode_image(ctx, NULL, 0, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS | SPNG_DECODE_PROGRESSIVE));
    for (;;) {
      struct spng_row_info info;
      int code = spng_get_row_info(ctx, &info);
      if (code == SPNG_EOI) break;
      check(code);
      code = spng_decode_row(ctx, frame + rgba_row * info.row_num, rgba_row);
      if (code != 0 && code != SPNG_EOI) fail_spng(code);
      report_progress(PROGRESS_FRAME_DECODED, (width - adam7_x0[info.pass] + adam7_dx[info.pass] - 1) / adam7_dx[info.pass]);
      if (code == SPNG_EOI) break;
    }
    check(spng_decode_chunks(ctx));
    for (int y = 0; y < height; y++) {
      pack(frame + rgba_row * y, out, width, channels, gamma);
      sink->put(sink, out);
    }
    free(frame);
  } else {
    uint8_t *row = xmalloc(rgba_row);
    check(spng_decode_image(ctx, NULL, 0, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS | SPNG_DECODE_PROGRESSIVE));
    for (int y = 0; y < height; y++) {
      int code = spng_decode_row(ctx, row, rgba_row);
      if (code != 0 && !(code == SPNG_EOI && y == height - 1)) fail_spng(code);
      pack(row, out, width, channels, gamma);
      sink->put(sink, out);
    }
    free(row);
    /* The last IDAT's CRC and the chunks up to IEND are only read here. */
    check(spng_decode_chunks(ctx));
  }
  free(out);
  spng_ctx_free(ctx);
}
