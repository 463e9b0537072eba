#include "encode.h"

/* Transparent pixels become white where the format has no alpha (JPEG, or alpha dropped). */
static uint8_t over_white(uint8_t c, uint8_t a) {
  return (uint8_t)((c * a + 255 * (255 - a) + 127) / 255);
}

void convert_row(const uint8_t *src, int channels, uint8_t *dst, int grey, int with_alpha, int width) {
  int in_alpha = channels_have_alpha(channels);
  int in_grey = channels <= 2;
  int out_channels = (grey ? 1 : 3) + (with_alpha ? 1 : 0);
  for (int x = 0; x < width; x++) {
    const uint8_t *s = src + x * channels;
    uint8_t *d = dst + x * out_channels;
    uint8_t a = in_alpha ? s[channels - 1] : 255;
    uint8_t r = s[0], g = in_grey ? s[0] : s[1], b = in_grey ? s[0] : s[2];
    if (!with_alpha && in_alpha) {
      r = over_white(r, a);
      g = over_white(g, a);
      b = over_white(b, a);
    }
    if (grey) {
      /* Only reached for grey input (or rows known to be grey), so r == g == b. */
      d[0] = r;
    } else {
      d[0] = r;
      d[1] = g;
      d[2] = b;
    }
    if (with_alpha) d[out_channels - 1] = a;
  }
}
