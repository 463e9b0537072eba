/* A small open-addressing set of RGBA colours, for counting up to 256 of them and for
 * looking up palette indices. */
#ifndef ENGINE_PALETTE_H
#define ENGINE_PALETTE_H

#include <stdint.h>

#define PALETTE_SLOTS 1024

typedef struct palette_map {
  uint32_t keys[PALETTE_SLOTS];
  int16_t values[PALETTE_SLOTS]; /* -1 for an empty slot */
} palette_map;

void palette_map_init(palette_map *m);
/* The index of colour, or -1. */
int palette_map_get(const palette_map *m, uint32_t colour);
void palette_map_put(palette_map *m, uint32_t colour, int index);

/* A pixel of `channels` samples as 0xRRGGBBAA. */
uint32_t pixel_rgba(const uint8_t *s, int channels);

#endif
