/* Lossy PNG: our own palette quantiser (MIT, like the rest of codecs/src; libimagequant 2.5+
 * is GPL-3, so it is not used). It fits the engine's two PNG passes: on the stats pass a
 * bounded histogram of the colours, then a palette by median cut refined with k-means, and
 * on the write pass Floyd-Steinberg error diffusion (serpentine) onto that palette with two
 * rows of error. The rows it sends on hold palette colours only, so the PNG encoder writes
 * them as a palette image unchanged. */
#ifndef ENGINE_QUANTIZE_H
#define ENGINE_QUANTIZE_H

#include "encode.h"
#include "rows.h"

typedef struct quantizer quantizer;

/* What the PNG encoder's quality (1..99) asks for: palette size, strength of the dither. */
int quantize_colours(int quality);
float quantize_dither(int quality);

quantizer *quantizer_new(void);
/* Pass 1: counts each row into the histogram, then hands it to `next`. */
row_sink *quantizer_histogram_sink(quantizer *q, int width, int channels, row_sink *next);
/* Between the passes: chooses up to max_colours colours and puts them in stats->palette. */
void quantizer_choose(quantizer *q, int max_colours, png_stats *stats);
/* Pass 2: rows of `channels` samples in, RGBA rows of palette colours to `next`; dither
 * 0..1 scales the diffused error. */
row_sink *quantizer_dither_sink(quantizer *q, int width, int channels, float dither, row_sink *next);
void quantizer_free(quantizer *q);

#endif
