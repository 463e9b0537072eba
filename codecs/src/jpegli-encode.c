/* The JPEG encoder: jpegli (libjxl), through its libjpeg-style jpegli_* API. Built on its own
 * (build.sh) against jpegli's headers only; libjpeg-turbo (jpeg-encode.c) stays the encoder of
 * the images too big for any of jpegli's plans. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "host.h"
#include "lib/jpegli/encode.h"

#define OUTPUT_CHUNK 65536

typedef struct {
  encoder base;
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr err;
  struct jpeg_destination_mgr dest;
  uint8_t buffer[OUTPUT_CHUNK];
  int channels;
  uint8_t *row;
} jpegli_encoder;

/* jpegli reports every error through error_exit with its message in msg_parm.s (msg_code 0);
 * a failed allocation is "Out of memory" (memory_manager.cc). Ours throws in JS and never
 * returns into jpegli. */
static void error_exit(j_common_ptr cinfo) {
  char msg[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, msg);
  msg[JMSG_LENGTH_MAX - 1] = 0;
  host_fail(strstr(msg, "Out of memory") ? FAIL_MEMORY : FAIL_INTERNAL, msg);
}

static void emit_message(j_common_ptr cinfo, int msg_level) {
  if (msg_level < 0) error_exit(cinfo);
}

static void output_message(j_common_ptr cinfo) { (void)cinfo; }

static jpegli_encoder *from_cinfo(j_compress_ptr cinfo) {
  return (jpegli_encoder *)((char *)cinfo - offsetof(jpegli_encoder, cinfo));
}

static void init_destination(j_compress_ptr cinfo) {
  jpegli_encoder *e = from_cinfo(cinfo);
  e->dest.next_output_byte = e->buffer;
  e->dest.free_in_buffer = OUTPUT_CHUNK;
}

static boolean empty_output_buffer(j_compress_ptr cinfo) {
  jpegli_encoder *e = from_cinfo(cinfo);
  host_output_write(e->buffer, OUTPUT_CHUNK);
  init_destination(cinfo);
  return TRUE;
}

static void term_destination(j_compress_ptr cinfo) {
  jpegli_encoder *e = from_cinfo(cinfo);
  host_output_write(e->buffer, (int)(OUTPUT_CHUNK - e->dest.free_in_buffer));
}

static void put_row(row_sink *self, const uint8_t *row) {
  jpegli_encoder *e = (jpegli_encoder *)self;
  int grey = e->cinfo.input_components == 1;
  const uint8_t *src = row;
  if (e->channels != e->cinfo.input_components) {
    convert_row(row, e->channels, e->row, grey, 0, (int)e->cinfo.image_width);
    src = e->row;
  }
  JSAMPROW rows[1] = {(JSAMPROW)src};
  jpegli_write_scanlines(&e->cinfo, rows, 1);
}

static void finish(encoder *self) {
  jpegli_encoder *e = (jpegli_encoder *)self;
  jpegli_finish_compress(&e->cinfo);
  jpegli_destroy_compress(&e->cinfo);
  free(e->row);
  free(e);
}

/* 4:2:0 (jpegli's own default is 4:4:4, larger at our qualities), the quality on jpegli's scale
 * (quality-scale.ts maps the service's onto it). The plan (memory-model.ts) picks the mode:
 * progressive keeps every coefficient and its tokens; sequential with optimised Huffman tables
 * keeps the tokens; without (the standard tables) nothing but rows. */
encoder *jpegli_encoder_new(int width, int height, int channels, const encode_options *opt) {
  jpegli_encoder *e = xcalloc(1, sizeof(jpegli_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->channels = channels;
  j_compress_ptr cinfo = &e->cinfo;
  cinfo->err = jpegli_std_error(&e->err);
  e->err.error_exit = error_exit;
  e->err.emit_message = emit_message;
  e->err.output_message = output_message;
  jpegli_create_compress(cinfo);
  e->dest.init_destination = init_destination;
  e->dest.empty_output_buffer = empty_output_buffer;
  e->dest.term_destination = term_destination;
  cinfo->dest = &e->dest;
  cinfo->image_width = (JDIMENSION)width;
  cinfo->image_height = (JDIMENSION)height;
  int grey = channels <= 2;
  cinfo->input_components = grey ? 1 : 3;
  cinfo->in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
  jpegli_set_defaults(cinfo);
  if (!grey) {
    cinfo->comp_info[0].h_samp_factor = cinfo->comp_info[0].v_samp_factor = 2;
    for (int c = 1; c < 3; c++) cinfo->comp_info[c].h_samp_factor = cinfo->comp_info[c].v_samp_factor = 1;
  }
  jpegli_set_quality(cinfo, opt->quality, TRUE);
  jpegli_enable_adaptive_quantization(cinfo, opt->jpeg_adaptive_quantization ? TRUE : FALSE);
  jpegli_set_progressive_level(cinfo, opt->progressive ? 2 : 0);
  cinfo->optimize_coding = opt->progressive || opt->jpeg_optimize_coding ? TRUE : FALSE;
  e->row = xmalloc((size_t)width * 3);
  jpegli_start_compress(cinfo, TRUE);
  return &e->base;
}
