#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "palette.h"
#include "spng.h"

/* Lossless PNG: the smallest colour type the pixels allow (palette, grey, no alpha), zlib
 * level 9, and libspng's adaptive filter per row except for palettes, where no filter
 * compresses best. Lossy quantisation for quality < 100 is a later step that will hand
 * this encoder a palette. */
typedef struct {
  encoder base;
  spng_ctx *ctx;
  int width, channels;
  int kind;        /* KIND_* */
  int bit_depth;
  palette_map map; /* palette index of each colour when kind == KIND_PALETTE */
  uint8_t *row;
} png_encoder;

enum { KIND_GREY, KIND_GREY_ALPHA, KIND_RGB, KIND_RGBA, KIND_PALETTE };

static int write_output(spng_ctx *ctx, void *user, void *src, size_t length) {
  (void)ctx;
  (void)user;
  host_output_write(src, (int)length);
  return 0;
}

static void check(int code) {
  if (code) host_fail(code == SPNG_EMEM ? FAIL_MEMORY : FAIL_INTERNAL, spng_strerror(code));
}

static void put_palette_row(png_encoder *e, const uint8_t *row) {
  int per_byte = 8 / e->bit_depth;
  memset(e->row, 0, (size_t)(e->width + per_byte - 1) / per_byte);
  for (int x = 0; x < e->width; x++) {
    int index = palette_map_get(&e->map, pixel_rgba(row + x * e->channels, e->channels));
    if (index < 0) host_fail(FAIL_INTERNAL, "png: colour missing from the palette");
    int shift = 8 - e->bit_depth * (x % per_byte + 1);
    e->row[x / per_byte] |= (uint8_t)(index << shift);
  }
}

static void put_row(row_sink *self, const uint8_t *row) {
  png_encoder *e = (png_encoder *)self;
  switch (e->kind) {
    case KIND_PALETTE: put_palette_row(e, row); break;
    case KIND_GREY: convert_row(row, e->channels, e->row, 1, 0, e->width); break;
    case KIND_GREY_ALPHA: convert_row(row, e->channels, e->row, 1, 1, e->width); break;
    case KIND_RGB: convert_row(row, e->channels, e->row, 0, 0, e->width); break;
    default: convert_row(row, e->channels, e->row, 0, 1, e->width);
  }
  int code = spng_encode_row(e->ctx, e->row, (size_t)e->width * 4);
  if (code && code != SPNG_EOI) check(code);
}

static void finish(encoder *self) {
  png_encoder *e = (png_encoder *)self;
  spng_ctx_free(e->ctx);
  free(e->row);
  free(e);
}

static int pick_kind(const png_stats *st) {
  if (st->grey && st->opaque && st->palette_size > 16) return KIND_GREY;
  if (st->palette_size <= 256) return KIND_PALETTE;
  if (st->grey) return KIND_GREY_ALPHA;
  return st->opaque ? KIND_RGB : KIND_RGBA;
}

static int palette_depth(int size) {
  return size <= 2 ? 1 : size <= 4 ? 2 : size <= 16 ? 4 : 8;
}

/* PLTE and tRNS, with the translucent colours first so tRNS stops at the last of them. */
static void set_palette(png_encoder *e, const png_stats *st) {
  struct spng_plte plte = {0};
  struct spng_trns trns = {0};
  int n = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < st->palette_size; i++) {
      uint32_t c = st->palette[i];
      int opaque = (c & 0xff) == 0xff;
      if (opaque != pass) continue;
      plte.entries[n].red = (uint8_t)(c >> 24);
      plte.entries[n].green = (uint8_t)(c >> 16);
      plte.entries[n].blue = (uint8_t)(c >> 8);
      if (!opaque) trns.type3_alpha[n] = (uint8_t)c, trns.n_type3_entries = (uint32_t)n + 1;
      palette_map_put(&e->map, c, n);
      n++;
    }
  }
  plte.n_entries = (uint32_t)n;
  check(spng_set_plte(e->ctx, &plte));
  if (trns.n_type3_entries) check(spng_set_trns(e->ctx, &trns));
}

encoder *png_encoder_new(int width, int height, int channels, const png_stats *st) {
  png_encoder *e = xcalloc(1, sizeof(png_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->width = width;
  e->channels = channels;
  e->kind = pick_kind(st);
  e->bit_depth = e->kind == KIND_PALETTE ? palette_depth(st->palette_size) : 8;
  e->row = xmalloc((size_t)width * 4);
  palette_map_init(&e->map);
  e->ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  if (!e->ctx) host_fail(FAIL_MEMORY, "out of memory");
  check(spng_set_png_stream(e->ctx, write_output, NULL));
  static const uint8_t colour_types[] = {
      [KIND_GREY] = SPNG_COLOR_TYPE_GRAYSCALE, [KIND_GREY_ALPHA] = SPNG_COLOR_TYPE_GRAYSCALE_ALPHA,
      [KIND_RGB] = SPNG_COLOR_TYPE_TRUECOLOR, [KIND_RGBA] = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
      [KIND_PALETTE] = SPNG_COLOR_TYPE_INDEXED};
  struct spng_ihdr ihdr = {.width = (uint32_t)width, .height = (uint32_t)height,
                           .bit_depth = (uint8_t)e->bit_depth, .color_type = colour_types[e->kind]};
  check(spng_set_ihdr(e->ctx, &ihdr));
  if (e->kind == KIND_PALETTE) set_palette(e, st);
  /* zlib level 9 matches optipng's bytes on graphics; on big photos it costs about 3 s/MP
   * of CPU for a percent or two, so they get level 6. */
  int big = (long)width * height > 4500000L;
  check(spng_set_option(e->ctx, SPNG_IMG_COMPRESSION_LEVEL, big ? 6 : 9));
  check(spng_set_option(e->ctx, SPNG_FILTER_CHOICE,
                        e->kind == KIND_PALETTE ? SPNG_FILTER_CHOICE_NONE : SPNG_FILTER_CHOICE_ALL));
  check(spng_encode_image(e->ctx, NULL, 0, SPNG_FMT_PNG, SPNG_ENCODE_PROGRESSIVE | SPNG_ENCODE_FINALIZE));
  return &e->base;
}
