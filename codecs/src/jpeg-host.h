/* The engine's input and output for libjpeg objects (jpegli's too): the input pulled from JS
 * (host_input_read) in 64 KiB chunks, the output pushed to JS (host_output_write) as it is
 * written. Each manager lives in its object's permanent pool, freed when the object is destroyed. */
#ifndef ENGINE_JPEG_HOST_H
#define ENGINE_JPEG_HOST_H

#include "decode.h"
#include "jpeg-error.h"

/* Creates a decompressor with throwing errors on the input, reads the header and checks its size
 * against the one the job was planned from (decode_check_size). */
void jpeg_open_input(j_decompress_ptr cinfo, struct jpeg_error_mgr *err, const decode_target *target);
void jpeg_host_destination(j_compress_ptr cinfo);

/* Reports the reading of a file's scans into the coefficient buffer as work (progress.h), while
 * cinfo->progress points at it: the caller clears it once the coefficients are read. */
typedef struct {
  struct jpeg_progress_mgr pub;
  int scan;
} scan_monitor;
void jpeg_monitor_scans(j_decompress_ptr cinfo, scan_monitor *monitor);

#endif
