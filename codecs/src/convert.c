#include "encode.h"

/* Transparent pixels are composited onto the matte where the format has no alpha (JPEG, or alpha
 * dropped): the request's background over white, white by default. */
static uint8_t matte[3] = {255, 255, 255};

void convert_set_matte(uint8_t r, uint8_t g, uint8_t b) {
  matte[0] = r, matte[1] = g, matte[2] = b;
}

int convert_matte_is_grey(void) { return matte[0] == matte[1] && matte[1] == matte[2]; }

static uint8_t over_matte(uint8_t c, uint8_t a, int k) {
  return (uint8_t)((c * a + matte[k] * (255 - a) + 127) / 255);
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
      r = over_matte(r, a, 0);
      g = over_matte(g, a, 1);
      b = over_matte(b, a, 2);
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
