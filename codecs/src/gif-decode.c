#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "gif_lib.h"
#include "host.h"
#include "progress.h"

static int read_input(GifFileType *gif, GifByteType *dst, int length) {
  (void)gif;
  int done = 0;
  while (done < length) {
    int n = input_read(dst + done, length - done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

static __attribute__((noreturn)) void fail_gif(int code) {
  host_fail(code == D_GIF_ERR_NOT_ENOUGH_MEM ? FAIL_MEMORY : FAIL_UNSUPPORTED, GifErrorString(code));
}

static void check(GifFileType *gif, int status) {
  if (status == GIF_ERROR) fail_gif(gif->Error);
}

/* Interlaced rows come in four passes: the first row and the step of each (GIF89a appendix E). */
static const int pass_y0[4] = {0, 4, 2, 1};
static const int pass_dy[4] = {8, 8, 4, 2};

/* The first frame drawn onto the logical screen as browsers draw it: the screen transparent where the frame does
 * not reach, the frame clipped to the screen, its transparent index transparent. Rows go out as they are decoded;
 * an interlaced frame's indices on the screen (1 byte a pixel) are held until its last pass. Extensions are
 * skipped by giflib without keeping them, and nothing after the first frame is read. */
void gif_decode(decode_target *target) {
  int error = 0;
  GifFileType *gif = DGifOpen(NULL, read_input, &error);
  if (!gif) fail_gif(error);
  int screen_w = gif->SWidth, screen_h = gif->SHeight;
  decode_check_size(target, screen_w, screen_h);
  int transparent = NO_TRANSPARENT_COLOR;
  for (;;) {
    GifRecordType type;
    check(gif, DGifGetRecordType(gif, &type));
    if (type == TERMINATE_RECORD_TYPE) host_fail(FAIL_UNSUPPORTED, "the GIF has no image");
    if (type == IMAGE_DESC_RECORD_TYPE) break;
    if (type != EXTENSION_RECORD_TYPE) host_fail(FAIL_UNSUPPORTED, "an unknown GIF record");
    int code;
    GifByteType *data;
    check(gif, DGifGetExtension(gif, &code, &data));
    if (code == GRAPHICS_EXT_FUNC_CODE && data && data[0] == 4) {
      GraphicsControlBlock gcb;
      check(gif, DGifExtensionToGCB(data[0], data + 1, &gcb));
      transparent = gcb.TransparentColor;
    }
    while (data) check(gif, DGifGetExtensionNext(gif, &data));
  }
  check(gif, DGifGetImageDesc(gif));
  GifImageDesc *desc = &gif->Image;
  ColorMapObject *map = desc->ColorMap ? desc->ColorMap : gif->SColorMap;
  if (!map) host_fail(FAIL_UNSUPPORTED, "the GIF's first frame has no colour table");
  int frame_w = desc->Width, frame_h = desc->Height;
  int left = desc->Left < screen_w ? desc->Left : screen_w, top = desc->Top < screen_h ? desc->Top : screen_h;
  int shown_w = frame_w < screen_w - left ? frame_w : screen_w - left;
  int covers = left == 0 && top == 0 && frame_w >= screen_w && frame_h >= screen_h;
  int channels = covers && transparent == NO_TRANSPARENT_COLOR ? 3 : 4;
  /* A palette of 256 entries, those past the map's black and opaque (giflib leaves indices past it as they are). */
  uint8_t palette[256][4];
  memset(palette, 0, sizeof palette);
  for (int i = 0; i < 256; i++) palette[i][3] = 255;
  for (int i = 0; i < map->ColorCount && i < 256; i++) {
    palette[i][0] = map->Colors[i].Red, palette[i][1] = map->Colors[i].Green, palette[i][2] = map->Colors[i].Blue;
  }
  if (transparent >= 0 && transparent < 256) memset(palette[transparent], 0, 4);
  int shown_h = frame_h < screen_h - top ? frame_h : screen_h - top;
  if (shown_w < 0) shown_w = 0;
  uint8_t *line = xmalloc(frame_w ? (size_t)frame_w : 1);
  uint8_t *out = xmalloc((size_t)screen_w * channels);
  /* Every line giflib decodes is counted whole (PROGRESS_FRAME_DECODED): a frame may be far wider than the screen.
   * An interlaced frame: every pass decoded first, the part on the screen held (its rows past the screen are
   * decoded and dropped: LZW runs on). */
  uint8_t *held = NULL;
  if (desc->Interlace) {
    held = xmalloc(shown_w && shown_h ? (size_t)shown_w * shown_h : 1);
    for (int pass = 0; pass < 4; pass++) {
      for (int y = pass_y0[pass]; y < frame_h; y += pass_dy[pass]) {
        check(gif, DGifGetLine(gif, line, frame_w));
        report_progress(PROGRESS_FRAME_DECODED, frame_w);
        if (y < shown_h) memcpy(held + (size_t)shown_w * y, line, (size_t)shown_w);
      }
    }
  }
  row_sink *sink = target->begin(target, screen_w, screen_h, channels);
  for (int y = 0; y < screen_h; y++) {
    memset(out, 0, (size_t)screen_w * channels);
    int fy = y - top;
    if (fy >= 0 && fy < shown_h) {
      const uint8_t *indices = held ? held + (size_t)shown_w * fy : line;
      if (!held) {
        check(gif, DGifGetLine(gif, line, frame_w));
        report_progress(PROGRESS_FRAME_DECODED, frame_w);
      }
      uint8_t *d = out + (size_t)left * channels;
      for (int x = 0; x < shown_w; x++, d += channels) memcpy(d, palette[indices[x]], (size_t)channels);
    }
    sink->put(sink, out);
  }
  free(held);
  free(out);
  free(line);
  DGifCloseFile(gif, &error);
}
