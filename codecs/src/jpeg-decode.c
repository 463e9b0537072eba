#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "host.h"
#include "jpeg-error.h"
#include "jpeg-host.h"
#include "progress.h"

#define INPUT_CHUNK 65536

typedef struct {
  struct jpeg_source_mgr pub;
  uint8_t buffer[INPUT_CHUNK];
} host_source;

static void init_source(j_decompress_ptr cinfo) { (void)cinfo; }

/* A JPEG that ends before its EOI marker is refused rather than padded with grey. */
static boolean fill_input_buffer(j_decompress_ptr cinfo) {
  host_source *src = (host_source *)cinfo->src;
  int n = input_read(src->buffer, INPUT_CHUNK);
  if (n <= 0) host_fail(FAIL_UNSUPPORTED, "the JPEG data is truncated");
  src->pub.next_input_byte = src->buffer;
  src->pub.bytes_in_buffer = (size_t)n;
  return TRUE;
}

static void skip_input_data(j_decompress_ptr cinfo, long count) {
  struct jpeg_source_mgr *src = cinfo->src;
  while (count > (long)src->bytes_in_buffer) {
    count -= (long)src->bytes_in_buffer;
    fill_input_buffer(cinfo);
  }
  src->next_input_byte += count;
  src->bytes_in_buffer -= (size_t)count;
}

static void term_source(j_decompress_ptr cinfo) { (void)cinfo; }

/* libjpeg calls its progress monitor before each step of reading a multi-scan file into the
 * coefficient buffer (one iMCU row of the current scan, or the markers between scans), inside
 * jpeg_start_decompress: the second line against scan bombs, arithmetic-coded ones included,
 * after the header walk's scan count. Each call reports the scan it is in and the blocks the
 * step will visit, which the engine counts against the job's prediction; the rows decoded
 * after it are counted as rows (engine.c). */
static void monitor_scans(j_common_ptr common) {
  j_decompress_ptr cinfo = (j_decompress_ptr)common;
  scan_monitor *m = (scan_monitor *)cinfo->progress;
  if (cinfo->input_scan_number != m->scan) {
    m->scan = cinfo->input_scan_number;
    report_progress(PROGRESS_SCAN_START, m->scan);
  }
  long blocks = cinfo->comps_in_scan > 1 ? (long)cinfo->MCUs_per_row * cinfo->blocks_in_MCU
                                         : (long)cinfo->MCUs_per_row * cinfo->cur_comp_info[0]->v_samp_factor;
  report_progress(PROGRESS_SCANNED, blocks);
}

void jpeg_monitor_scans(j_decompress_ptr cinfo, scan_monitor *monitor) {
  *monitor = (scan_monitor){.pub = {.progress_monitor = monitor_scans}};
  cinfo->progress = &monitor->pub;
}

static void use_host_source(j_decompress_ptr cinfo) {
  host_source *src = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof(host_source));
  src->pub.init_source = init_source;
  src->pub.fill_input_buffer = fill_input_buffer;
  src->pub.skip_input_data = skip_input_data;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = term_source;
  src->pub.bytes_in_buffer = 0;
  src->pub.next_input_byte = NULL;
  cinfo->src = &src->pub;
}

void jpeg_open_input(j_decompress_ptr cinfo, struct jpeg_error_mgr *err, const decode_target *target) {
  cinfo->err = jpeg_throwing_errors(err);
  jpeg_create_decompress(cinfo);
  use_host_source(cinfo);
  jpeg_read_header(cinfo, TRUE);
  /* Before any whole-image allocation: a progressive image's coefficients, a re-coding's. */
  decode_check_size(target, cinfo->image_width, cinfo->image_height);
}

/* The smallest DCT scale M/8 that still leaves the window at least twice the wanted size, so
 * the resampler's filter, not the DCT's truncation, decides the final look. */
static unsigned int dct_scale(const decode_target *target) {
  for (unsigned int m = 1; m < 8; m++) {
    long w = ((long)target->window_w * m + 7) / 8;
    long h = ((long)target->window_h * m + 7) / 8;
    if (w >= 2L * target->want_w && h >= 2L * target->want_h) return m;
  }
  return 8;
}

/* The source's grid, for a JPEG encoder that re-quantises on it (encode.h, align_*): the steps of
 * its first component and, in colour, its second, and whether its chroma is 4:2:0. */
static void record_steps(const struct jpeg_decompress_struct *cinfo, decode_target *target) {
  int components = cinfo->num_components;
  if (components != 1 && components != 3) return;
  for (int c = 0; c < (components == 3 ? 2 : 1); c++) {
    const JQUANT_TBL *table = cinfo->quant_tbl_ptrs[cinfo->comp_info[c].quant_tbl_no];
    if (!table) return;
    for (int k = 0; k < DCTSIZE2; k++) target->source_steps[c][k] = table->quantval[k];
  }
  const jpeg_component_info *comp = cinfo->comp_info;
  target->source_chroma_420 = components == 3 && (comp[0].h_samp_factor == 2 && comp[0].v_samp_factor == 2 && comp[1].h_samp_factor == 1 &&
                                                  comp[1].v_samp_factor == 1 && comp[2].h_samp_factor == 1 && comp[2].v_samp_factor == 1);
  target->source_steps_known = 1;
}

/* Adobe CMYK JPEGs store inverted ink values; this is the naive conversion to RGB. */
static void cmyk_to_rgb(const uint8_t *src, uint8_t *dst, int width, int inverted) {
  for (int x = 0; x < width; x++) {
    int c = src[4 * x], m = src[4 * x + 1], y = src[4 * x + 2], k = src[4 * x + 3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    dst[3 * x] = (uint8_t)((c * k + 127) / 255);
    dst[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
    dst[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
  }
}

void jpeg_decode(decode_target *target) {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr err;
  jpeg_open_input(&cinfo, &err, target);
  record_steps(&cinfo, target);
  int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
  int grey = cinfo.jpeg_color_space == JCS_GRAYSCALE;
  cinfo.out_color_space = cmyk ? JCS_CMYK : grey ? JCS_GRAYSCALE : JCS_RGB;
  unsigned int m = dct_scale(target);
  cinfo.scale_num = m;
  cinfo.scale_denom = 8;
  /* Only while the scans are read into the coefficient buffer: rows are counted as rows. */
  scan_monitor monitor;
  jpeg_monitor_scans(&cinfo, &monitor);
  jpeg_start_decompress(&cinfo);
  cinfo.progress = NULL;

  /* Only the window's columns are decoded (from the iMCU column it starts in) and its rows:
   * those above it are skipped (their entropy-coded data read, no IDCT), those below never read. */
  unsigned int x = 0, x_end = cinfo.output_width, y = 0, y_end = cinfo.output_height;
  if (!target->deliver_whole) {
    decode_scaled_span(target->window_left, target->window_w, m, cinfo.output_width, &x, &x_end);
    decode_scaled_span(target->window_top, target->window_h, m, cinfo.output_height, &y, &y_end);
  }
  JDIMENSION crop_x = x, crop_w = x_end - x;
  if (crop_w < cinfo.output_width) jpeg_crop_scanline(&cinfo, &crop_x, &crop_w);
  if (y > 0) jpeg_skip_scanlines(&cinfo, y);
  target->decoded_eighths = (int)m;
  target->delivered_x = (int)crop_x;
  target->delivered_y = (int)y;

  int width = (int)cinfo.output_width, channels = grey ? 1 : 3;
  row_sink *sink = target->begin(target, width, (int)(y_end - y), channels);
  uint8_t *row = xmalloc((size_t)width * cinfo.output_components);
  uint8_t *rgb = cmyk ? xmalloc((size_t)width * 3) : NULL;
  while (cinfo.output_scanline < y_end) {
    JSAMPROW rows[1] = {row};
    jpeg_read_scanlines(&cinfo, rows, 1);
    if (cmyk) {
      cmyk_to_rgb(row, rgb, width, cinfo.saw_Adobe_marker);
      sink->put(sink, rgb);
    } else {
      sink->put(sink, row);
    }
  }
  /* Past the window nothing is read (finishing would decode the rest to reach the end marker). */
  if (cinfo.output_scanline == cinfo.output_height) jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  free(rgb);
  free(row);
}
