#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "progress.h"
#include "webp-alpha.h"
#include "webp/encode.h"

/* libwebp encodes from a whole YUV 4:2:0 picture (1.5 B/px, plus 1 B/px of alpha). Rows are
 * converted two at a time through a two-row picture with libwebp's own importer, which
 * treats each pair of rows on its own: the planes come out exactly as cwebp makes them. */
typedef struct {
  encoder base;
  WebPPicture picture;
  WebPPicture strip;
  int channels, alpha;
  uint8_t *pair;  /* two rows as RGB or RGBA */
  int rows;       /* rows received */
  int quality;
  int own_alpha;  /* code alpha with webp-alpha.c instead of libwebp's lossless encoder */
  int low_memory; /* libwebp's low_memory mode: no token buffer, slower */
} webp_encoder;

/* Turns the simple lossy file WebPEncode writes (RIFF, VP8) into an extended one with our
 * ALPH chunk: RIFF, VP8X, ALPH, VP8. Only the first 20 bytes are held back. */
typedef struct {
  const uint8_t *alph;
  size_t alph_size;
  int width, height;
  uint8_t head[20];
  size_t held;
} alpha_wrapper;

static uint32_t riff_size(const uint8_t *riff_header) {
  const uint8_t *p = riff_header + 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le(uint8_t *p, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void write_extended_head(const alpha_wrapper *w) {
  uint32_t riff = riff_size(w->head) + 18 + 8 + (uint32_t)(w->alph_size + (w->alph_size & 1));
  uint8_t head[12 + 18 + 8];
  host_output_reserve((int)riff + 8);
  memcpy(head, "RIFF", 4);
  put_le(head + 4, riff, 4);
  memcpy(head + 8, "WEBPVP8X", 8);
  put_le(head + 16, 10, 4);
  head[20] = 0x10; /* alpha */
  put_le(head + 21, 0, 3);
  put_le(head + 24, (uint32_t)w->width - 1, 3);
  put_le(head + 27, (uint32_t)w->height - 1, 3);
  memcpy(head + 30, "ALPH", 4);
  put_le(head + 34, (uint32_t)w->alph_size, 4);
  host_output_write(head, sizeof(head));
  host_output_write(w->alph, (int)w->alph_size);
  if (w->alph_size & 1) host_output_write((const uint8_t *)"", 1);
  host_output_write(w->head + 12, 8);
}

static int write_with_alpha(const uint8_t *data, size_t size, const WebPPicture *picture) {
  alpha_wrapper *w = picture->custom_ptr;
  while (size > 0 && w->held < sizeof(w->head)) {
    w->head[w->held++] = *data++;
    size--;
    if (w->held == sizeof(w->head)) {
      if (memcmp(w->head + 12, "VP8 ", 4) != 0) host_fail(FAIL_INTERNAL, "webp: unexpected encoder output");
      write_extended_head(w);
    }
  }
  if (size > 0) host_output_write(data, (int)size);
  return 1;
}

/* libwebp writes the 12-byte RIFF header, with the file's size, in its first call. */
static int write_output(const uint8_t *data, size_t size, const WebPPicture *picture) {
  int *started = picture->custom_ptr;
  if (!*started && size >= 8) host_output_reserve((int)riff_size(data) + 8);
  *started = 1;
  host_output_write(data, (int)size);
  return 1;
}

static void flush_pair(webp_encoder *e, int count) {
  WebPPicture *p = &e->picture, *s = &e->strip;
  int width = p->width, stride = width * (e->alpha ? 4 : 3);
  s->width = width;
  s->height = count;
  int ok = e->alpha ? WebPPictureImportRGBA(s, e->pair, stride) : WebPPictureImportRGB(s, e->pair, stride);
  if (!ok) host_fail(FAIL_MEMORY, "out of memory");
  int y0 = e->rows - count;
  for (int i = 0; i < count; i++) {
    memcpy(p->y + (size_t)(y0 + i) * p->y_stride, s->y + (size_t)i * s->y_stride, (size_t)width);
    if (e->alpha) {
      uint8_t *a = p->a + (size_t)(y0 + i) * p->a_stride;
      const uint8_t *src = e->pair + (size_t)i * stride;
      for (int x = 0; x < width; x++) a[x] = src[4 * x + 3];
    }
  }
  int uv_width = (width + 1) >> 1;
  memcpy(p->u + (size_t)(y0 / 2) * p->uv_stride, s->u, (size_t)uv_width);
  memcpy(p->v + (size_t)(y0 / 2) * p->uv_stride, s->v, (size_t)uv_width);
}

static void put_row(row_sink *self, const uint8_t *row) {
  webp_encoder *e = (webp_encoder *)self;
  int width = e->picture.width;
  size_t stride = (size_t)width * (e->alpha ? 4 : 3);
  convert_row(row, e->channels, e->pair + (e->rows & 1) * stride, 0, e->alpha, width);
  e->rows++;
  if ((e->rows & 1) == 0) flush_pair(e, 2);
}

/* Whether every alpha sample is NEAR_OPAQUE or more: then the image is encoded without its
 * alpha plane (no visible change; an ALPH chunk and VP8X header fewer). */
static int near_opaque(const WebPPicture *p) {
  for (int y = 0; y < p->height; y++) {
    const uint8_t *a = p->a + (size_t)y * p->a_stride;
    for (int x = 0; x < p->width; x++)
      if (a[x] < NEAR_OPAQUE) return 0;
  }
  return 1;
}

/* libwebp reports its progress through WebPReportProgress, but calls the picture's hook only
 * when the whole percent changes: a 24 MP picture's percent is a tenth of a second of work. The
 * link wraps it (build.sh, --wrap), so every call is seen. For the picture being encoded, the
 * percent is its work (libwebp's own account, whatever the content), and each call, one
 * per macroblock of each pass (how many passes depends on the content and the size), is a step
 * of time between two hand-backs: one in the first pass (the analysis), ENCODE_STEPS in the
 * others, which cost about that many times more. For the alpha plane's own picture, which
 * libwebp's lossless coder reports about once a pixel, each whole percent. */
#define ENCODE_STEPS 4

int __real_WebPReportProgress(const WebPPicture *pic, int percent, int *percent_store);

static const WebPPicture *encoding;
static long macroblocks, calls;
/* Its percent, summed as it rises: a low_memory encoding counts its statistics pass in it too, so it can
 * pass 100, where it is held. */
static int percent_done;

/* An animation's frames are encoded from pictures of libwebp's own: each percent any picture rises by is counted as
 * the encoder's (a frame's own, then its alpha plane's, up to 200 a frame). */
static int every_picture;

void webp_count_every_picture(int on) { every_picture = on; }

int __wrap_WebPReportProgress(const WebPPicture *pic, int percent, int *percent_store) {
  if (every_picture) {
    if (percent_store && percent > *percent_store) report_progress(PROGRESS_ENCODER_PERCENT, percent - *percent_store);
  } else if (pic == encoding) {
    report_progress(PROGRESS_ENCODER_STEP, calls++ < macroblocks ? 1 : ENCODE_STEPS);
    if (percent_store && percent > *percent_store && percent_done < 100) {
      int more = percent - *percent_store;
      if (more > 100 - percent_done) more = 100 - percent_done;
      percent_done += more;
      report_progress(PROGRESS_ENCODER_PERCENT, more);
    }
  } else if (percent_store && percent > *percent_store) report_progress(PROGRESS_ALPHA_PERCENT, percent - *percent_store);
  return __real_WebPReportProgress(pic, percent, percent_store);
}

/* libwebp asks for progress (per macroblock) only of a picture that has a hook. */
static int keep_going(int percent, const WebPPicture *picture) {
  (void)percent, (void)picture;
  return 1;
}

static void finish(encoder *self) {
  webp_encoder *e = (webp_encoder *)self;
  if (e->rows & 1) flush_pair(e, 1);
  WebPPictureFree(&e->strip);
  free(e->pair);
  e->pair = NULL;
  WebPConfig config;
  if (!WebPConfigInit(&config)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  /* cwebp -q Q [-low_memory]: method 4, alpha losslessly compressed, transparent areas
   * flattened. Without low_memory libwebp records every token of the image before writing
   * (memory that grows with the output), with it encoding takes about 3 times as long. */
  config.quality = (float)e->quality;
  config.low_memory = e->low_memory;
  int started = 0;
  e->picture.progress_hook = keep_going;
  e->picture.writer = write_output;
  e->picture.custom_ptr = &started;
  alpha_wrapper wrapper = {0};
  if (e->alpha && near_opaque(&e->picture)) {
    /* The planes are one allocation: dropping the alpha pointer frees nothing early. */
    e->picture.a = NULL;
    e->picture.colorspace = WEBP_YUV420;
  } else if (e->own_alpha && WebPPictureHasTransparency(&e->picture)) {
    WebPCleanupTransparentArea(&e->picture);
    wrapper.alph = webp_encode_alpha(e->picture.a, e->picture.a_stride, e->picture.width, e->picture.height,
                                     &wrapper.alph_size);
    wrapper.width = e->picture.width;
    wrapper.height = e->picture.height;
    /* The planes are one allocation: dropping the alpha pointer frees nothing early. */
    e->picture.a = NULL;
    e->picture.colorspace = WEBP_YUV420;
    e->picture.writer = write_with_alpha;
    e->picture.custom_ptr = &wrapper;
  }
  /* libwebp's alpha and lossless encoders lose VP8_ENC_ERROR_OUT_OF_MEMORY on the way out; a
   * refused allocation sets errno to ENOMEM, so that decides too. */
  errno = 0;
  encoding = &e->picture;
  macroblocks = (long)((e->picture.width + 15) / 16) * ((e->picture.height + 15) / 16);
  calls = 0;
  percent_done = 0;
  if (!WebPEncode(&config, &e->picture)) {
    int memory = e->picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY || errno == ENOMEM;
    host_fail(memory ? FAIL_MEMORY : FAIL_INTERNAL, "the WebP encoder failed");
  }
  free((void *)wrapper.alph);
  WebPPictureFree(&e->picture);
  free(e);
}

encoder *webp_encoder_new(int width, int height, int channels, const encode_options *opt) {
  webp_encoder *e = xcalloc(1, sizeof(webp_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->channels = channels;
  e->alpha = channels_have_alpha(channels);
  e->quality = opt->quality;
  e->own_alpha = opt->own_webp_alpha;
  e->low_memory = opt->webp_low_memory;
  if (!WebPPictureInit(&e->picture) || !WebPPictureInit(&e->strip))
    host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  e->picture.width = width;
  e->picture.height = height;
  e->picture.colorspace = e->alpha ? WEBP_YUV420A : WEBP_YUV420;
  if (!WebPPictureAlloc(&e->picture)) host_fail(FAIL_MEMORY, "out of memory");
  e->pair = xmalloc((size_t)width * 4 * 2);
  return &e->base;
}
