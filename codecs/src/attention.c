#include "attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* Cells on the image's longer side. */
#define GRID 48

struct attention {
  row_sink sink;
  int width, height, channels, rows_in;
  /* Rows come in `reduce` times as large (in_width x in_height) and are averaged in boxes of reduce x reduce
   * first: a JPEG decoded at M/8 for the transcode is scored as it would have been decoded at 1/8. */
  int reduce, in_width, in_height, in_rows, summed;
  uint16_t *sums; /* down each column: at most 8 rows of 255 */
  uint8_t *reduced;
  int grid_w, grid_h;
  int *column_cell; /* each column's cell across */
  float *luma; /* three rows of luma: above, current, below (the Laplacian of the middle one) */
  uint8_t *rgb; /* the middle row's colour, as R, G, B */
  uint8_t *rgb_next;
  double *detail, *colour; /* per cell: summed detail, and summed detail-weighted saturation and skin */
};

static int cell_of(int i, int size, int cells) {
  int c = (int)((long)i * cells / size);
  return c < cells - 1 ? c : cells - 1;
}

/* How near a colour is to skin (libvips' reference, its RGB direction (0.78, 0.57, 0.44)), 0 to 1; dark pixels are not skin. */
static float skin(float r, float g, float b) {
  /* The squares are compared first (a sum of squared bytes is exact): most pixels end there, without a square root. */
  float n2 = r * r + g * g + b * b;
  if (n2 < 1600.0f) return 0.0f;
  float n = sqrtf(n2);
  float dr = r / n - 0.7374f, dg = g / n - 0.5388f, db = b / n - 0.4159f;
  float d2 = dr * dr + dg * dg + db * db;
  if (d2 >= 0.0625f) return 0.0f;
  float d = sqrtf(d2);
  return d < 0.25f ? 1.0f - d / 0.25f : 0.0f;
}

static void to_rgb(const attention *a, const uint8_t *row, uint8_t *rgb) {
  int c = a->channels;
  for (int x = 0; x < a->width; x++) {
    const uint8_t *s = row + x * c;
    /* Transparent pixels are nothing to look at: black. */
    int alpha = channels_have_alpha(c) ? s[c - 1] : 255;
    for (int k = 0; k < 3; k++) rgb[3 * x + k] = (uint8_t)((c >= 3 ? s[k] : s[0]) * alpha / 255);
  }
}

/* Scores the middle row (y) from the rows above and below it. */
static void score_row(attention *a, int y, const float *up, const float *mid, const float *down) {
  int gy = cell_of(y, a->height, a->grid_h);
  for (int x = 0; x < a->width; x++) {
    float left = mid[x > 0 ? x - 1 : x], right = mid[x < a->width - 1 ? x + 1 : x];
    float detail = fabsf(4.0f * mid[x] - left - right - up[x] - down[x]);
    if (detail > 255.0f) detail = 255.0f;
    const uint8_t *p = a->rgb + 3 * x;
    int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
    int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
    float saturation = (hi - lo) / 255.0f;
    int cell = gy * a->grid_w + a->column_cell[x];
    a->detail[cell] += detail;
    /* Colour counts as much as the pixel is detailed: none where it is flat. */
    if (detail > 0.0f) a->colour[cell] += detail * (saturation + skin(p[0], p[1], p[2]));
  }
}

static void luma_of(const uint8_t *rgb, float *luma, int width) {
  for (int x = 0; x < width; x++) luma[x] = 0.299f * rgb[3 * x] + 0.587f * rgb[3 * x + 1] + 0.114f * rgb[3 * x + 2];
}

static void score_input(attention *a, const uint8_t *row) {
  int w = a->width, y = a->rows_in++;
  float *up = a->luma, *mid = a->luma + w, *down = a->luma + 2 * w;
  if (y == 0) {
    to_rgb(a, row, a->rgb);
    luma_of(a->rgb, mid, w);
    memcpy(up, mid, sizeof(float) * (size_t)w);
    if (a->height == 1) score_row(a, 0, up, mid, mid);
    return;
  }
  to_rgb(a, row, a->rgb_next);
  luma_of(a->rgb_next, down, w);
  score_row(a, y - 1, up, mid, down);
  /* Shift: the middle row becomes the one above, the new row the middle. */
  memcpy(up, mid, sizeof(float) * (size_t)w);
  memcpy(mid, down, sizeof(float) * (size_t)w);
  uint8_t *t = a->rgb;
  a->rgb = a->rgb_next;
  a->rgb_next = t;
  if (a->rows_in == a->height) score_row(a, y, up, mid, mid);
}

static void put_row(row_sink *self, const uint8_t *row) {
  attention *a = (attention *)self;
  if (a->reduce == 1) {
    score_input(a, row);
    return;
  }
  /* Rows are summed down each column as they come (one plain loop), and across a box once its rows are in. */
  int c = a->channels, n = a->in_width * c;
  for (int i = 0; i < n; i++) a->sums[i] = (uint16_t)(a->sums[i] + row[i]);
  a->summed++;
  if (++a->in_rows % a->reduce && a->in_rows < a->in_height) return;
  for (int x = 0; x < a->width; x++) {
    int first = x * a->reduce, columns = a->in_width - first < a->reduce ? a->in_width - first : a->reduce;
    uint32_t count = (uint32_t)(columns * a->summed);
    for (int k = 0; k < c; k++) {
      uint32_t sum = 0;
      for (int i = 0; i < columns; i++) sum += a->sums[(first + i) * c + k];
      a->reduced[x * c + k] = (uint8_t)((sum + count / 2) / count);
    }
  }
  memset(a->sums, 0, sizeof(uint16_t) * (size_t)n);
  a->summed = 0;
  score_input(a, a->reduced);
}

attention *attention_new(int in_width, int in_height, int channels, int reduce) {
  attention *a = xcalloc(1, sizeof *a);
  int width = (in_width + reduce - 1) / reduce, height = (in_height + reduce - 1) / reduce;
  *a = (attention){.sink = {.put = put_row}, .width = width, .height = height, .channels = channels,
                   .reduce = reduce, .in_width = in_width, .in_height = in_height};
  if (reduce > 1) {
    a->sums = xcalloc((size_t)in_width * channels, sizeof(uint16_t));
    a->reduced = xmalloc((size_t)width * channels);
  }
  int longer = width > height ? width : height;
  int cells = longer < GRID ? longer : GRID;
  a->grid_w = width >= height ? cells : (int)((long)cells * width / height);
  a->grid_h = height >= width ? cells : (int)((long)cells * height / width);
  if (a->grid_w < 1) a->grid_w = 1;
  if (a->grid_h < 1) a->grid_h = 1;
  a->luma = xmalloc(sizeof(float) * 3 * (size_t)width);
  a->rgb = xmalloc(3 * (size_t)width);
  a->rgb_next = xmalloc(3 * (size_t)width);
  a->column_cell = xmalloc(sizeof(int) * (size_t)width);
  for (int x = 0; x < width; x++) a->column_cell[x] = cell_of(x, width, a->grid_w);
  a->detail = xcalloc((size_t)a->grid_w * a->grid_h, sizeof(double));
  a->colour = xcalloc((size_t)a->grid_w * a->grid_h, sizeof(double));
  return a;
}

row_sink *attention_sink(attention *a) { return &a->sink; }

/* The best start (in cells) of a span of `span` cells among `cells`, by the column or row sums given; ties to the centre. */
static int best_start(const double *sums, int cells, int span) {
  int centre = (cells - span) / 2, best = centre;
  double window = 0.0;
  for (int i = 0; i < span; i++) window += sums[i];
  double best_score = -1.0;
  for (int start = 0; start + span <= cells; start++) {
    if (start > 0) window += sums[start + span - 1] - sums[start - 1];
    double off = abs(start - centre);
    /* A hair's preference for the centre decides between equal windows; windows of no detail at all (a flat
     * picture) score 0 whatever it is, so between those the nearer to the centre wins outright. */
    double score = window * (1.0 - 1e-6 * off);
    if (score > best_score || (score == best_score && off < abs(best - centre))) best_score = score, best = start;
  }
  return best;
}

void attention_place(const attention *a, int stored_w, int stored_h, int win_w, int win_h, int *left, int *top) {
  int gw = a->grid_w, gh = a->grid_h, n = gw * gh;
  /* A cell's score: its detail, with the saturation and skin of what is detailed in it on top. */
  double *score = xmalloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) score[i] = a->detail[i] + 2.0 * a->colour[i];
  /* A cut is along one axis (cover, crop, aspect-crop keep the other whole) or both: each is placed by its sums. */
  double *columns = xcalloc((size_t)gw, sizeof(double)), *rows = xcalloc((size_t)gh, sizeof(double));
  for (int y = 0; y < gh; y++)
    for (int x = 0; x < gw; x++) columns[x] += score[y * gw + x], rows[y] += score[y * gw + x];
  int span_w = (int)lround((double)win_w * gw / stored_w), span_h = (int)lround((double)win_h * gh / stored_h);
  if (span_w < 1) span_w = 1;
  if (span_h < 1) span_h = 1;
  if (span_w > gw) span_w = gw;
  if (span_h > gh) span_h = gh;
  int cx = best_start(columns, gw, span_w), cy = best_start(rows, gh, span_h);
  /* The cells' window, centred in pixels on the span found, kept inside the image. */
  double mid_x = (cx + span_w / 2.0) * stored_w / gw, mid_y = (cy + span_h / 2.0) * stored_h / gh;
  long l = lround(mid_x - win_w / 2.0), t = lround(mid_y - win_h / 2.0);
  *left = (int)(l < 0 ? 0 : l > stored_w - win_w ? stored_w - win_w : l);
  *top = (int)(t < 0 ? 0 : t > stored_h - win_h ? stored_h - win_h : t);
  free(score);
  free(columns);
  free(rows);
}

void attention_free(attention *a) {
  if (!a) return;
  free(a->luma);
  free(a->rgb);
  free(a->rgb_next);
  free(a->detail);
  free(a->colour);
  free(a->column_cell);
  free(a->sums);
  free(a->reduced);
  free(a);
}
