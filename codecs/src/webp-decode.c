#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "host.h"
#include "webp/decode.h"

/* libwebp decodes from a complete buffer, so the input is copied in; lossless WebP holds
 * the whole frame internally anyway, and lossy WebP is decoded into a full frame too (the
 * memory model counts both). */
static uint8_t *read_all(size_t *size) {
  int len = host_input_size();
  uint8_t *buf = xmalloc((size_t)len);
  for (int done = 0; done < len;) {
    int n = host_input_read(buf + done, len - done);
    if (n <= 0) host_fail(FAIL_INTERNAL, "the input ended early");
    done += n;
  }
  *size = (size_t)len;
  return buf;
}

void webp_decode(decode_target *target) {
  size_t size;
  uint8_t *data = read_all(&size);
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  if (WebPGetFeatures(data, size, &config.input) != VP8_STATUS_OK)
    host_fail(FAIL_UNSUPPORTED, "the WebP header is invalid");
  if (config.input.has_animation) host_fail(FAIL_UNSUPPORTED, "animated WebP is not supported");
  int width = config.input.width, height = config.input.height;
  int channels = config.input.has_alpha ? 4 : 3;
  config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
  VP8StatusCode status = WebPDecode(data, size, &config);
  free(data);
  if (status == VP8_STATUS_OUT_OF_MEMORY) host_fail(FAIL_MEMORY, "out of memory");
  if (status != VP8_STATUS_OK) host_fail(FAIL_UNSUPPORTED, "the WebP data is corrupt or truncated");
  row_sink *sink = target->begin(target, width, height, channels);
  const WebPRGBABuffer *rgba = &config.output.u.RGBA;
  for (int y = 0; y < height; y++) sink->put(sink, rgba->rgba + (size_t)y * rgba->stride);
  WebPFreeDecBuffer(&config.output);
}
