/* The AVIF container (HEIF/MIAF with AV1 image items: AV1 Image File Format 1.1), written by us:
 * ftyp, then meta (hdlr, pitm, iloc, iinf, iref, iprp with ipco/ipma: av1C, ispe, pixi, colr
 * nclx and ICC, auxC), then mdat. A large image is a `grid` derived item over cells of one
 * size; alpha is an auxiliary image item (a grid of its own when the colour is one).
 *
 * Every field has a fixed width, so the header's size is known before any cell is encoded:
 * the encoder reserves it, streams the cells out, and writes the header over the reserved
 * bytes at the end (host_output_patch). When the header comes out smaller than reserved (the
 * alpha item was dropped), a `free` box fills the difference. */
#ifndef ENGINE_AVIF_CONTAINER_H
#define ENGINE_AVIF_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

typedef struct avif_layout {
  int width, height;            /* the image */
  int cell_w, cell_h;           /* every coded frame; one cell of the image's size: no grid */
  int columns, rows;
  int mono;                     /* the colour item is monochrome (4:0:0) */
  int alpha;                    /* an alpha item */
  const uint8_t *icc;           /* an ICC profile for colr 'prof', or NULL */
  size_t icc_size;
  uint8_t colour_av1c[4], alpha_av1c[4];
  /* Per cell, row by row: where its AV1 data starts, counted from the end of the header, and its size. */
  const uint32_t *colour_offsets, *colour_sizes;
  const uint32_t *alpha_offsets, *alpha_sizes;
  uint32_t data_size;           /* bytes after the header: the mdat's payload */
} avif_layout;

/* Writes the header (everything before the cells' data: ftyp, meta, a free box up to `reserved`
 * bytes, the mdat box header and the grid descriptors) into out, or only counts it when out is
 * NULL; returns its size. With reserved 0 nothing is padded. */
size_t avif_write_header(uint8_t *out, const avif_layout *layout, size_t reserved);

#endif
