/* Work reports. The stages report what they have done as they go; JS counts it against the
 * job's predicted work and CPU budget (stopping a job that runs far past either) and, every
 * so much work, says a yield is due: host_yield then hands the event loop back (under JSPI
 * it suspends this WASM stack while other requests run). Must match src/image/wasm/abi.ts. */
#ifndef ENGINE_PROGRESS_H
#define ENGINE_PROGRESS_H

enum progress_kind {
  PROGRESS_DECODED = 1,     /* pixels of rows a decoder produced */
  PROGRESS_SCANNED = 2,     /* 8x8 blocks a JPEG scan is about to visit (into the coefficient buffer) */
  PROGRESS_SCAN_START = 3,  /* a JPEG decoder started its scan number `units` */
  PROGRESS_ENCODED = 4,     /* pixels of rows an encoder took in */
  PROGRESS_ENCODER_STEP = 5, /* an encoder's own work after its rows: libwebp's macroblocks, output KiB */
  PROGRESS_ALPHA_PERCENT = 6, /* percent of libwebp's lossless coding of a WebP's alpha plane */
  PROGRESS_FRAME_DECODED = 7, /* pixels decoded into a whole frame before its rows go on (Adam7 PNG, lossless WebP) */
  PROGRESS_ENCODER_PERCENT = 8 /* percent of libwebp's encoding of the picture */
};

/* A stage of one kind of work that runs at a pace of its own (libaom's coding, CDEF search and bitstream writing):
 * counted as its kind, paced apart (src/image/wasm/job-watch.ts). Stages are 1 to 127. */
#define PROGRESS_STAGE_SHIFT 8
#define PROGRESS_STAGE(kind, stage) ((kind) | (stage) << PROGRESS_STAGE_SHIFT)

void report_progress(int kind, long units);

#endif
