/* An ALPH chunk encoder for big images. libwebp 1.2.4 compresses alpha with its full
 * lossless encoder, which needs about 14 B per pixel (an ARGB copy, a hash chain, backward
 * references). This one needs no memory beyond the alpha plane and its output: the plane
 * is horizontally filtered on the fly and coded as a VP8L image-stream with one prefix-code
 * group, literals and runs copied from the left or the row above. Files are somewhat larger
 * than libwebp's, so the engine uses it only when libwebp's encoder would not fit. */
#ifndef ENGINE_WEBP_ALPHA_H
#define ENGINE_WEBP_ALPHA_H

#include <stddef.h>
#include <stdint.h>

/* The ALPH chunk payload (header byte + VP8L image-stream); release it with free(). */
uint8_t *webp_encode_alpha(const uint8_t *plane, int stride, int width, int height, size_t *size);

#endif
