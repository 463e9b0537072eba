/* The geometry's row stages (decisions.md, "Geometry: boxes, fit modes and gravity"): a cropper
 * passes on a window of whole pixels of the rows it is given; a padder places its rows in a larger
 * canvas filled with a background colour. Both work one row at a time. */
#ifndef ENGINE_FRAME_H
#define ENGINE_FRAME_H

#include "rows.h"

typedef struct cropper cropper;

/* Rows go in, top to bottom; rows top..top+height-1 go on from their column `left`. */
cropper *cropper_new(int left, int top, int height, int channels, row_sink *next);
row_sink *cropper_sink(cropper *c);
void cropper_free(cropper *c);

typedef struct padder padder;

/* The channels a padder writes: the rows' own, with colour when the background is not grey and
 * alpha when it is not opaque. */
int padded_channels(int channels, uint32_t background_rgba);

/* Rows of width x height x channels go in; rows of canvas_w x canvas_h x padded_channels go on,
 * the image placed at (x, y), the rest the background (0xRRGGBBAA). */
padder *padder_new(int width, int height, int channels, int canvas_w, int canvas_h, int x, int y, uint32_t background_rgba,
                   row_sink *next);
row_sink *padder_sink(padder *p);
void padder_free(padder *p);

#endif
