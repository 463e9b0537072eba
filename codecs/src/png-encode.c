#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "palette.h"
#include "spng.h"
#include "zlib.h"

/* Lossless PNG: the smallest colour type the pixels allow (palette, grey, no alpha), zlib
 * level 9, and libspng's adaptive filter per row except for palettes, where no filter
 * compresses best, unless the engine chose other params from trial counts. */

/* libspng cuts IDAT into 8 KiB chunks: 12 bytes of length, type and CRC each, 0.15 % of the
 * file, which is all that separates it from optipng on big images. The output is re-chunked:
 * IDAT data is gathered here and written as chunks of up to IDAT_MAX (1 MiB, counted by
 * the memory model), every other chunk passes through. */
#define IDAT_MAX (1 << 20)

typedef struct {
  long *count;       /* trial: only count the bytes */
  int signature;     /* bytes of the PNG signature passed so far */
  uint8_t head[8];   /* chunk length and type, as they arrive */
  int head_len;
  uint32_t data_left, crc_left; /* of the current chunk */
  int idat;          /* the current chunk is IDAT */
  uint8_t *buf;      /* IDAT data not yet written */
  uint32_t buf_len;
} png_output;

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void flush_idat(png_output *o) {
  if (!o->buf_len) return;
  uint8_t head[8], crc[4];
  put_u32(head, o->buf_len);
  memcpy(head + 4, "IDAT", 4);
  put_u32(crc, (uint32_t)crc32(crc32(0, head + 4, 4), o->buf, o->buf_len));
  host_output_write(head, 8);
  host_output_write(o->buf, (int)o->buf_len);
  host_output_write(crc, 4);
  o->buf_len = 0;
}

static void output_bytes(png_output *o, const uint8_t *p, size_t n) {
  if (o->signature < 8) {
    size_t k = n < (size_t)(8 - o->signature) ? n : (size_t)(8 - o->signature);
    host_output_write(p, (int)k);
    o->signature += (int)k, p += k, n -= k;
  }
  while (n) {
    if (!o->data_left && !o->crc_left) {
      /* A chunk header: IDAT ones are dropped, the rest first flush the IDAT data before them. */
      size_t k = n < (size_t)(8 - o->head_len) ? n : (size_t)(8 - o->head_len);
      memcpy(o->head + o->head_len, p, k);
      o->head_len += (int)k, p += k, n -= k;
      if (o->head_len < 8) break;
      o->head_len = 0;
      o->data_left = (uint32_t)o->head[0] << 24 | o->head[1] << 16 | o->head[2] << 8 | o->head[3];
      o->crc_left = 4;
      o->idat = !memcmp(o->head + 4, "IDAT", 4);
      if (!o->idat) flush_idat(o), host_output_write(o->head, 8);
    } else if (o->data_left) {
      size_t k = n < o->data_left ? n : o->data_left;
      if (!o->idat) {
        host_output_write(p, (int)k);
      } else {
        if (k > IDAT_MAX - o->buf_len) k = IDAT_MAX - o->buf_len;
        memcpy(o->buf + o->buf_len, p, k);
        o->buf_len += (uint32_t)k;
        if (o->buf_len == IDAT_MAX) flush_idat(o);
      }
      o->data_left -= (uint32_t)k, p += k, n -= k;
    } else {
      size_t k = n < o->crc_left ? n : o->crc_left;
      if (!o->idat) host_output_write(p, (int)k); /* flush_idat computes its own CRC */
      o->crc_left -= (uint32_t)k, p += k, n -= k;
    }
  }
}

typedef struct {
  encoder base;
  spng_ctx *ctx;
  int width, channels;
  int kind;        /* KIND_* */
  int bit_depth;
  palette_map map; /* palette index of each colour when kind == KIND_PALETTE */
  uint8_t *row;
  png_output out;
} png_encoder;

enum { KIND_GREY, KIND_GREY_ALPHA, KIND_RGB, KIND_RGBA, KIND_PALETTE };

static int write_output(spng_ctx *ctx, void *user, void *src, size_t length) {
  (void)ctx;
  png_output *o = user;
  if (o->count) *o->count += (long)length;
  else output_bytes(o, src, length);
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
  free(e->out.buf);
  free(e->row);
  free(e);
}

/* Grey stays grey, but 16 greys or fewer go in a 4-bit palette of greys: half the bytes. */
static int pick_kind(const png_stats *st) {
  if (st->grey && st->opaque && st->palette_size > 16) return KIND_GREY;
  if (st->palette_size <= 256) return KIND_PALETTE;
  if (st->grey) return KIND_GREY_ALPHA;
  return st->opaque ? KIND_RGB : KIND_RGBA;
}

int png_default_filter(const png_stats *st) {
  return pick_kind(st) == KIND_PALETTE || st->dithered ? SPNG_FILTER_CHOICE_NONE : SPNG_FILTER_CHOICE_ALL;
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
      int opaque = (c & 0xff) >= NEAR_OPAQUE;
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

encoder *png_encoder_new(int width, int height, int channels, const png_stats *st, const png_params *params, long *count) {
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
  e->out.count = count;
  if (!count) e->out.buf = xmalloc(IDAT_MAX);
  check(spng_set_png_stream(e->ctx, write_output, &e->out));
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
  if (params) {
    check(spng_set_option(e->ctx, SPNG_IMG_COMPRESSION_STRATEGY, params->strategy));
    check(spng_set_option(e->ctx, SPNG_FILTER_CHOICE, params->filter_choice));
  } else {
    check(spng_set_option(e->ctx, SPNG_FILTER_CHOICE, png_default_filter(st)));
  }
  check(spng_encode_image(e->ctx, NULL, 0, SPNG_FMT_PNG, SPNG_ENCODE_PROGRESSIVE | SPNG_ENCODE_FINALIZE));
  return &e->base;
}
