#include "orient.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

struct orienter {
  row_sink sink;
  int orientation, width, height, channels;
  int rows_in;
  uint8_t *frame; /* the stored image, orientations 3 to 8 */
  uint8_t *row;   /* one displayed row */
  row_sink *next;
};

static void copy_pixel(uint8_t *dst, const uint8_t *src, int channels) {
  for (int c = 0; c < channels; c++) dst[c] = src[c];
}

static void put_mirrored(row_sink *self, const uint8_t *row) {
  orienter *o = (orienter *)self;
  for (int x = 0; x < o->width; x++) copy_pixel(o->row + x * o->channels, row + (o->width - 1 - x) * o->channels, o->channels);
  o->next->put(o->next, o->row);
}

/* The stored pixel shown at displayed (x, y); W and H are the stored width and height. */
static const uint8_t *stored_pixel(const orienter *o, int x, int y) {
  int w = o->width, h = o->height, sx, sy;
  switch (o->orientation) {
    case 3: sx = w - 1 - x; sy = h - 1 - y; break;
    case 4: sx = x; sy = h - 1 - y; break;
    case 5: sx = y; sy = x; break;
    case 6: sx = y; sy = h - 1 - x; break;
    case 7: sx = w - 1 - y; sy = h - 1 - x; break;
    default: sx = w - 1 - y; sy = x; break; /* 8 */
  }
  return o->frame + ((size_t)sy * w + sx) * o->channels;
}

/* Holds rows until the last one arrives, then sends the displayed rows on. */
static void put_buffered(row_sink *self, const uint8_t *row) {
  orienter *o = (orienter *)self;
  size_t stride = (size_t)o->width * o->channels;
  if (o->rows_in >= o->height) host_fail(FAIL_UNSUPPORTED, "more rows than the image height");
  memcpy(o->frame + stride * o->rows_in++, row, stride);
  if (o->rows_in < o->height) return;
  int out_w = orientation_swaps_axes(o->orientation) ? o->height : o->width;
  int out_h = orientation_swaps_axes(o->orientation) ? o->width : o->height;
  for (int y = 0; y < out_h; y++) {
    for (int x = 0; x < out_w; x++) copy_pixel(o->row + x * o->channels, stored_pixel(o, x, y), o->channels);
    o->next->put(o->next, o->row);
  }
}

orienter *orienter_new(int orientation, int width, int height, int channels, row_sink *next) {
  if (orientation < 2 || orientation > 8) host_fail(FAIL_INTERNAL, "orientation out of range");
  orienter *o = xcalloc(1, sizeof *o);
  *o = (orienter){.orientation = orientation, .width = width, .height = height, .channels = channels, .next = next};
  int row_pixels = width > height ? width : height;
  o->row = xmalloc((size_t)row_pixels * channels);
  if (orientation == 2) {
    o->sink.put = put_mirrored;
  } else {
    o->frame = xmalloc((size_t)width * height * channels);
    o->sink.put = put_buffered;
  }
  return o;
}

row_sink *orienter_sink(orienter *o) { return &o->sink; }

void orienter_free(orienter *o) {
  if (!o) return;
  free(o->frame);
  free(o->row);
  free(o);
}
