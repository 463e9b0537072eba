/* Rows out as they are, 8-bit RGB, alpha flattened onto the matte: the pixels `auto`'s measured look compares
 * (src/image/steps/one-look.ts). An internal output, never an answer's format. */
#include <stdlib.h>

#include "encode.h"
#include "host.h"

typedef struct {
  encoder base;
  int width, channels;
  uint8_t *row;
} raw_encoder;

static void put_raw(row_sink *self, const uint8_t *row) {
  raw_encoder *e = (raw_encoder *)self;
  convert_row(row, e->channels, e->row, 0, 0, e->width);
  host_output_write(e->row, e->width * 3);
}

static void finish_raw(encoder *self) {
  raw_encoder *e = (raw_encoder *)self;
  free(e->row);
  free(e);
}

encoder *raw_encoder_new(int width, int height, int channels) {
  (void)height;
  raw_encoder *e = xmalloc(sizeof *e);
  *e = (raw_encoder){.base = {.sink = {.put = put_raw}, .finish = finish_raw}, .width = width, .channels = channels, .row = xmalloc((size_t)width * 3)};
  return &e->base;
}
