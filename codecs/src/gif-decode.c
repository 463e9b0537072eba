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

/* Reads up to the next image descriptor, into gif->Image; the graphic control before it in `control` (none: no
 * transparency, no delay, no disposal). 0 at the trailer. Other extensions are skipped without being kept. */
static int next_image(GifFileType *gif, GraphicsControlBlock *control) {
  *control = (GraphicsControlBlock){.DisposalMode = DISPOSAL_UNSPECIFIED, .TransparentColor = NO_TRANSPARENT_COLOR};
  for (;;) {
    GifRecordType type;
    check(gif, DGifGetRecordType(gif, &type));
    if (type == TERMINATE_RECORD_TYPE) return 0;
    if (type == IMAGE_DESC_RECORD_TYPE) break;
    if (type != EXTENSION_RECORD_TYPE) host_fail(FAIL_UNSUPPORTED, "an unknown GIF record");
    int code;
    GifByteType *data;
    check(gif, DGifGetExtension(gif, &code, &data));
    if (code == GRAPHICS_EXT_FUNC_CODE && data && data[0] == 4) check(gif, DGifExtensionToGCB(data[0], data + 1, control));
    while (data) check(gif, DGifGetExtensionNext(gif, &data));
  }
  check(gif, DGifGetImageDesc(gif));
  return 1;
}

/* The frame's colour table: its own, else the screen's. */
static ColorMapObject *frame_colours(GifFileType *gif) {
  ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
  if (!map) host_fail(FAIL_UNSUPPORTED, "a GIF frame has no colour table");
  return map;
}

/* A palette of 256 entries, those past the map's black and opaque (giflib leaves indices past it as they are). */
static void rgba_palette(const ColorMapObject *map, int transparent, uint8_t palette[256][4]) {
  memset(palette, 0, 256 * 4);
  for (int i = 0; i < 256; i++) palette[i][3] = 255;
  for (int i = 0; i < map->ColorCount && i < 256; i++) {
    palette[i][0] = map->Colors[i].Red, palette[i][1] = map->Colors[i].Green, palette[i][2] = map->Colors[i].Blue;
  }
  if (transparent >= 0 && transparent < 256) memset(palette[transparent], 0, 4);
}

/* The part of a frame on the screen: its left and top (clipped to the screen) and the width and height shown. */
typedef struct {
  int left, top, width, height;
} shown_rect;

static shown_rect shown_part(const GifImageDesc *desc, int screen_w, int screen_h) {
  shown_rect r = {desc->Left < screen_w ? desc->Left : screen_w, desc->Top < screen_h ? desc->Top : screen_h, 0, 0};
  r.width = desc->Width < screen_w - r.left ? desc->Width : screen_w - r.left;
  r.height = desc->Height < screen_h - r.top ? desc->Height : screen_h - r.top;
  return r;
}

/* Every frame drawn onto the screen as GIF89a and browsers draw it: the screen starts transparent; a frame's pixels
 * replace what is under them but where they are its transparent index; after it shows, disposal 2 clears its
 * rectangle to transparent and 3 puts back what was under it, 0 and 1 leave it. The screen (4 B/px) goes on whole
 * after each frame; an interlaced frame's rows are drawn in their passes' order, which the screen does not mind.
 * The disposal-3 copy is of the screen's size, made when a frame first asks for it. */
static void decode_frames(GifFileType *gif, decode_target *target) {
  int screen_w = gif->SWidth, screen_h = gif->SHeight;
  size_t stride = (size_t)screen_w * 4;
  uint8_t *screen = xcalloc((size_t)screen_h ? (size_t)screen_h : 1, stride ? stride : 1), *saved = NULL;
  int frames = 0;
  GraphicsControlBlock control;
  while (next_image(gif, &control)) {
    if (++frames > target->max_frames) host_fail(FAIL_UNSUPPORTED, "the GIF has more frames than its header walk found");
    const GifImageDesc *desc = &gif->Image;
    uint8_t palette[256][4];
    rgba_palette(frame_colours(gif), control.TransparentColor, palette);
    shown_rect r = shown_part(desc, screen_w, screen_h);
    if (control.DisposalMode == DISPOSE_PREVIOUS) {
      if (!saved) saved = xmalloc(screen_h * stride ? screen_h * stride : 1);
      for (int y = r.top; y < r.top + r.height; y++) memcpy(saved + y * stride + r.left * 4, screen + y * stride + r.left * 4, (size_t)r.width * 4);
    }
    uint8_t *line = xmalloc(desc->Width ? (size_t)desc->Width : 1);
    for (int pass = 0; pass < (desc->Interlace ? 4 : 1); pass++) {
      int y0 = desc->Interlace ? pass_y0[pass] : 0, dy = desc->Interlace ? pass_dy[pass] : 1;
      for (int y = y0; y < desc->Height; y += dy) {
        check(gif, DGifGetLine(gif, line, desc->Width));
        report_progress(PROGRESS_FRAME_DECODED, desc->Width);
        if (y >= r.height) continue;
        uint8_t *d = screen + (size_t)(r.top + y) * stride + (size_t)r.left * 4;
        for (int x = 0; x < r.width; x++, d += 4)
          if (line[x] != control.TransparentColor) memcpy(d, palette[line[x]], 4);
      }
    }
    free(line);
    row_sink *sink = target->begin(target, screen_w, screen_h, 4);
    for (int y = 0; y < screen_h; y++) sink->put(sink, screen + y * stride);
    target->frame_done(target, control.DelayTime * 10);
    if (control.DisposalMode == DISPOSE_BACKGROUND || control.DisposalMode == DISPOSE_PREVIOUS) {
      const uint8_t *from = control.DisposalMode == DISPOSE_PREVIOUS ? saved : NULL;
      for (int y = r.top; y < r.top + r.height; y++) {
        uint8_t *d = screen + y * stride + r.left * 4;
        if (from) memcpy(d, from + y * stride + r.left * 4, (size_t)r.width * 4);
        else memset(d, 0, (size_t)r.width * 4);
      }
    }
  }
  if (!frames) host_fail(FAIL_UNSUPPORTED, "the GIF has no image");
  free(saved);
  free(screen);
}

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
  if (target->frame_done) {
    decode_frames(gif, target);
    return;
  }
  GraphicsControlBlock control;
  if (!next_image(gif, &control)) host_fail(FAIL_UNSUPPORTED, "the GIF has no image");
  int transparent = control.TransparentColor;
  GifImageDesc *desc = &gif->Image;
  ColorMapObject *map = frame_colours(gif);
  int frame_w = desc->Width, frame_h = desc->Height;
  shown_rect r = shown_part(desc, screen_w, screen_h);
  int left = r.left, top = r.top, shown_w = r.width, shown_h = r.height;
  int covers = left == 0 && top == 0 && frame_w >= screen_w && frame_h >= screen_h;
  int channels = covers && transparent == NO_TRANSPARENT_COLOR ? 3 : 4;
  uint8_t palette[256][4];
  rgba_palette(map, transparent, palette);
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
