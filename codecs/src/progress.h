/* Work reports. The stages report what they have done as they go; JS counts it against the
 * job's predicted work and CPU budget (stopping a job that runs far past either) and, every
 * so much work, says a yield is due: host_yield then hands the event loop back (under JSPI
 * it suspends this WASM stack while other requests run). Must match src/image/wasm/abi.ts. */
#ifndef ENGINE_PROGRESS_H
#define ENGINE_PROGRESS_H

#include <stdint.h>

enum progress_kind {
  PROGRESS_DECODED = 1,     /* pixels of rows a decoder produced */
  PROGRESS_SCANNED = 2,     /* 8x8 blocks a JPEG scan is about to visit (into the coefficient buffer) */
  PROGRESS_SCAN_START = 3,  /* a JPEG decoder started its scan number `units` */
  PROGRESS_ENCODED = 4,     /* pixels of rows an encoder took in */
  PROGRESS_ENCODER_STEP = 5, /* an encoder's own work after its rows: libwebp's macroblocks, output KiB */
  PROGRESS_ALPHA_PERCENT = 6, /* percent of libwebp's lossless coding of a WebP's alpha plane */
  PROGRESS_FRAME_DECODED = 7, /* pixels decoded into a whole frame before its rows go on (Adam7 PNG, lossless WebP) */
  PROGRESS_ENCODER_PERCENT = 8, /* percent of libwebp's encoding of the picture */
  PROGRESS_INPUT = 9, /* bytes of input a decoder read: work without rows (empty deflate blocks, fill bytes) */
  PROGRESS_HUFFMAN_TABLE = 10 /* symbols and root entries of the Huffman tables libwebp's VP8L decoder built */
};

/* A stage of one kind of work that runs at a pace of its own (libaom's coding, CDEF search and bitstream writing):
 * counted as its kind, paced apart (src/image/wasm/job-watch.ts). Stages are 1 to 127. */
#define PROGRESS_STAGE_SHIFT 8
#define PROGRESS_STAGE(kind, stage) ((kind) | (stage) << PROGRESS_STAGE_SHIFT)

void report_progress(int kind, long units);

/* host_input_read, its bytes reported as PROGRESS_INPUT once read: a yield may come before the decoder
 * works on them. Every decoder reads through it, in pieces (libspng 8 KiB, libjpeg 64 KiB). */
int input_read(uint8_t *dst, int len);

#endif
