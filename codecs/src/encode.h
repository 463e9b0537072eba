/* Encoders take rows in the pipeline's channel layout, convert them to what their format
 * stores, and push the file out through host_output_write as it is produced. */
#ifndef ENGINE_ENCODE_H
#define ENGINE_ENCODE_H

#include "rows.h"

typedef struct encoder {
  row_sink sink;
  /* Writes the rest of the file and frees the encoder. */
  void (*finish)(struct encoder *self);
} encoder;

typedef struct encode_options {
  int quality;      /* 1..100 */
  int progressive;  /* jpegli: progressive scans (every coefficient and token held) */
  int jpeg_optimize_coding; /* jpegli, sequential: optimised Huffman tables (every token held) */
  int jpeg_adaptive_quantization; /* jpegli: adaptive quantisation */
  /* jpegli: a JPEG source's steps (natural order) to re-quantise on: each step of the table becomes the
   * multiple of the source's nearest to it, never finer (NULL: the tables as they are). Chroma only where
   * the output's chroma blocks are the source's (both 4:2:0). */
  const unsigned short *align_luma, *align_chroma;
  int dc_on_levels; /* jpegli: DC steps from this one (5 or 7) up to 8 become 8 (0: none; on the source's grid only
                     * where 8 is on it); jpeg-encode.c says why */
  int dc_over_seven; /* jpegli, with dc_on_levels: 8 over a source's DC step of 7 too (bit 0: luma, bit 1: chroma) */
  int own_webp_alpha; /* WebP: code alpha with webp-alpha.c (no 14 B/px lossless encoder) */
  int webp_low_memory; /* WebP: no whole-image token buffer, about 3 times slower */
  int anim_loop_count; /* animated WebP: the plays, 0 forever */
  int avif_speed;     /* AVIF: libaom's cpu-used, 0 (slowest) to 9 */
  int avif_tune;      /* AVIF: libaom's aom_tune_metric */
  int avif_cell_w, avif_cell_h; /* AVIF: the size of every coded frame (the image's: no grid) */
  int avif_yuv444;    /* AVIF: 4:4:4 rather than 4:2:0 */
} encode_options;

/* Alpha from which a pixel is written as opaque: no visible change, and PNG drops its alpha
 * channel or tRNS entry when every pixel is at least this opaque. */
#define NEAR_OPAQUE 254

/* What a first pass over the output rows found, so PNG can pick its smallest colour type. */
typedef struct png_stats {
  int channels;
  int opaque;          /* every alpha sample is NEAR_OPAQUE or more */
  int grey;            /* every pixel has r == g == b */
  int palette_size;    /* distinct RGBA colours, or 257 when there are more than 256 */
  int dithered;        /* the colours are a quantiser's palette, dithered */
  uint32_t palette[256]; /* the colours as 0xRRGGBBAA, in order of first appearance */
} png_stats;

/* jpeg-encode.c built against jpegli: the JPEG encoder. */
encoder *jpegli_encoder_new(int width, int height, int channels, const encode_options *opt);
/* jpeg-encode.c built against libjpeg-turbo: baseline, the leanest rows, for images too wide for jpegli's. */
encoder *jpeg_encoder_new(int width, int height, int channels, const encode_options *opt);
encoder *webp_encoder_new(int width, int height, int channels, const encode_options *opt);
/* An animated WebP (webp-anim.c): every frame's rows of the whole canvas, then webp_anim_frame with its duration;
 * finish assembles the file in memory and writes it. */
encoder *webp_anim_encoder_new(int width, int height, int channels, const encode_options *opt);
void webp_anim_frame(encoder *self, int duration_ms);
/* libwebp's progress counted for every picture it reports on (webp-encode.c): an animation's frames are pictures
 * of libwebp's own. */
void webp_count_every_picture(int on);
encoder *avif_encoder_new(int width, int height, int channels, const encode_options *opt);
/* raw-encode.c: the rows as 8-bit RGB, for the engine's own comparisons (FORMAT_RAW). */
encoder *raw_encoder_new(int width, int height, int channels);
/* How the PNG encoder deflates: zlib strategy and libspng filter choice. Which is smallest
 * depends on the image, so the engine counts several on small images (count != NULL: the
 * encoder writes nothing and adds the bytes it would write to *count). NULL params: level 9
 * (6 on big images), Z_FILTERED with adaptive filters, no filter for palettes. */
typedef struct png_params {
  int strategy;      /* Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE */
  int filter_choice; /* SPNG_FILTER_CHOICE_* */
} png_params;

encoder *png_encoder_new(int width, int height, int channels, const png_stats *stats, const png_params *params, long *count);
/* The filter choice that deflates these pixels best as a rule: none for palette images
 * (libspng filters nothing in them whatever it is asked) and for dithered rows (where
 * prediction only spreads the noise), libspng's adaptive choice otherwise. */
int png_default_filter(const png_stats *stats);

/* A sink that fills `stats` and writes nothing; release it with free(). */
row_sink *png_stats_sink(png_stats *stats, int width, int channels);

/* Converts a row of `channels` samples to RGB or grey (with_alpha 0) or RGBA or grey+alpha,
 * flattening transparency onto the matte (white unless set) when alpha is dropped. */
void convert_set_matte(uint8_t r, uint8_t g, uint8_t b);
int convert_matte_is_grey(void);
void convert_row(const uint8_t *src, int channels, uint8_t *dst, int grey, int with_alpha, int width);

#endif
