#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "palette.h"

typedef struct {
  row_sink sink;
  png_stats *stats;
  int width;
  palette_map map;
} stats_sink;

static void put_row(row_sink *self, const uint8_t *row) {
  stats_sink *s = (stats_sink *)self;
  png_stats *st = s->stats;
  int c = st->channels;
  for (int x = 0; x < s->width; x++) {
    uint32_t colour = pixel_rgba(row + x * c, c);
    /* Alpha 254 composited over anything moves a sample by at most one level: written as opaque. */
    if ((colour & 0xff) < NEAR_OPAQUE) st->opaque = 0;
    if (c >= 3 && (colour >> 24 != ((colour >> 16) & 0xff) || colour >> 24 != ((colour >> 8) & 0xff)))
      st->grey = 0;
    if (st->palette_size <= 256 && palette_map_get(&s->map, colour) < 0) {
      if (st->palette_size < 256) {
        palette_map_put(&s->map, colour, st->palette_size);
        st->palette[st->palette_size] = colour;
      }
      st->palette_size++;
    }
  }
}

row_sink *png_stats_sink(png_stats *stats, int width, int channels) {
  stats_sink *s = xcalloc(1, sizeof(stats_sink));
  s->sink.put = put_row;
  s->stats = stats;
  s->width = width;
  palette_map_init(&s->map);
  memset(stats, 0, sizeof(*stats));
  stats->channels = channels;
  stats->opaque = 1;
  stats->grey = 1;
  return &s->sink;
}
