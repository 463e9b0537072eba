/* gravity=auto: where the subject is, from the image small (a JPEG as at 1/8 in the DCT: decoded so, or
 * decoded larger for the transcode and averaged in boxes to it).
 * Rows stream through a sink that scores each pixel for local detail (a Laplacian of luma: what
 * is in focus), saturation and skin tones, summed into a grid of cells; saturation and skin count
 * only as much as the cell is detailed, so a blurred colourful object does not beat a sharp
 * subject (libvips' attention and smartcrop.js score colour whether in focus or not). The window
 * is then placed where the cells it covers score most. */
#ifndef ENGINE_ATTENTION_H
#define ENGINE_ATTENTION_H

#include "rows.h"

typedef struct attention attention;

/* Rows of width x height x channels (the image as decoded, before orientation) go in, scored once averaged
 * in boxes of reduce x reduce (1: as they come). */
attention *attention_new(int width, int height, int channels, int reduce);
row_sink *attention_sink(attention *a);
/* The window of win_w x win_h pixels of the stored image (stored_w x stored_h, of which the rows
 * were a reduction) that scores most: its left and top. Ties go to the centre. */
void attention_place(const attention *a, int stored_w, int stored_h, int win_w, int win_h, int *left, int *top);
void attention_free(attention *a);

#endif
