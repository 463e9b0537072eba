#include "webp-alpha.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "src/dsp/lossless_common.h"
#include "src/utils/bit_writer_utils.h"
#include "src/utils/huffman_encode_utils.h"

/* From libwebp's backward_references_enc.c: linear distance to VP8L's 2D distance code. */
extern int VP8LDistanceToPlaneCode(int xsize, int dist);

#define GREEN_SYMBOLS (256 + 24) /* literals + length prefixes, no colour cache */
#define DISTANCE_SYMBOLS 40
#define CODE_LENGTH_CODES 19
#define MIN_COPY 3
#define MAX_COPY 4096
#define ALPHA_FILTER_HORIZONTAL 1

typedef struct {
  const uint8_t *plane;
  int stride, width, height;
} alpha_plane;

/* The horizontally filtered sample at linear index p, as libwebp's unfilter expects: left
 * neighbour, or the one above for the first column (0 on the first row). */
static uint8_t filtered(const alpha_plane *a, long p) {
  int x = (int)(p % a->width), y = (int)(p / a->width);
  const uint8_t *row = a->plane + (size_t)y * a->stride;
  int pred = x > 0 ? row[x - 1] : (y > 0 ? row[-a->stride] : 0);
  return (uint8_t)(row[x] - pred);
}

static int run_length(const alpha_plane *a, long p, long total, long dist) {
  if (p < dist) return 0;
  int n = 0;
  while (n < MAX_COPY && p + n < total && filtered(a, p + n) == filtered(a, p + n - dist)) n++;
  return n;
}

typedef struct {
  uint32_t green[GREEN_SYMBOLS], distance[DISTANCE_SYMBOLS];
} histograms;

typedef struct {
  uint8_t lengths[GREEN_SYMBOLS + DISTANCE_SYMBOLS];
  uint16_t codes[GREEN_SYMBOLS + DISTANCE_SYMBOLS];
  HuffmanTreeCode green, distance;
} prefix_codes;

/* Walks the plane as literals and copies; counts symbols when bw is NULL, else writes them. */
static void walk(const alpha_plane *a, histograms *h, const prefix_codes *c, VP8LBitWriter *bw) {
  long total = (long)a->width * a->height;
  for (long p = 0; p < total;) {
    int left = run_length(a, p, total, 1), up = run_length(a, p, total, a->width);
    long dist = up > left ? a->width : 1;
    int len = up > left ? up : left;
    if (len < MIN_COPY) {
      uint8_t v = filtered(a, p);
      if (bw) VP8LPutBits(bw, c->green.codes[v], c->green.code_lengths[v]);
      else h->green[v]++;
      p++;
      continue;
    }
    int len_code, len_bits, len_value, dist_code, dist_bits, dist_value;
    VP8LPrefixEncode(len, &len_code, &len_bits, &len_value);
    VP8LPrefixEncode(VP8LDistanceToPlaneCode(a->width, (int)dist), &dist_code, &dist_bits, &dist_value);
    if (bw) {
      VP8LPutBits(bw, c->green.codes[256 + len_code], c->green.code_lengths[256 + len_code]);
      VP8LPutBits(bw, (uint32_t)len_value, len_bits);
      VP8LPutBits(bw, c->distance.codes[dist_code], c->distance.code_lengths[dist_code]);
      VP8LPutBits(bw, (uint32_t)dist_value, dist_bits);
    } else {
      h->green[256 + len_code]++;
      h->distance[dist_code]++;
    }
    p += len;
  }
}

/* A code read as zero bits by the decoder when it has a single symbol, as libwebp does. */
static void clear_if_single(HuffmanTreeCode *code) {
  int used = 0;
  for (int i = 0; i < code->num_symbols; i++) used += code->code_lengths[i] != 0;
  if (used > 1) return;
  memset(code->code_lengths, 0, (size_t)code->num_symbols);
  memset(code->codes, 0, sizeof(uint16_t) * (size_t)code->num_symbols);
}

static void write_code_lengths_code(VP8LBitWriter *bw, const uint8_t *lengths) {
  static const uint8_t order[CODE_LENGTH_CODES] = {17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  int n = CODE_LENGTH_CODES;
  while (n > 4 && lengths[order[n - 1]] == 0) n--;
  VP8LPutBits(bw, (uint32_t)(n - 4), 4);
  for (int i = 0; i < n; i++) VP8LPutBits(bw, lengths[order[i]], 3);
}

/* A prefix code as VP8L stores it: the short form for one or two 8-bit symbols, otherwise
 * its code lengths, run-length coded with a code of their own. */
static void write_code(VP8LBitWriter *bw, const HuffmanTreeCode *code, HuffmanTree *pool, HuffmanTreeToken *tokens) {
  int used = 0, symbols[2] = {0, 0};
  for (int i = 0; i < code->num_symbols && used < 3; i++) {
    if (code->code_lengths[i]) {
      if (used < 2) symbols[used] = i;
      used++;
    }
  }
  if (used == 0) {
    VP8LPutBits(bw, 0x01, 4);
    return;
  }
  if (used <= 2 && symbols[0] < 256 && symbols[1] < 256) {
    VP8LPutBits(bw, 1, 1);
    VP8LPutBits(bw, (uint32_t)(used - 1), 1);
    if (symbols[0] <= 1) {
      VP8LPutBits(bw, 0, 1);
      VP8LPutBits(bw, (uint32_t)symbols[0], 1);
    } else {
      VP8LPutBits(bw, 1, 1);
      VP8LPutBits(bw, (uint32_t)symbols[0], 8);
    }
    if (used == 2) VP8LPutBits(bw, (uint32_t)symbols[1], 8);
    return;
  }
  VP8LPutBits(bw, 0, 1);
  int n = VP8LCreateCompressedHuffmanTree(code, tokens, code->num_symbols);
  uint32_t histogram[CODE_LENGTH_CODES] = {0};
  uint8_t rle[CODE_LENGTH_CODES], lengths[CODE_LENGTH_CODES] = {0};
  uint16_t codes[CODE_LENGTH_CODES] = {0};
  for (int i = 0; i < n; i++) histogram[tokens[i].code]++;
  HuffmanTreeCode lengths_code = {CODE_LENGTH_CODES, lengths, codes};
  VP8LCreateHuffmanTree(histogram, 7, rle, pool, &lengths_code);
  write_code_lengths_code(bw, lengths);
  clear_if_single(&lengths_code);
  VP8LPutBits(bw, 0, 1); /* every code length is written: no trimmed count */
  static const int extra[CODE_LENGTH_CODES] = {[16] = 2, [17] = 3, [18] = 7};
  for (int i = 0; i < n; i++) {
    int ix = tokens[i].code;
    VP8LPutBits(bw, codes[ix], lengths[ix]);
    if (extra[ix]) VP8LPutBits(bw, tokens[i].extra_bits, extra[ix]);
  }
}

/* A code with the single symbol 0: red, blue and alpha carry nothing in an alpha plane. */
static void write_zero_code(VP8LBitWriter *bw) { VP8LPutBits(bw, 0x01, 4); }

uint8_t *webp_encode_alpha(const uint8_t *plane, int stride, int width, int height, size_t *size) {
  alpha_plane a = {plane, stride, width, height};
  histograms *h = xcalloc(1, sizeof(histograms));
  walk(&a, h, NULL, NULL);

  prefix_codes *c = xcalloc(1, sizeof(prefix_codes));
  c->green = (HuffmanTreeCode){GREEN_SYMBOLS, c->lengths, c->codes};
  c->distance = (HuffmanTreeCode){DISTANCE_SYMBOLS, c->lengths + GREEN_SYMBOLS, c->codes + GREEN_SYMBOLS};
  HuffmanTree *pool = xcalloc(3 * GREEN_SYMBOLS, sizeof(HuffmanTree));
  HuffmanTreeToken *tokens = xcalloc(GREEN_SYMBOLS, sizeof(HuffmanTreeToken));
  uint8_t *rle = xcalloc(GREEN_SYMBOLS, 1);
  VP8LCreateHuffmanTree(h->green, 15, rle, pool, &c->green);
  VP8LCreateHuffmanTree(h->distance, 15, rle, pool, &c->distance);

  VP8LBitWriter bw;
  if (!VP8LBitWriterInit(&bw, (size_t)width * height / 8 + 1024)) host_fail(FAIL_MEMORY, "out of memory");
  VP8LPutBits(&bw, 0, 1); /* no transform */
  VP8LPutBits(&bw, 0, 1); /* no colour cache */
  VP8LPutBits(&bw, 0, 1); /* one prefix-code group for the whole image */
  write_code(&bw, &c->green, pool, tokens);
  write_zero_code(&bw);
  write_zero_code(&bw);
  write_zero_code(&bw);
  write_code(&bw, &c->distance, pool, tokens);
  clear_if_single(&c->green);
  clear_if_single(&c->distance);
  walk(&a, NULL, c, &bw);

  uint8_t *bits = VP8LBitWriterFinish(&bw);
  if (bw.error_) host_fail(FAIL_MEMORY, "out of memory");
  size_t n = VP8LBitWriterNumBytes(&bw);
  uint8_t *out = xmalloc(n + 1);
  out[0] = ALPHA_FILTER_HORIZONTAL << 2 | 1; /* horizontal filter, lossless compression */
  memcpy(out + 1, bits, n);
  *size = n + 1;
  VP8LBitWriterWipeOut(&bw);
  free(rle);
  free(tokens);
  free(pool);
  free(c);
  free(h);
  return out;
}
