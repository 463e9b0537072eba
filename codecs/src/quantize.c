#include "quantize.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* Histogram buckets: 5 bits of R, G, B and 3 of alpha, with the top alpha bucket for 255
 * only, so opaque pixels stay exactly opaque. A bucket sums the bits below its key, so the
 * chosen colours are exact means: 20 B x 2^18 = 5 MiB whatever the image size, and sums
 * only overflow past 138 million pixels in one bucket. Fully transparent pixels are counted
 * apart and get their own palette entry. */
#define HIST_BITS 18
#define HIST_SIZE (1 << HIST_BITS)

typedef struct {
  uint32_t count, r, g, b, a;
} bucket;

/* A colour as the quantiser compares it: premultiplied by alpha, so invisible differences
 * of transparent pixels cost nothing (as they look in a browser). */
typedef struct {
  float c[4];
  float weight;
} entry;

/* Channel weights of the distance: green matters most to the eye, blue least. */
static const float WEIGHT[4] = {0.9f, 1.2f, 0.7f, 1.0f};

/* The histogram becomes the list of its non-empty buckets in place (an entry is the size of
 * a bucket and never lands after the bucket it comes from), so the palette costs no second
 * 5 MiB. */
typedef union {
  bucket b;
  entry e;
} cell;
_Static_assert(sizeof(bucket) == sizeof(entry), "entries overwrite buckets in place");

/* Nearest-colour cache of the write pass: 6 bits of R, G, B -> index + 1. */
#define CACHE_BITS 18

struct quantizer {
  row_sink hist_sink, dither_sink;
  row_sink *next;
  int width, channels;
  cell *hist;
  uint64_t transparent;
  int colours;
  entry palette[256];
  uint8_t rgba[256][4];
  int transparent_index; /* -1 when the image has no fully transparent pixel */
  uint16_t *cache;
  float dither;
  float *err_this, *err_next; /* (width + 2) x 4 */
  uint8_t *out;
  int row_index;
};

/* 256 colours from quality 90 up, half as many every 15 below, at least 8. Measured with
 * butteraugli (docs/benchmarks.md): a light dither is both smaller and closer than a full
 * one, which butteraugli (like the eye, up close) sees as noise. */
int quantize_colours(int quality) {
  int colours = (int)(256.0 * exp2((quality - 90) / 15.0) + 0.5);
  return colours > 256 ? 256 : colours < 8 ? 8 : colours;
}

float quantize_dither(int quality) {
  (void)quality;
  return 0.3f;
}

static int alpha_bucket(int a) { return a == 255 ? 7 : a * 7 / 255; }
static int alpha_base(int ab) { return ab == 7 ? 255 : (ab * 255 + 6) / 7; }

static void read_pixel(const uint8_t *s, int channels, int *r, int *g, int *b, int *a) {
  *r = s[0];
  *g = channels >= 3 ? s[1] : s[0];
  *b = channels >= 3 ? s[2] : s[0];
  *a = channels == 2 ? s[1] : channels == 4 ? s[3] : 255;
  if (*a >= NEAR_OPAQUE) *a = 255;
}

static void put_hist(row_sink *self, const uint8_t *row) {
  quantizer *q = (quantizer *)((char *)self - offsetof(quantizer, hist_sink));
  for (int x = 0; x < q->width; x++) {
    int r, g, b, a;
    read_pixel(row + x * q->channels, q->channels, &r, &g, &b, &a);
    if (a == 0) {
      q->transparent++;
      continue;
    }
    int ab = alpha_bucket(a);
    bucket *k = &q->hist[(r >> 3) << 13 | (g >> 3) << 8 | (b >> 3) << 3 | ab].b;
    k->count++;
    k->r += r & 7;
    k->g += g & 7;
    k->b += b & 7;
    k->a += (uint32_t)(a - alpha_base(ab));
  }
  q->next->put(q->next, row);
}

quantizer *quantizer_new(void) {
  quantizer *q = xcalloc(1, sizeof(quantizer));
  q->hist = xcalloc(HIST_SIZE, sizeof(cell));
  q->hist_sink.put = put_hist;
  q->transparent_index = -1;
  return q;
}

row_sink *quantizer_histogram_sink(quantizer *q, int width, int channels, row_sink *next) {
  q->width = width;
  q->channels = channels;
  q->next = next;
  return &q->hist_sink;
}

static void premultiply(float r, float g, float b, float a, float out[4]) {
  float f = a / 255.0f;
  out[0] = r * f;
  out[1] = g * f;
  out[2] = b * f;
  out[3] = a;
}

static float distance(const float *x, const float *y) {
  float d = 0;
  for (int c = 0; c < 4; c++) d += WEIGHT[c] * (x[c] - y[c]) * (x[c] - y[c]);
  return d;
}

static int nearest(const quantizer *q, const float *c) {
  int best = 0;
  float best_d = INFINITY;
  for (int i = 0; i < q->colours; i++) {
    if (i == q->transparent_index) continue;
    float d = distance(c, q->palette[i].c);
    if (d < best_d) best_d = d, best = i;
  }
  return best;
}

/* Median cut: a box is a range of entries; the one with the largest weighted error is
 * split at the weighted median of its widest channel. */
typedef struct {
  int start, end;
  float error;
  int channel;
} box;

static int sort_channel;
static int by_channel(const void *x, const void *y) {
  float a = ((const entry *)x)->c[sort_channel], b = ((const entry *)y)->c[sort_channel];
  return (a > b) - (a < b);
}

static void measure(box *bx, const entry *e) {
  double w = 0, sum[4] = {0}, sq[4] = {0};
  for (int i = bx->start; i < bx->end; i++) {
    w += e[i].weight;
    for (int c = 0; c < 4; c++) sum[c] += e[i].weight * e[i].c[c], sq[c] += e[i].weight * e[i].c[c] * e[i].c[c];
  }
  bx->error = 0;
  bx->channel = 0;
  double widest = -1;
  for (int c = 0; c < 4; c++) {
    double var = (sq[c] - sum[c] * sum[c] / w) * WEIGHT[c];
    bx->error += (float)var;
    if (var > widest) widest = var, bx->channel = c;
  }
  if (bx->end - bx->start < 2) bx->error = 0;
}

static void mean_of(const entry *e, int start, int end, entry *out) {
  double w = 0, sum[4] = {0};
  for (int i = start; i < end; i++) {
    w += e[i].weight;
    for (int c = 0; c < 4; c++) sum[c] += e[i].weight * e[i].c[c];
  }
  for (int c = 0; c < 4; c++) out->c[c] = (float)(sum[c] / w);
  out->weight = (float)w;
}

static int median_cut(entry *e, int n, int max_colours, entry *palette) {
  box boxes[256];
  int count = 1;
  boxes[0] = (box){.start = 0, .end = n};
  measure(&boxes[0], e);
  while (count < max_colours) {
    int pick = -1;
    for (int i = 0; i < count; i++)
      if (boxes[i].error > 0 && (pick < 0 || boxes[i].error > boxes[pick].error)) pick = i;
    if (pick < 0) break;
    box *bx = &boxes[pick];
    sort_channel = bx->channel;
    qsort(e + bx->start, (size_t)(bx->end - bx->start), sizeof(entry), by_channel);
    double total = 0, half = 0;
    for (int i = bx->start; i < bx->end; i++) total += e[i].weight;
    int cut = bx->start + 1;
    for (int i = bx->start; i < bx->end - 1; i++) {
      half += e[i].weight;
      cut = i + 1;
      if (half >= total / 2) break;
    }
    boxes[count] = (box){.start = cut, .end = bx->end};
    bx->end = cut;
    measure(bx, e);
    measure(&boxes[count], e);
    count++;
  }
  for (int i = 0; i < count; i++) mean_of(e, boxes[i].start, boxes[i].end, &palette[i]);
  return count;
}

/* k-means over the histogram entries: each colour moves to the mean of what maps to it. */
static void refine(quantizer *q, const entry *e, int n, int rounds) {
  double (*sum)[5] = xcalloc(256, sizeof *sum);
  for (int round = 0; round < rounds; round++) {
    memset(sum, 0, 256 * sizeof *sum);
    for (int i = 0; i < n; i++) {
      int k = nearest(q, e[i].c);
      for (int c = 0; c < 4; c++) sum[k][c] += e[i].weight * e[i].c[c];
      sum[k][4] += e[i].weight;
    }
    for (int k = 0; k < q->colours; k++)
      if (k != q->transparent_index && sum[k][4] > 0)
        for (int c = 0; c < 4; c++) q->palette[k].c[c] = (float)(sum[k][c] / sum[k][4]);
  }
  free(sum);
}

static uint8_t clamp8(float v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5f); }

void quantizer_choose(quantizer *q, int max_colours, png_stats *stats) {
  int n = 0;
  for (int i = 0; i < HIST_SIZE; i++) {
    bucket k = q->hist[i].b;
    if (!k.count) continue;
    float cnt = (float)k.count;
    float r = (float)((i >> 13) << 3) + k.r / cnt, g = (float)(((i >> 8) & 31) << 3) + k.g / cnt;
    float b = (float)(((i >> 3) & 31) << 3) + k.b / cnt, a = (float)alpha_base(i & 7) + k.a / cnt;
    entry *e = &q->hist[n++].e;
    premultiply(r, g, b, a, e->c);
    e->weight = cnt;
  }
  entry *e = &q->hist[0].e;
  int reserve = q->transparent > 0;
  q->colours = n ? median_cut(e, n, max_colours - reserve, q->palette) : 0;
  if (reserve) {
    q->transparent_index = q->colours;
    q->palette[q->colours++] = (entry){.c = {0, 0, 0, 0}};
  }
  refine(q, e, n, 3);
  free(q->hist);
  q->hist = NULL;
  /* Back to straight alpha, rounded; equal colours would waste entries but do no harm to
   * the encoder, which maps each colour to one index. */
  stats->palette_size = q->colours;
  stats->opaque = 1;
  for (int i = 0; i < q->colours; i++) {
    const float *c = q->palette[i].c;
    uint8_t a = clamp8(c[3]);
    float f = a ? 255.0f / a : 0;
    uint8_t *p = q->rgba[i];
    p[0] = clamp8(c[0] * f), p[1] = clamp8(c[1] * f), p[2] = clamp8(c[2] * f), p[3] = a;
    if (a == 0) p[0] = p[1] = p[2] = 0;
    /* What the write pass compares against is what will be written. */
    premultiply(p[0], p[1], p[2], p[3], q->palette[i].c);
    if (a != 255) stats->opaque = 0;
    stats->palette[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
  }
  stats->grey = 0;
}

/* Opaque colours are looked up by 6 bits of R, G, B (the nearest to the cell's centre, off
 * by at most 2 levels, which the dither corrects); translucent ones, rare, are searched. */
static int cached_nearest(quantizer *q, const float *c) {
  if (c[3] < 254.5f) return nearest(q, c);
  int r = clamp8(c[0]) >> 2, g = clamp8(c[1]) >> 2, b = clamp8(c[2]) >> 2;
  uint16_t *slot = &q->cache[r << 12 | g << 6 | b];
  if (!*slot) {
    float centre[4] = {(float)(r << 2) + 1.5f, (float)(g << 2) + 1.5f, (float)(b << 2) + 1.5f, 255};
    *slot = (uint16_t)(nearest(q, centre) + 1);
  }
  return *slot - 1;
}

/* Floyd-Steinberg, serpentine: odd rows run right to left so the error does not drift one way. */
static void put_dither(row_sink *self, const uint8_t *row) {
  quantizer *q = (quantizer *)((char *)self - offsetof(quantizer, dither_sink));
  int w = q->width, reverse = q->row_index++ & 1;
  memset(q->err_next, 0, (size_t)(w + 2) * 4 * sizeof(float));
  for (int i = 0; i < w; i++) {
    int x = reverse ? w - 1 - i : i, dir = reverse ? -1 : 1;
    int r, g, b, a;
    read_pixel(row + x * q->channels, q->channels, &r, &g, &b, &a);
    int k;
    float want[4];
    if (a == 0 && q->transparent_index >= 0) {
      k = q->transparent_index;
    } else {
      premultiply((float)r, (float)g, (float)b, (float)a, want);
      float *err = q->err_this + (x + 1) * 4;
      for (int c = 0; c < 4; c++) want[c] += err[c];
      if (want[3] > 255) want[3] = 255;
      if (a == 255) want[3] = 255; /* opaque stays opaque: no error moves into alpha */
      k = cached_nearest(q, want);
      const float *got = q->palette[k].c;
      for (int c = 0; c < 4; c++) {
        float e = (want[c] - got[c]) * q->dither;
        /* Cap the carried error so a colour far from the palette does not smear (streaks). */
        if (e > 48) e = 48;
        if (e < -48) e = -48;
        q->err_this[(x + 1 + dir) * 4 + c] += e * 7 / 16;
        q->err_next[(x + 1 - dir) * 4 + c] += e * 3 / 16;
        q->err_next[(x + 1) * 4 + c] += e * 5 / 16;
        q->err_next[(x + 1 + dir) * 4 + c] += e * 1 / 16;
      }
    }
    memcpy(q->out + x * 4, q->rgba[k], 4);
  }
  float *t = q->err_this;
  q->err_this = q->err_next;
  q->err_next = t;
  q->next->put(q->next, q->out);
}

row_sink *quantizer_dither_sink(quantizer *q, int width, int channels, float dither, row_sink *next) {
  q->width = width;
  q->channels = channels;
  q->dither = dither;
  q->next = next;
  q->row_index = 0;
  /* A pass may run more than once (a counting pass, then the write): start afresh. */
  if (!q->cache) q->cache = xcalloc((size_t)1 << CACHE_BITS, sizeof(uint16_t));
  free(q->err_this);
  free(q->err_next);
  free(q->out);
  q->err_this = xcalloc((size_t)(width + 2) * 4, sizeof(float));
  q->err_next = xcalloc((size_t)(width + 2) * 4, sizeof(float));
  q->out = xmalloc((size_t)width * 4);
  q->dither_sink.put = put_dither;
  return &q->dither_sink;
}

void quantizer_free(quantizer *q) {
  if (!q) return;
  free(q->hist);
  free(q->cache);
  free(q->err_this);
  free(q->err_next);
  free(q->out);
  free(q);
}
