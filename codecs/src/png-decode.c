#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "host.h"
#include "spng.h"

static int read_input(spng_ctx *ctx, void *user, void *dst, size_t length) {
  (void)ctx;
  (void)user;
  uint8_t *p = dst;
  while (length > 0) {
    int n = host_input_read(p, length > 0x40000000 ? 0x40000000 : (int)length);
    if (n <= 0) return SPNG_IO_EOF;
    p += n;
    length -= (size_t)n;
  }
  return 0;
}

static __attribute__((noreturn)) void fail_spng(int code) {
  host_fail(code == SPNG_EMEM ? FAIL_MEMORY : FAIL_UNSUPPORTED, spng_strerror(code));
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

/* Decoding always yields RGBA8 (16-bit reduced, palette and tRNS expanded); this drops the
 * channels the image does not use. */
static void pack(const uint8_t *rgba, uint8_t *dst, int width, int channels) {
  for (int x = 0; x < width; x++) {
    const uint8_t *s = rgba + 4 * x;
    uint8_t *d = dst + channels * x;
    switch (channels) {
      case 1: d[0] = s[0]; break;
      case 2: d[0] = s[0]; d[1] = s[3]; break;
      case 3: d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; break;
      default: memcpy(d, s, 4);
    }
  }
}

void png_decode(decode_target *target) {
  spng_ctx *ctx = spng_ctx_new(0);
  if (!ctx) host_fail(FAIL_MEMORY, "out of memory");
  /* Ancillary chunks with a bad CRC are dropped rather than refusing the image. */
  spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_DISCARD);
  check(spng_set_png_stream(ctx, read_input, NULL));
  struct spng_ihdr ihdr;
  check(spng_get_ihdr(ctx, &ihdr));
  struct spng_trns trns;
  int has_trns = spng_get_trns(ctx, &trns) == 0;
  int width = (int)ihdr.width, height = (int)ihdr.height;
  int channels = channels_of(&ihdr, has_trns);
  size_t rgba_row = (size_t)width * 4;
  uint8_t *out = xmalloc((size_t)width * channels);
  row_sink *sink = target->begin(target, width, height, channels);

  if (ihdr.interlace_method) {
    /* Adam7 rows arrive in seven passes: the whole frame has to be assembled first. */
    size_t size = rgba_row * (size_t)height;
    uint8_t *frame = xmalloc(size);
    check(spng_decode_image(ctx, frame, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS));
    for (int y = 0; y < height; y++) {
      pack(frame + rgba_row * y, out, width, channels);
      sink->put(sink, out);
    }
    free(frame);
  } else {
    uint8_t *row = xmalloc(rgba_row);
    check(spng_decode_image(ctx, NULL, 0, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS | SPNG_DECODE_PROGRESSIVE));
    for (int y = 0; y < height; y++) {
      int code = spng_decode_row(ctx, row, rgba_row);
      if (code != 0 && !(code == SPNG_EOI && y == height - 1)) fail_spng(code);
      pack(row, out, width, channels);
      sink->put(sink, out);
    }
    free(row);
    /* The last IDAT's CRC and the chunks up to IEND are only read here. */
    check(spng_decode_chunks(ctx));
  }
  free(out);
  spng_ctx_free(ctx);
}
