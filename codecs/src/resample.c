#include "resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* The taps of one output sample: input indices start..start+count-1. */
typedef struct {
  int start, count;
  float *weights;
} taps;

struct resampler {
  row_sink sink;
  int in_w, in_h, out_w, out_h, channels;
  taps *h_taps, *v_taps;
  float *h_weights, *v_weights;
  float *premul;    /* one input row, premultiplied, as floats */
  float *ring;      /* ring_rows horizontally filtered rows */
  int ring_rows;
  float *acc;       /* one output row before conversion to 8 bits */
  uint8_t *out_row;
  int rows_in, rows_out;
  int first_column, columns; /* the input columns any output sample reads */
  row_sink *next;
};

static double sinc(double x) {
  if (x == 0.0) return 1.0;
  x *= M_PI;
  return sin(x) / x;
}

static double lanczos3(double x) {
  x = fabs(x);
  return x < 3.0 ? sinc(x) * sinc(x / 3.0) : 0.0;
}

/* Mitchell-Netravali with B = C = 1/3. */
static double mitchell(double x) {
  const double B = 1.0 / 3.0, C = 1.0 / 3.0;
  x = fabs(x);
  if (x < 1.0)
    return ((12 - 9 * B - 6 * C) * x * x * x + (-18 + 12 * B + 6 * C) * x * x + (6 - 2 * B)) / 6.0;
  if (x < 2.0)
    return ((-B - 6 * C) * x * x * x + (6 * B + 30 * C) * x * x + (-12 * B - 48 * C) * x +
            (8 * B + 24 * C)) / 6.0;
  return 0.0;
}

/* Weights for resampling the span of `length` samples from `start` of n_in to n_out, with the kernel
 * stretched by the scale when shrinking (so it low-passes) and the span's edge samples repeated (folded
 * into the edge weight). */
static taps *make_taps(int n_in, double start, double length, int n_out, enum resample_filter filter, float **storage,
                       int *max_count) {
  double (*kernel)(double) = filter == FILTER_MITCHELL ? mitchell : lanczos3;
  double support = filter == FILTER_MITCHELL ? 2.0 : 3.0;
  double scale = length / n_out;
  /* The pixels the span covers; a sliver of less than a thousandth of a pixel does not count. */
  int span_first = (int)floor(start + 1e-3), span_last = (int)ceil(start + length - 1e-3) - 1;
  if (span_first < 0) span_first = 0;
  if (span_last > n_in - 1) span_last = n_in - 1;
  if (span_last < span_first) span_last = span_first;
  double stretch = scale > 1.0 ? scale : 1.0;
  int width = (int)ceil(support * stretch) * 2 + 1;
  taps *t = xmalloc(sizeof(taps) * (size_t)n_out);
  float *w = xmalloc(sizeof(float) * (size_t)n_out * (size_t)width);
  *storage = w;
  *max_count = 0;
  for (int o = 0; o < n_out; o++) {
    double center = start + (o + 0.5) * scale - 0.5;
    int lo = (int)floor(center - support * stretch) + 1;
    int hi = (int)ceil(center + support * stretch) - 1;
    int first = lo < span_first ? span_first : lo;
    int last = hi > span_last ? span_last : hi;
    if (last < first) last = first;
    float *ow = w + (size_t)o * width;
    memset(ow, 0, sizeof(float) * (size_t)width);
    double sum = 0.0;
    for (int i = lo; i <= hi; i++) {
      double k = kernel((i - center) / stretch);
      int j = i < first ? first : (i > last ? last : i);
      ow[j - first] += (float)k;
      sum += k;
    }
    int count = last - first + 1;
    for (int j = 0; j < count; j++) ow[j] = (float)(ow[j] / sum);
    t[o].start = first;
    t[o].count = count;
    t[o].weights = ow;
    if (count > *max_count) *max_count = count;
  }
  return t;
}

static void horizontal(resampler *r, const uint8_t *row, float *dst) {
  int c = r->channels;
  float *p = r->premul;
  row += (size_t)r->first_column * c;
  if (channels_have_alpha(c)) {
    for (int x = 0; x < r->columns; x++) {
      const uint8_t *s = row + x * c;
      float a = s[c - 1] * (1.0f / 255.0f);
      for (int k = 0; k < c - 1; k++) p[x * c + k] = s[k] * a;
      p[x * c + c - 1] = s[c - 1];
    }
  } else {
    for (int i = 0; i < r->columns * c; i++) p[i] = row[i];
  }
  for (int o = 0; o < r->out_w; o++) {
    const taps *t = &r->h_taps[o];
    const float *src = p + (t->start - r->first_column) * c;
    float sum[4] = {0, 0, 0, 0};
    for (int j = 0; j < t->count; j++) {
      float w = t->weights[j];
      for (int k = 0; k < c; k++) sum[k] += src[j * c + k] * w;
    }
    for (int k = 0; k < c; k++) dst[o * c + k] = sum[k];
  }
}

static uint8_t clamp8(float v) {
  if (v <= 0.0f) return 0;
  if (v >= 255.0f) return 255;
  return (uint8_t)(v + 0.5f);
}

static void emit(resampler *r) {
  int c = r->channels, n = r->out_w * c;
  const taps *t = &r->v_taps[r->rows_out];
  memset(r->acc, 0, sizeof(float) * (size_t)n);
  for (int j = 0; j < t->count; j++) {
    const float *src = r->ring + (size_t)((t->start + j) % r->ring_rows) * n;
    float w = t->weights[j];
    for (int i = 0; i < n; i++) r->acc[i] += src[i] * w;
  }
  if (channels_have_alpha(c)) {
    for (int x = 0; x < r->out_w; x++) {
      float *s = r->acc + x * c;
      uint8_t a = clamp8(s[c - 1]);
      float inv = a ? 255.0f / a : 0.0f;
      for (int k = 0; k < c - 1; k++) r->out_row[x * c + k] = clamp8(s[k] * inv);
      r->out_row[x * c + c - 1] = a;
    }
  } else {
    for (int i = 0; i < n; i++) r->out_row[i] = clamp8(r->acc[i]);
  }
  r->next->put(r->next, r->out_row);
  r->rows_out++;
}

static void put_row(row_sink *self, const uint8_t *row) {
  resampler *r = (resampler *)self;
  if (r->rows_in >= r->in_h) host_fail(FAIL_INTERNAL, "resampler: too many rows");
  /* Rows above and below the window are not filtered. */
  if (r->rows_in < r->v_taps[0].start || r->rows_out == r->out_h) {
    r->rows_in++;
    return;
  }
  float *slot = r->ring + (size_t)(r->rows_in % r->ring_rows) * r->out_w * r->channels;
  horizontal(r, row, slot);
  r->rows_in++;
  while (r->rows_out < r->out_h) {
    const taps *t = &r->v_taps[r->rows_out];
    if (t->start + t->count > r->rows_in) break;
    emit(r);
  }
}

resampler *resampler_new(int in_w, int in_h, resample_window window, int out_w, int out_h, int channels,
                         enum resample_filter filter, row_sink *next) {
  resampler *r = xcalloc(1, sizeof(resampler));
  r->sink.put = put_row;
  r->in_w = in_w;
  r->in_h = in_h;
  r->out_w = out_w;
  r->out_h = out_h;
  r->channels = channels;
  r->next = next;
  int h_max, v_max;
  r->h_taps = make_taps(in_w, window.left, window.width, out_w, filter, &r->h_weights, &h_max);
  r->v_taps = make_taps(in_h, window.top, window.height, out_h, filter, &r->v_weights, &v_max);
  /* Taps start on non-decreasing samples, so the first and the last output's bound those read. */
  const taps *last = &r->h_taps[out_w - 1];
  r->first_column = r->h_taps[0].start;
  r->columns = last->start + last->count - r->first_column;
  /* Output rows start on non-decreasing input rows, so the widest window fits the ring. */
  r->ring_rows = v_max + 1;
  size_t row_floats = (size_t)out_w * channels;
  r->premul = xmalloc(sizeof(float) * (size_t)r->columns * channels);
  r->ring = xmalloc(sizeof(float) * row_floats * (size_t)r->ring_rows);
  r->acc = xmalloc(sizeof(float) * row_floats);
  r->out_row = xmalloc(row_floats);
  return r;
}

row_sink *resampler_sink(resampler *r) { return &r->sink; }

void resampler_free(resampler *r) {
  if (!r) return;
  free(r->h_taps);
  free(r->v_taps);
  free(r->h_weights);
  free(r->v_weights);
  free(r->premul);
  free(r->ring);
  free(r->acc);
  free(r->out_row);
  free(r);
}
