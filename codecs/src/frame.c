#include "frame.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

struct cropper {
  row_sink sink;
  int left, top, height, channels, rows_in;
  row_sink *next;
};

static void put_cropped(row_sink *self, const uint8_t *row) {
  cropper *c = (cropper *)self;
  int y = c->rows_in++;
  if (y >= c->top && y < c->top + c->height) c->next->put(c->next, row + (size_t)c->left * c->channels);
}

cropper *cropper_new(int left, int top, int height, int channels, row_sink *next) {
  cropper *c = xcalloc(1, sizeof *c);
  *c = (cropper){.sink = {.put = put_cropped}, .left = left, .top = top, .height = height, .channels = channels, .next = next};
  return c;
}

row_sink *cropper_sink(cropper *c) { return &c->sink; }

void cropper_free(cropper *c) { free(c); }

struct padder {
  row_sink sink;
  int width, height, channels, out_channels, canvas_w, canvas_h, x, y, rows_in;
  uint8_t *blank; /* one canvas row of background */
  uint8_t *row;   /* the canvas row being filled */
  row_sink *next;
};

static int background_is_grey(uint32_t rgba) {
  uint32_t r = rgba >> 24, g = (rgba >> 16) & 0xff, b = (rgba >> 8) & 0xff;
  return r == g && g == b;
}

int padded_channels(int channels, uint32_t background_rgba) {
  int colour = channels >= 3 || !background_is_grey(background_rgba);
  int alpha = channels_have_alpha(channels) || (background_rgba & 0xff) != 0xff;
  return (colour ? 3 : 1) + (alpha ? 1 : 0);
}

static void emit_blank(padder *p, int rows) {
  for (int i = 0; i < rows; i++) p->next->put(p->next, p->blank);
}

static void put_padded(row_sink *self, const uint8_t *row) {
  padder *p = (padder *)self;
  if (p->rows_in >= p->height) host_fail(FAIL_INTERNAL, "padder: too many rows");
  if (p->rows_in == 0) emit_blank(p, p->y);
  int c = p->channels, oc = p->out_channels;
  int in_alpha = channels_have_alpha(c), out_alpha = channels_have_alpha(oc);
  uint8_t *dst = p->row + (size_t)p->x * oc;
  for (int i = 0; i < p->width; i++) {
    const uint8_t *s = row + (size_t)i * c;
    uint8_t *d = dst + (size_t)i * oc;
    int colours = oc - out_alpha;
    for (int k = 0; k < colours; k++) d[k] = s[c >= 3 ? k : 0];
    if (out_alpha) d[oc - 1] = in_alpha ? s[c - 1] : 255;
  }
  p->next->put(p->next, p->row);
  if (++p->rows_in == p->height) emit_blank(p, p->canvas_h - p->y - p->height);
}

padder *padder_new(int width, int height, int channels, int canvas_w, int canvas_h, int x, int y, uint32_t background_rgba,
                   row_sink *next) {
  if (x < 0 || y < 0 || x + width > canvas_w || y + height > canvas_h) host_fail(FAIL_INTERNAL, "padder: the image is outside the canvas");
  padder *p = xcalloc(1, sizeof *p);
  int oc = padded_channels(channels, background_rgba);
  *p = (padder){.sink = {.put = put_padded}, .width = width, .height = height, .channels = channels, .out_channels = oc,
                .canvas_w = canvas_w, .canvas_h = canvas_h, .x = x, .y = y, .next = next};
  size_t stride = (size_t)canvas_w * oc;
  p->blank = xmalloc(stride);
  p->row = xmalloc(stride);
  uint8_t colour[4] = {(uint8_t)(background_rgba >> 24), (uint8_t)(background_rgba >> 16), (uint8_t)(background_rgba >> 8),
                       (uint8_t)background_rgba};
  int out_alpha = channels_have_alpha(oc);
  for (int i = 0; i < canvas_w; i++) {
    uint8_t *d = p->blank + (size_t)i * oc;
    for (int k = 0; k < oc - out_alpha; k++) d[k] = colour[k];
    if (out_alpha) d[oc - 1] = colour[3];
  }
  memcpy(p->row, p->blank, stride);
  return p;
}

row_sink *padder_sink(padder *p) { return &p->sink; }

void padder_free(padder *p) {
  if (!p) return;
  free(p->blank);
  free(p->row);
  free(p);
}
