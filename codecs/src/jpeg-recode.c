/* JPEG to JPEG without going through pixels, as `jpegtran -optimize -progressive -copy none`
 * does: the source's quantised DCT coefficients are read whole (2 B each, every component at its
 * own sampling) and written again, progressive with optimised Huffman tables, so every pixel
 * stays as it was. Nothing else of the source is copied (the TypeScript side carries the colour
 * profile as for any output); JFIF density is kept. */
#include <string.h>

#include "decode.h"
#include "host.h"
#include "jpeg-host.h"
#include "jpeg-recode.h"

/* libjpeg writes one table per slot: a source that redefined a slot between scans cannot be
 * re-coded (jpeg_copy_critical_parameters would stop with an internal error). */
static void check_tables(j_decompress_ptr src) {
  for (int ci = 0; ci < src->num_components; ci++) {
    const jpeg_component_info *comp = &src->comp_info[ci];
    const JQUANT_TBL *slot = src->quant_tbl_ptrs[comp->quant_tbl_no];
    if (!slot || (comp->quant_table && memcmp(comp->quant_table->quantval, slot->quantval, sizeof slot->quantval)))
      host_fail(FAIL_UNSUPPORTED, "the JPEG redefines a quantisation table between scans");
  }
}

void jpeg_recode(const decode_target *target) {
  struct jpeg_decompress_struct src;
  struct jpeg_error_mgr src_err;
  jpeg_open_input(&src, &src_err, target);
  if (src.jpeg_color_space != JCS_YCbCr && src.jpeg_color_space != JCS_GRAYSCALE)
    host_fail(FAIL_UNSUPPORTED, "only YCbCr and greyscale JPEGs are re-coded");
  scan_monitor monitor;
  jpeg_monitor_scans(&src, &monitor);
  jvirt_barray_ptr *coefs = jpeg_read_coefficients(&src);
  src.progress = NULL;
  check_tables(&src);

  struct jpeg_compress_struct dst;
  struct jpeg_error_mgr dst_err;
  dst.err = jpeg_throwing_errors(&dst_err);
  jpeg_create_compress(&dst);
  jpeg_host_destination(&dst);
  jpeg_copy_critical_parameters(&src, &dst);
  dst.optimize_coding = TRUE;
  jpeg_simple_progression(&dst);
  jpeg_write_coefficients(&dst, coefs);
  jpeg_finish_compress(&dst);
  jpeg_destroy_compress(&dst);
  jpeg_finish_decompress(&src);
  jpeg_destroy_decompress(&src);
}
