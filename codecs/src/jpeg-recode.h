/* JPEG to JPEG on the source's DCT coefficients (jpeg-recode.c). */
#ifndef ENGINE_JPEG_RECODE_H
#define ENGINE_JPEG_RECODE_H

#include "decode.h"

/* Writes the JPEG input's own coefficients again, progressive with optimised Huffman tables: the
 * same pixels, usually fewer bytes. YCbCr or greyscale input only (else FAIL_UNSUPPORTED). */
void jpeg_recode(const decode_target *target);

#endif
