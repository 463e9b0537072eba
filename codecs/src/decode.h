/* Decoders read the input through host_input_read and push rows into the sink that the
 * target hands them once the decoder knows the size it will produce. */
#ifndef ENGINE_DECODE_H
#define ENGINE_DECODE_H

#include "rows.h"

typedef struct decode_target {
  /* Called once, before the first row, with the size and channels of the rows to come. */
  row_sink *(*begin)(struct decode_target *self, int width, int height, int channels);
  /* The size the job wants in the end: a JPEG decoder may scale in the DCT towards it. */
  int want_w, want_h;
  /* The stored size the header walked in TypeScript said, which the job was planned from. */
  int header_w, header_h;
  /* A JPEG decoder's quantisation steps (natural order) of its first component and, in colour, its
   * second; whether it is colour with 4:2:0 chroma, as the JPEG encoder writes it. */
  int source_steps_known, source_chroma_420;
  unsigned short source_steps[2][64];
} decode_target;

/* Each decoder calls this as soon as its own header is read, before any whole-frame
 * allocation: data whose size differs from what the job was planned from is refused. */
void decode_check_size(const decode_target *target, long width, long height);

void jpeg_decode(decode_target *target);
void png_decode(decode_target *target);
void webp_decode(decode_target *target);

#endif
