/* Rows flow from a decoder through an optional resampler to an encoder. Each stage is a
 * row sink: it takes one row of `channels` interleaved 8-bit samples at a time, top to
 * bottom. Channels: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
#ifndef ENGINE_ROWS_H
#define ENGINE_ROWS_H

#include <stdint.h>

typedef struct row_sink {
  void (*put)(struct row_sink *self, const uint8_t *row);
} row_sink;

static inline int channels_have_alpha(int channels) { return channels == 2 || channels == 4; }

#endif
