/* Decoders read the input through host_input_read and push rows into the sink that the
 * target hands them once the decoder knows the size it will produce. */
#ifndef ENGINE_DECODE_H
#define ENGINE_DECODE_H

#include "rows.h"

typedef struct decode_target {
  /* Called once, before the first row, with the size and channels of the rows to come (all of
   * them, or of the part of the image a JPEG decoder hands over). */
  row_sink *(*begin)(struct decode_target *self, int width, int height, int channels);
  /* The size the job wants in the end: a JPEG decoder may scale in the DCT towards it. */
  int want_w, want_h;
  /* The window of the stored image the job takes (the whole unless cut), in its pixels at the
   * header's size: a JPEG decoder skips what lies outside it. */
  int window_left, window_top, window_w, window_h;
  /* Hand over the whole image all the same, at the DCT scale the window asks for (gravity=auto keeps it,
   * places the window on it, then cuts the window from it). */
  int deliver_whole;
  /* Set by the decoder before `begin`: the DCT scale it decodes at, in eighths (8 for every other
   * decoder), and where the rows it hands over start in the image at that scale (a JPEG decoder
   * hands over only the rows and columns its window needs). */
  int decoded_eighths, delivered_x, delivered_y;
  /* The stored size the header walked in TypeScript said, which the job was planned from. */
  int header_w, header_h;
  /* A JPEG decoder's quantisation steps (natural order) of its first component and, in colour, its
   * second; whether it is colour with 4:2:0 chroma, as the JPEG encoder writes it. */
  int source_steps_known, source_chroma_420;
  unsigned short source_steps[2][64];
  /* An animation's every frame (NULL: the first alone): each composed on the whole canvas and handed over from
   * `begin` to its last row, then this with how long it shows. A decoder that meets more than max_frames fails. */
  void (*frame_done)(struct decode_target *self, int duration_ms);
  int max_frames;
} decode_target;

/* Each decoder calls this as soon as its own header is read, before any whole-frame
 * allocation: data whose size differs from what the job was planned from is refused. */
void decode_check_size(const decode_target *target, long width, long height);

/* The pixels [first, end) of an image of `size` pixels at the DCT scale m/8 that a span of the stored image covers. */
void decode_scaled_span(int start, int length, unsigned int m, unsigned int size, unsigned int *first, unsigned int *end);

void jpeg_decode(decode_target *target);
void png_decode(decode_target *target);
void webp_decode(decode_target *target);
/* The AV1 images of an AVIF, in the framing avif-decode.c describes. */
void avif_decode(decode_target *target);
void gif_decode(decode_target *target);

#endif
