#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "webp/encode.h"
#include "webp/mux.h"

/* An animated WebP: each frame comes as rows of the whole canvas, into one ARGB picture that libwebp's animation
 * encoder takes (it diffs it against the canvas before, encodes the changed rectangle lossy and keeps the bytes);
 * the mux assembles the file in memory at the end, which is written out whole. */
typedef struct {
  encoder base;
  WebPAnimEncoder *anim;
  WebPPicture canvas;
  WebPConfig config;
  int channels, rows, timestamp_ms;
  uint8_t *rgba; /* one row as RGBA */
} webp_anim_encoder;

static void put_row(row_sink *self, const uint8_t *row) {
  webp_anim_encoder *e = (webp_anim_encoder *)self;
  int width = e->canvas.width;
  if (e->rows >= e->canvas.height) host_fail(FAIL_INTERNAL, "more rows than the canvas");
  convert_row(row, e->channels, e->rgba, 0, 1, width);
  uint32_t *argb = e->canvas.argb + (size_t)e->rows++ * e->canvas.argb_stride;
  for (int x = 0; x < width; x++) {
    const uint8_t *p = e->rgba + 4 * x;
    argb[x] = (uint32_t)p[3] << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
  }
}

/* libwebp loses VP8_ENC_ERROR_OUT_OF_MEMORY on some ways out; a refused allocation sets errno to ENOMEM. */
static __attribute__((noreturn)) void fail_anim(webp_anim_encoder *e) {
  int memory = e->canvas.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY || errno == ENOMEM;
  host_fail(memory ? FAIL_MEMORY : FAIL_INTERNAL, "the animated WebP encoder failed");
}

void webp_anim_frame(encoder *self, int duration_ms) {
  webp_anim_encoder *e = (webp_anim_encoder *)self;
  if (e->rows != e->canvas.height) host_fail(FAIL_INTERNAL, "a frame of fewer rows than the canvas");
  errno = 0;
  if (!WebPAnimEncoderAdd(e->anim, &e->canvas, e->timestamp_ms, &e->config)) fail_anim(e);
  e->timestamp_ms += duration_ms;
  e->rows = 0;
}

static void finish(encoder *self) {
  webp_anim_encoder *e = (webp_anim_encoder *)self;
  WebPData data;
  WebPDataInit(&data);
  errno = 0;
  /* The end of the last frame, then the file assembled. */
  if (!WebPAnimEncoderAdd(e->anim, NULL, e->timestamp_ms, NULL) || !WebPAnimEncoderAssemble(e->anim, &data)) fail_anim(e);
  webp_count_every_picture(0);
  host_output_reserve((int)data.size);
  host_output_write(data.bytes, (int)data.size);
  WebPDataClear(&data);
  WebPAnimEncoderDelete(e->anim);
  WebPPictureFree(&e->canvas);
  free(e->rgba);
  free(e);
}

encoder *webp_anim_encoder_new(int width, int height, int channels, const encode_options *opt) {
  webp_anim_encoder *e = xcalloc(1, sizeof(webp_anim_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->channels = channels;
  if (!WebPPictureInit(&e->canvas) || !WebPConfigInit(&e->config)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  /* cwebp's and gif2webp -lossy's settings at the quality: method 4, alpha compressed losslessly. */
  e->config.quality = (float)opt->quality;
  e->canvas.width = width;
  e->canvas.height = height;
  e->canvas.use_argb = 1;
  if (!WebPPictureAlloc(&e->canvas)) host_fail(FAIL_MEMORY, "out of memory");
  e->rgba = xmalloc((size_t)width * 4);
  WebPAnimEncoderOptions options;
  if (!WebPAnimEncoderOptionsInit(&options)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  /* Lossy frames only (allow_mixed off), no key frames inserted (libwebp's default): each frame is encoded once. */
  options.anim_params.loop_count = opt->anim_loop_count;
  options.anim_params.bgcolor = 0; /* transparent, as a GIF's screen starts */
  errno = 0;
  e->anim = WebPAnimEncoderNew(width, height, &options);
  if (!e->anim) host_fail(errno == ENOMEM ? FAIL_MEMORY : FAIL_INTERNAL, "the animated WebP encoder failed to start");
  webp_count_every_picture(1);
  return &e->base;
}
