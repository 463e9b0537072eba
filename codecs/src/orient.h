/* EXIF orientation (EXIF 2.3 section 4.6.4 A, tag 0x0112) applied to output rows, so the
 * file needs no orientation tag: 1 as stored, 2 mirrored, 3 rotated 180, 4 flipped, 5
 * transposed, 6 rotated 90 clockwise, 7 transversed, 8 rotated 90 anticlockwise. */
#ifndef ENGINE_ORIENT_H
#define ENGINE_ORIENT_H

#include "rows.h"

typedef struct orienter orienter;

/* Rows of the stored image (width x height x channels) go in; rows as displayed go to
 * `next` (height x width for orientations 5 to 8). Orientation 2 mirrors each row as it
 * passes; 3 to 8 hold the whole frame, so this sits after the resampler, at output size. */
orienter *orienter_new(int orientation, int width, int height, int channels, row_sink *next);
row_sink *orienter_sink(orienter *o);
void orienter_free(orienter *o);

/* Orientations 5 to 8 swap width and height. */
static inline int orientation_swaps_axes(int orientation) { return orientation >= 5 && orientation <= 8; }

#endif
