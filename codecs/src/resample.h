/* A streaming separable resampler: each input row is filtered horizontally as it arrives
 * into a ring of rows just tall enough for the vertical filter, so memory is a few dozen
 * output-width rows whatever the image height. Alpha is premultiplied while filtering so
 * transparent pixels lend no colour to their neighbours (no dark or coloured fringes). */
#ifndef ENGINE_RESAMPLE_H
#define ENGINE_RESAMPLE_H

#include "rows.h"

enum resample_filter { FILTER_LANCZOS3 = 0, FILTER_MITCHELL = 1 };

typedef struct resampler resampler;

/* A window of the input, in its pixels: it may start and end within a pixel (a JPEG decoded at a
 * DCT scale), and pixels outside it lend nothing to the output. */
typedef struct {
  double left, top, width, height;
} resample_window;

/* Rows of in_w x channels go in, all in_h of them; the window's rows of out_w x channels go to `next`. */
resampler *resampler_new(int in_w, int in_h, resample_window window, int out_w, int out_h, int channels,
                         enum resample_filter filter, row_sink *next);
row_sink *resampler_sink(resampler *r);
void resampler_free(resampler *r);

#endif
