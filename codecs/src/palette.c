#include "palette.h"

#include <string.h>

static unsigned slot_of(uint32_t colour) { return (colour * 2654435761u) >> 22; }

void palette_map_init(palette_map *m) { memset(m->values, 0xff, sizeof(m->values)); }

int palette_map_get(const palette_map *m, uint32_t colour) {
  for (unsigned i = slot_of(colour);; i = (i + 1) & (PALETTE_SLOTS - 1)) {
    if (m->values[i] < 0) return -1;
    if (m->keys[i] == colour) return m->values[i];
  }
}

void palette_map_put(palette_map *m, uint32_t colour, int index) {
  unsigned i = slot_of(colour);
  while (m->values[i] >= 0 && m->keys[i] != colour) i = (i + 1) & (PALETTE_SLOTS - 1);
  m->keys[i] = colour;
  m->values[i] = (int16_t)index;
}

uint32_t pixel_rgba(const uint8_t *s, int channels) {
  switch (channels) {
    case 1: return (uint32_t)s[0] << 24 | (uint32_t)s[0] << 16 | (uint32_t)s[0] << 8 | 255u;
    case 2: return (uint32_t)s[0] << 24 | (uint32_t)s[0] << 16 | (uint32_t)s[0] << 8 | s[1];
    case 3: return (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | 255u;
    default: return (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | s[3];
  }
}
