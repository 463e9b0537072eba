/* A streaming separable resampler: each input row is filtered horizontally as it arrives
 * into a ring of rows just tall enough for the vertical filter, so memory is a few dozen
 * output-width rows whatever the image height. Alpha is premultiplied while filtering so
 * transparent pixels lend no colour to their neighbours (no dark or coloured fringes). */
#ifndef ENGINE_RESAMPLE_H
#define ENGINE_RESAMPLE_H

#include "rows.h"

enum resample_filter { FILTER_LANCZOS3 = 0, FILTER_MITCHELL = 1 };

typedef struct resampler resampler;

/* Rows of in_w x channels go in; rows of out_w x channels go to `next`. */
resampler *resampler_new(int in_w, int in_h, int out_w, int out_h, int channels,
                         enum resample_filter filter, row_sink *next);
row_sink *resampler_sink(resampler *r);
void resampler_free(resampler *r);

#endif
