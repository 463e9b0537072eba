/* Lossy PNG: our own palette quantiser (MIT, like the rest of codecs/src; libimagequant 2.5+
 * is GPL-3, so it is not used). It fits the engine's two PNG passes: on the stats pass the
 * image's exact colours while there are 256 or fewer, and a bounded histogram of them; then
 * a palette with as few colours as reach the quality's error target (a graphic's own colours
 * merged pairwise, a photo's histogram split by median cut), refined with k-means; on the
 * write pass Floyd-Steinberg error diffusion (serpentine) onto that palette with two rows of
 * error. The rows it sends on hold palette colours only, so the PNG encoder writes them as a
 * palette image unchanged. */
#ifndef ENGINE_QUANTIZE_H
#define ENGINE_QUANTIZE_H

#include "encode.h"
#include "rows.h"

typedef struct quantizer quantizer;

/* The mean squared error the PNG encoder's quality (1..99) allows the palette. */
float quantize_error(int quality);

quantizer *quantizer_new(void);
/* Pass 1: counts each row into the histogram, then hands it to `next`. */
row_sink *quantizer_histogram_sink(quantizer *q, int width, int channels, row_sink *next);
/* Between the passes: chooses the palette for `quality` and puts it in stats->palette.
 * Returns 0, choosing nothing, when the image's own colours are the palette. */
int quantizer_choose(quantizer *q, int quality, png_stats *stats);
/* Pass 2: rows of `channels` samples in, RGBA rows of palette colours to `next`. */
row_sink *quantizer_dither_sink(quantizer *q, int width, int channels, row_sink *next);
void quantizer_free(quantizer *q);

#endif
