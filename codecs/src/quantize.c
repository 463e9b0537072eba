#include "quantize.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "palette.h"

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

/* Channel weights of the distance, leaning toward each channel's share of luminance (which
 * the eye, and butteraugli, see better than hue): further (0.83, 1.45, 0.52) made smaller
 * files on the small photos but left the 4 MP ones farther than pngquant at 256 colours.
 * They sum to 2.8, the scale quantize_error and seen_distance assume for grey. */
static const float WEIGHT[4] = {0.87f, 1.32f, 0.61f, 1.0f};

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

/* Tuned against pngquant at equal butteraugli on the corpus (npm run bench:quality):
 * how far one of a graphic's colours may end from its palette entry, as a multiple of the
 * mean error allowed; */
#define SPREAD_FACTOR 16
/* k-means rounds after median cut (photos) and after merging (graphics); */
#define PHOTO_ROUNDS 8
#define GRAPHIC_ROUNDS 3
/* and the dither: light on photos (butteraugli, like the eye up close, sees a full one as
 * noise), stronger on a graphic's tones, none on a handful of flat colours (its noise
 * would cost bytes and show). */
#define PHOTO_DITHER 0.3f
#define GRAPHIC_DITHER 0.6f
#define FLAT_COLOURS 8

/* A palette entry by its green, the heaviest channel: sorted by it, the palette lets a
 * nearest search start at the colour's green and stop each way once green alone is farther
 * than the best found, visiting a few colours rather than all 256. */
typedef struct {
  float green;
  int index;
} green_key;

struct quantizer {
  row_sink hist_sink, dither_sink;
  row_sink *next;
  int width, channels;
  cell *hist;
  uint64_t transparent;
  uint32_t transparent_colour; /* of the last fully transparent pixel */
  int transparent_varies;      /* they were not all one colour */
  int colours;
  entry palette[256];
  uint8_t rgba[256][4];
  int transparent_index; /* -1 when the image has no fully transparent pixel */
  /* The exact colours while there are 256 or fewer (exact_size 257 past that): a graphic's
   * palette is reduced from its real colours, not from the histogram's 5-bit buckets. Not
   * png-stats' count, which the lossless image needs raw: these are the visible colours
   * (alpha 254 read as 255; fully transparent pixels apart, whatever they hide). */
  palette_map exact_map;
  int exact_size;
  uint32_t exact_colour[256], exact_count[256];
  green_key order[256]; /* the palette but its transparent entry, by green */
  int ordered;           /* entries in order */
  uint16_t *cache;
  float dither;
  float *err_this, *err_next; /* (width + 2) x 4 */
  uint8_t *out;
  int row_index;
};

/* The mean squared error (weighted, summed over channels, 0..255 units) the palette may
 * leave at each quality: the curve libimagequant publishes as quality_to_mse, in our units.
 * The palette has as few colours as reach it, up to 256. */
float quantize_error(int quality) {
  double q = quality, fudge = 0.016 / (0.001 + q) - 0.001;
  double mse = (fudge > 0 ? fudge : 0) + 2.5 / pow(210.0 + q, 1.2) * (100.1 - q) / 100.0;
  return (float)(mse * 65025.0);
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

static void count_exact(quantizer *q, uint32_t colour) {
  int i = palette_map_get(&q->exact_map, colour);
  if (i >= 0) {
    q->exact_count[i]++;
  } else if (q->exact_size < 256) {
    palette_map_put(&q->exact_map, colour, q->exact_size);
    q->exact_colour[q->exact_size] = colour;
    q->exact_count[q->exact_size++] = 1;
  } else {
    q->exact_size = 257;
  }
}

static void put_hist(row_sink *self, const uint8_t *row) {
  quantizer *q = (quantizer *)((char *)self - offsetof(quantizer, hist_sink));
  for (int x = 0; x < q->width; x++) {
    int r, g, b, a;
    read_pixel(row + x * q->channels, q->channels, &r, &g, &b, &a);
    if (a == 0) {
      uint32_t colour = (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8;
      if (q->transparent++ && colour != q->transparent_colour) q->transparent_varies = 1;
      q->transparent_colour = colour;
      continue;
    }
    if (q->exact_size <= 256) count_exact(q, (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | (uint32_t)a);
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
  palette_map_init(&q->exact_map);
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

/* Splits until the mean error is at most max_error, or max_colours are made. */
static int median_cut(entry *e, int n, int max_colours, float max_error, entry *palette) {
  box boxes[256];
  int count = 1;
  boxes[0] = (box){.start = 0, .end = n};
  measure(&boxes[0], e);
  double weight = 0;
  for (int i = 0; i < n; i++) weight += e[i].weight;
  while (count < max_colours) {
    double error = 0;
    for (int i = 0; i < count; i++) error += boxes[i].error;
    if (error <= max_error * weight) break;
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

/* A graphic's own colours (256 or fewer), merged two at a time, the pair that adds the
 * least squared error first (Ward's method), until the next merge would take the mean error
 * past max_error. A merge that would leave some colour farther than max_spread from its
 * cluster's mean is never made: a rare but distinct colour (a few green pixels on black, the
 * grey edge of a black shape on white) keeps its entry. Down to max_colours whatever it
 * costs. Each cluster remembers its cheapest partner, so a merge costs O(n) updates. */
typedef struct {
  int n;
  entry *palette;   /* cluster i's mean and weight (0 once merged away) */
  int *cluster;     /* the cluster of each colour */
  uint8_t *barred;  /* n x n: pairs that may not merge */
  int *partner;     /* each cluster's cheapest allowed partner, or -1 */
  float *cost;      /* and what merging with it adds */
} merger;

/* How far apart two of a graphic's colours look: the luma difference (Rec. 601) weighted as
 * grey is by distance(), so grey images merge the same; the chroma differences at half
 * that (the eye resolves hue less). */
static float seen_distance(const float *x, const float *y) {
  float dr = x[0] - y[0], dg = x[1] - y[1], db = x[2] - y[2], da = x[3] - y[3];
  float dy = 0.299f * dr + 0.587f * dg + 0.114f * db;
  return 2.8f * dy * dy + 0.5f * ((dr - dy) * (dr - dy) + (db - dy) * (db - dy)) + da * da;
}

static float merge_cost(const merger *m, int i, int j) {
  float wi = m->palette[i].weight, wj = m->palette[j].weight;
  return wi * wj / (wi + wj) * seen_distance(m->palette[i].c, m->palette[j].c);
}

static void find_partner(merger *m, int i) {
  m->partner[i] = -1;
  m->cost[i] = INFINITY;
  for (int j = 0; j < m->n; j++) {
    if (j == i || m->palette[j].weight <= 0 || m->barred[i * m->n + j]) continue;
    float c = merge_cost(m, i, j);
    if (c < m->cost[i]) m->cost[i] = c, m->partner[i] = j;
  }
}

static void bar(merger *m, int i, int j) { m->barred[i * m->n + j] = m->barred[j * m->n + i] = 1; }

static int merge_colours(const entry *e, int n, int max_colours, float max_error, float max_spread, entry *palette) {
  merger m = {.n = n, .palette = palette};
  m.cluster = xmalloc((size_t)n * sizeof(int));
  m.barred = xcalloc((size_t)n * n, 1);
  m.partner = xmalloc((size_t)n * sizeof(int));
  m.cost = xmalloc((size_t)n * sizeof(float));
  double weight = 0, error = 0;
  for (int i = 0; i < n; i++) palette[i] = e[i], m.cluster[i] = i, weight += e[i].weight;
  for (int i = 0; i < n; i++) find_partner(&m, i);
  int count = n;
  for (;;) {
    int a = -1;
    for (int i = 0; i < n; i++)
      if (palette[i].weight > 0 && m.partner[i] >= 0 && (a < 0 || m.cost[i] < m.cost[a])) a = i;
    if (a < 0) break;
    int b = m.partner[a];
    float added = m.cost[a];
    if (count <= max_colours && error + added > max_error * weight) break;
    entry merged;
    float wa = palette[a].weight, wb = palette[b].weight;
    for (int c = 0; c < 4; c++) merged.c[c] = (palette[a].c[c] * wa + palette[b].c[c] * wb) / (wa + wb);
    merged.weight = wa + wb;
    float spread = 0;
    for (int k = 0; k < n; k++)
      if (m.cluster[k] == a || m.cluster[k] == b) {
        float d = seen_distance(e[k].c, merged.c);
        if (d > spread) spread = d;
      }
    if (spread > max_spread && count <= max_colours) {
      bar(&m, a, b);
      find_partner(&m, a);
      find_partner(&m, b);
      continue;
    }
    palette[a] = merged;
    palette[b].weight = 0;
    for (int k = 0; k < n; k++) {
      if (m.cluster[k] == b) m.cluster[k] = a;
      /* Whatever could not join b cannot join a cluster holding b. */
      if (m.barred[k * n + b]) bar(&m, k, a);
    }
    error += added;
    count--;
    find_partner(&m, a);
    for (int k = 0; k < n; k++) {
      if (k == a || palette[k].weight <= 0) continue;
      if (m.partner[k] == a || m.partner[k] == b) {
        find_partner(&m, k);
      } else if (!m.barred[k * n + a]) {
        float c = merge_cost(&m, k, a);
        if (c < m.cost[k]) m.cost[k] = c, m.partner[k] = a;
      }
    }
  }
  int out = 0;
  for (int i = 0; i < n; i++)
    if (palette[i].weight > 0) palette[out++] = palette[i];
  free(m.cluster);
  free(m.barred);
  free(m.partner);
  free(m.cost);
  return out;
}

static int by_green(const void *x, const void *y) {
  float a = ((const green_key *)x)->green, b = ((const green_key *)y)->green;
  return (a > b) - (a < b);
}

/* Call whenever the palette has changed. */
static void sort_by_green(quantizer *q) {
  q->ordered = 0;
  for (int k = 0; k < q->colours; k++)
    if (k != q->transparent_index) q->order[q->ordered++] = (green_key){q->palette[k].c[1], k};
  qsort(q->order, (size_t)q->ordered, sizeof *q->order, by_green);
}

/* Tries the entry at position i of the green order against the best so far; 0 when green
 * alone is already farther, so the search can stop on that side. */
static int try_entry(const quantizer *q, const float *c, int i, int *best, float *best_d) {
  float dg = q->order[i].green - c[1];
  if (WEIGHT[1] * dg * dg > *best_d) return 0;
  int k = q->order[i].index;
  float d = distance(c, q->palette[k].c);
  if (d < *best_d || (d == *best_d && k < *best)) *best_d = d, *best = k;
  return 1;
}

/* The opaque or translucent palette entry nearest to c; of equals, the lowest index. */
static int nearest(const quantizer *q, const float *c) {
  int m = q->ordered;
  if (m == 0) return 0;
  int lo = 0, hi = m;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (q->order[mid].green < c[1]) lo = mid + 1;
    else hi = mid;
  }
  int best = q->order[lo < m ? lo : m - 1].index;
  float best_d = distance(c, q->palette[best].c);
  for (int up = lo, down = lo - 1; up < m || down >= 0;) {
    if (up < m) up = try_entry(q, c, up, &best, &best_d) ? up + 1 : m;
    if (down >= 0) down = try_entry(q, c, down, &best, &best_d) ? down - 1 : -1;
  }
  return best;
}

/* k-means over the histogram entries: each colour moves to the mean of what maps to it. */
static void refine(quantizer *q, const entry *e, int n, int rounds) {
  double (*sum)[5] = xcalloc(256, sizeof *sum);
  for (int round = 0; round < rounds; round++) {
    memset(sum, 0, 256 * sizeof *sum);
    sort_by_green(q);
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

/* The histogram's entries written over it in place: exact colours when there are 256 or
 * fewer, else the buckets' means. Returns their number. */
static int histogram_entries(quantizer *q) {
  int n = 0;
  if (q->exact_size <= 256) {
    for (int i = 0; i < q->exact_size; i++) {
      uint32_t c = q->exact_colour[i];
      entry *e = &q->hist[n++].e;
      premultiply((float)(c >> 24), (float)((c >> 16) & 0xff), (float)((c >> 8) & 0xff), (float)(c & 0xff), e->c);
      e->weight = (float)q->exact_count[i];
    }
    return n;
  }
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
  return n;
}

static int by_weight(const void *x, const void *y) {
  float a = ((const entry *)x)->weight, b = ((const entry *)y)->weight;
  return (a < b) - (a > b);
}

int quantizer_choose(quantizer *q, int quality, png_stats *stats) {
  int reserve = q->transparent > 0;
  int n = histogram_entries(q);
  entry *e = &q->hist[0].e;
  float max_error = quantize_error(quality);
  if (q->exact_size <= 256)
    q->colours = n ? merge_colours(e, n, 256 - reserve, max_error, max_error * SPREAD_FACTOR, q->palette) : 0;
  else
    q->colours = median_cut(e, n, 256 - reserve, max_error, q->palette);
  /* Every colour kept: the exact image is the better palette (unless invisible colours under
   * alpha 0 differ, which become one entry). */
  if (q->exact_size <= 256 && q->colours == q->exact_size && !q->transparent_varies) return 0;
  /* Most used first: the indices of the common colours are small and alike, which deflates
   * a little better (as libimagequant orders its palette). */
  qsort(q->palette, (size_t)q->colours, sizeof(entry), by_weight);
  if (reserve) {
    q->transparent_index = q->colours;
    q->palette[q->colours++] = (entry){.c = {0, 0, 0, 0}};
  }
  refine(q, e, n, q->exact_size <= 256 ? GRAPHIC_ROUNDS : PHOTO_ROUNDS);
  free(q->hist);
  q->hist = NULL;
  q->dither = q->exact_size > 256 ? PHOTO_DITHER : q->colours > FLAT_COLOURS ? GRAPHIC_DITHER : 0;
  /* Back to straight alpha, rounded; equal colours would waste entries but do no harm to
   * the encoder, which maps each colour to one index. */
  stats->palette_size = q->colours;
  stats->opaque = 1;
  stats->grey = 1;
  stats->dithered = 1;
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
    /* A grey image's palette is grey (means of greys): the encoder may write it as grey. */
    if (p[0] != p[1] || p[0] != p[2]) stats->grey = 0;
    stats->palette[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
  }
  sort_by_green(q);
  return 1;
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

row_sink *quantizer_dither_sink(quantizer *q, int width, int channels, row_sink *next) {
  q->width = width;
  q->channels = channels;
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
