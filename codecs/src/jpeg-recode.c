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
#include "progress.h"

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

/* The progressive DC scans interleave every component, which libjpeg allows up to 10 blocks an MCU: a
 * source decoded in separate scans may have more (the TypeScript side plans none such: `recodable`). */
static void check_interleaving(j_decompress_ptr src) {
  int blocks = 0;
  for (int ci = 0; ci < src->num_components; ci++) blocks += src->comp_info[ci].h_samp_factor * src->comp_info[ci].v_samp_factor;
  if (src->num_components > 1 && blocks > C_MAX_BLOCKS_IN_MCU)
    host_fail(FAIL_UNSUPPORTED, "the JPEG's sampling factors make an MCU of more than 10 blocks, which a progressive file cannot interleave");
}

/* The encoder passes over the coefficients scan by scan (twice each with optimised Huffman tables, but
 * for DC refinement), reading them an iMCU row at a time through the memory manager: each block it reads
 * (rows padded to the sampling factors, as the arrays are) is a step of its work. */
typedef struct {
  struct jpeg_compress_struct cinfo;
  jvirt_barray_ptr *coefs;
  JBLOCKARRAY (*access_virt_barray)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
} recoder;

static JBLOCKARRAY access_counted(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start, JDIMENSION rows, boolean writable) {
  recoder *r = (recoder *)cinfo;
  JBLOCKARRAY blocks = r->access_virt_barray(cinfo, array, start, rows, writable);
  for (int ci = 0; ci < r->cinfo.num_components; ci++) {
    const jpeg_component_info *comp = &r->cinfo.comp_info[ci];
    long wide = (long)((comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor * comp->h_samp_factor);
    if (r->coefs[ci] == array) report_progress(PROGRESS_ENCODER_STEP, (long)rows * wide);
  }
  return blocks;
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
  check_interleaving(&src);

  recoder r;
  j_compress_ptr dst = &r.cinfo;
  struct jpeg_error_mgr dst_err;
  dst->err = jpeg_throwing_errors(&dst_err);
  jpeg_create_compress(dst);
  r.coefs = coefs;
  r.access_virt_barray = dst->mem->access_virt_barray;
  dst->mem->access_virt_barray = access_counted;
  jpeg_host_destination(dst);
  jpeg_copy_critical_parameters(&src, dst);
  dst->optimize_coding = TRUE;
  jpeg_simple_progression(dst);
  jpeg_write_coefficients(dst, coefs);
  jpeg_finish_compress(dst);
  jpeg_destroy_compress(dst);
  jpeg_finish_decompress(&src);
  jpeg_destroy_decompress(&src);
}
