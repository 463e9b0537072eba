/* The JPEG encoders. Built twice (build.sh): against libjpeg-turbo (baseline, for the widest
 * images), and with ENGINE_JPEGLI against jpegli, the JPEG encoder, with every libjpeg call
 * renamed jpegli_* (jpegli-names.h). */
#include <stddef.h>
#include <stdlib.h>

#include "encode.h"
#include "host.h"
#include "jpeg-error.h"
#include "jpeg-host.h"
#include "progress.h"
#ifdef ENGINE_JPEGLI
#include "lib/jpegli/encode.h"
void jpegli_luma_dead_zone(j_compress_ptr cinfo); /* jpegli-dead-zone.cc */
#endif

#define OUTPUT_CHUNK 65536

typedef struct {
  encoder base;
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr err;
  int channels;
  uint8_t *row;
  JBLOCKARRAY (*access_virt_barray)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
} jpeg_encoder;

typedef struct {
  struct jpeg_destination_mgr pub;
  uint8_t buffer[OUTPUT_CHUNK];
} host_destination;

#ifdef ENGINE_JPEGLI
/* Each step becomes the multiple of the source's step nearest to it (at least 1x, within 8 bits): a
 * coefficient the source quantised on its grid is re-quantised on the same grid, adding no second
 * rounding of its own, and no step is finer than the source's (bytes spent on its artefacts). `whole`:
 * only if that keeps every step of the source (the source again, which the lossless re-coding then
 * replaces), else the table stays as it is. */
static void align_table(JQUANT_TBL *table, const unsigned short *source, int whole) {
  UINT16 aligned[DCTSIZE2];
  for (int k = 0; k < DCTSIZE2; k++) {
    int step = source[k], m = (table->quantval[k] + step / 2) / step;
    if (m < 1) m = 1;
    while (m > 1 && step * m > 255) m--;
    aligned[k] = step * m <= 255 ? (UINT16)(step * m) : table->quantval[k];
    if (whole && aligned[k] != step) return;
  }
  for (int k = 0; k < DCTSIZE2; k++) table->quantval[k] = aligned[k];
}

static void sample_420(j_compress_ptr cinfo) {
  cinfo->comp_info[0].h_samp_factor = cinfo->comp_info[0].v_samp_factor = 2;
  for (int c = 1; c < 3; c++) cinfo->comp_info[c].h_samp_factor = cinfo->comp_info[c].v_samp_factor = 1;
}

/* jpegli gives a grey image the Annex K table scaled linearly (its own tables are for YCbCr and XYB only)
 * and no dead zone: on the JPEG development set's grey photo that was 1.36x the former engine's bytes at
 * equal SSIMULACRA2 and above cjpeg's at equal butteraugli. So grey gets what the luma of our colour
 * output gets at the same quality: jpegli's luma table for 4:2:0, made by a colour encoder set up as
 * ours (its chroma scales the luma too), and its dead zone (jpegli_luma_dead_zone, after the start). */
static void colour_luma_table(j_compress_ptr grey, int quality) {
  struct jpeg_compress_struct colour;
  struct jpeg_error_mgr err;
  colour.err = jpeg_throwing_errors(&err);
  jpeg_create_compress(&colour);
  colour.input_components = 3;
  colour.in_color_space = JCS_RGB;
  jpegli_set_defaults(&colour);
  sample_420(&colour);
  jpegli_set_quality(&colour, quality, TRUE);
  for (int k = 0; k < DCTSIZE2; k++) grey->quant_tbl_ptrs[0]->quantval[k] = colour.quant_tbl_ptrs[0]->quantval[k];
  jpeg_destroy_compress(&colour);
}

/* A JPEG source's flat blocks (DC only: most of a smooth or dark area) decode to one whole level each, so
 * their DC is 8 x a whole number: re-quantised with a DC step of 8 they come out exactly, with 7 (jpegli's at
 * its qualities 69 to 73, our service 78 to 81) they move by up to half a level and break into steps. On issue
 * 24's 4:4:4 sources at service 80 (docs/benchmarks.md): 0.4 to 4 % fewer bytes, up to 3 more SSIMULACRA2 on
 * smooth and dark photos, a few tenths less on grainy ones. Steps of 5 and 6 (service 82 to 88) made 8 lost
 * more score than they saved bytes on detailed photos, and won on smooth ones, so they move only from a smooth
 * source (`from` 5; jpeg-from-jpeg.ts decides). A table on the source's grid (`source` steps) takes 8 only where
 * 8 is on that grid too, or (`over_seven`) where jpegli's own step (`own`, before alignment) is 7 on a source's 7
 * (libjpeg's qualities 77 to 80; asked for more, the source's own step stays): from a smooth 4:2:0 source kept at
 * 7, flat areas of a colour near the gamut's edge came back a level off (konqui's sky, 0,104,199, as 0,103,198:
 * butteraugli 1.45, 0.78 at 8). Re-saves at 78 of the tuning photos, and konqui, at service 80, bytes at equal
 * SSIMULACRA2 against the former engine's: at 0.30 or fewer bits per pixel 8 on both tables took 0.90 to 0.94 where
 * 7 took 0.94 to 1.11; from 0.41 to 0.52 the chroma's 8 alone won on three of four (up to 6 %; retina lost 2 %)
 * and both tables' lost up to 13 %; on detailed sources (0.59 up) both lost. */
static void dc_on_levels(JQUANT_TBL *table, int own, int from, const unsigned short *source, int over_seven) {
  int on_grid = !source || 8 % source[0] == 0 || (over_seven && source[0] == 7 && own == 7);
  if (table->quantval[0] >= from && table->quantval[0] < 8 && on_grid) table->quantval[0] = 8;
}

/* 4:2:0 (jpegli's own default is 4:4:4, larger at our qualities), the quality on jpegli's scale
 * (quality-scale.ts maps the service's onto it), 8-bit tables. The plan (memory-model.ts) picks
 * the mode: progressive keeps every coefficient and its tokens; sequential with optimised
 * Huffman tables keeps the tokens; with the standard tables, nothing but rows. */
static void configure(j_compress_ptr cinfo, const encode_options *opt) {
  jpegli_set_defaults(cinfo);
  int grey = cinfo->input_components == 1;
  if (!grey) sample_420(cinfo);
  jpegli_set_quality(cinfo, opt->quality, TRUE);
  if (grey) colour_luma_table(cinfo, opt->quality);
  int own_dc_luma = cinfo->quant_tbl_ptrs[0]->quantval[0], own_dc_chroma = grey ? 0 : cinfo->quant_tbl_ptrs[1]->quantval[0];
  /* Grey input's table is aligned only whole: jpegli's luma table falls on the Annex K grid of the usual
   * grey sources only in part, and aligned in part it measured worse than as it is (flower-im_q85_gray,
   * saved at 85, at service 80: 1.07 against 1.03 of the former engine's bytes at equal SSIMULACRA2,
   * before the dead zone). */
  if (opt->align_luma) align_table(cinfo->quant_tbl_ptrs[0], opt->align_luma, grey);
  if (opt->align_chroma && !grey) align_table(cinfo->quant_tbl_ptrs[1], opt->align_chroma, 0);
  if (opt->dc_on_levels) {
    dc_on_levels(cinfo->quant_tbl_ptrs[0], own_dc_luma, opt->dc_on_levels, opt->align_luma, opt->dc_over_seven & 1);
    if (!grey) dc_on_levels(cinfo->quant_tbl_ptrs[1], own_dc_chroma, opt->dc_on_levels, opt->align_chroma, opt->dc_over_seven & 2);
  }
  jpegli_enable_adaptive_quantization(cinfo, opt->jpeg_adaptive_quantization ? TRUE : FALSE);
  jpegli_set_progressive_level(cinfo, opt->progressive ? 2 : 0);
  cinfo->optimize_coding = opt->progressive || opt->jpeg_optimize_coding ? TRUE : FALSE;
}
#else
/* mozjpeg's default quantisation table (index 3, by N. Robidoux, used for luma and chroma):
 * at equal butteraugli it saves about a quarter of the bytes of the Annex K tables. */
static const unsigned int robidoux_table[DCTSIZE2] = {
    16, 16, 16, 18,  25,  37,  56,  85,  16, 17, 20,  27,  34,  40,  53,  75,
    16, 20, 24, 31,  43,  62,  91,  135, 18, 27, 31,  40,  53,  74,  106, 156,
    25, 34, 43, 53,  69,  94,  131, 189, 37, 40, 62,  74,  94,  124, 169, 238,
    56, 53, 91, 106, 131, 169, 226, 311, 85, 75, 135, 156, 189, 238, 311, 418};

/* The same as `cjpeg -quality Q -qtables robidoux.txt -qslots 0,1,1`: baseline (rows only,
 * standard Huffman tables), 4:2:0, islow DCT. */
static void configure(j_compress_ptr cinfo, const encode_options *opt) {
  jpeg_set_defaults(cinfo);
  int scale = jpeg_quality_scaling(opt->quality);
  jpeg_add_quant_table(cinfo, 0, robidoux_table, scale, TRUE);
  jpeg_add_quant_table(cinfo, 1, robidoux_table, scale, TRUE);
}
#endif

static jpeg_encoder *from_cinfo(j_compress_ptr cinfo) {
  return (jpeg_encoder *)((char *)cinfo - offsetof(jpeg_encoder, cinfo));
}

static void init_destination(j_compress_ptr cinfo) {
  host_destination *dest = (host_destination *)cinfo->dest;
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = OUTPUT_CHUNK;
}

static boolean empty_output_buffer(j_compress_ptr cinfo) {
  host_output_write(((host_destination *)cinfo->dest)->buffer, OUTPUT_CHUNK);
  init_destination(cinfo);
  return TRUE;
}

/* Progressive jpegli keeps every coefficient and tokenises each scan in jpeg_finish_compress,
 * after the rows, reading the coefficients a block row at a time through the memory manager:
 * each block row it reads (there, and as the rows store them) is a step of its work. */
static JBLOCKARRAY access_counted(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start, JDIMENSION rows, boolean writable) {
  jpeg_encoder *e = from_cinfo((j_compress_ptr)cinfo);
  JBLOCKARRAY blocks = e->access_virt_barray(cinfo, array, start, rows, writable);
  report_progress(PROGRESS_ENCODER_STEP, (long)rows);
  return blocks;
}

static void term_destination(j_compress_ptr cinfo) {
  host_destination *dest = (host_destination *)cinfo->dest;
  host_output_write(dest->buffer, (int)(OUTPUT_CHUNK - dest->pub.free_in_buffer));
}

void jpeg_host_destination(j_compress_ptr cinfo) {
  host_destination *dest = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof(host_destination));
  dest->pub.init_destination = init_destination;
  dest->pub.empty_output_buffer = empty_output_buffer;
  dest->pub.term_destination = term_destination;
  cinfo->dest = &dest->pub;
}

static void put_row(row_sink *self, const uint8_t *row) {
  jpeg_encoder *e = (jpeg_encoder *)self;
  int grey = e->cinfo.input_components == 1;
  const uint8_t *src = row;
  if (e->channels != e->cinfo.input_components) {
    convert_row(row, e->channels, e->row, grey, 0, (int)e->cinfo.image_width);
    src = e->row;
  }
  JSAMPROW rows[1] = {(JSAMPROW)src};
  jpeg_write_scanlines(&e->cinfo, rows, 1);
}

static void finish(encoder *self) {
  jpeg_encoder *e = (jpeg_encoder *)self;
  jpeg_finish_compress(&e->cinfo);
  jpeg_destroy_compress(&e->cinfo);
  free(e->row);
  free(e);
}

encoder *jpeg_encoder_new(int width, int height, int channels, const encode_options *opt) {
  jpeg_encoder *e = xcalloc(1, sizeof(jpeg_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->channels = channels;
  j_compress_ptr cinfo = &e->cinfo;
  cinfo->err = jpeg_throwing_errors(&e->err);
  jpeg_create_compress(cinfo);
  e->access_virt_barray = cinfo->mem->access_virt_barray;
  cinfo->mem->access_virt_barray = access_counted;
  jpeg_host_destination(cinfo);
  cinfo->image_width = (JDIMENSION)width;
  cinfo->image_height = (JDIMENSION)height;
  /* Grey with alpha stays grey only over a grey matte. */
  int grey = channels == 1 || (channels == 2 && convert_matte_is_grey());
  cinfo->input_components = grey ? 1 : 3;
  cinfo->in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
  configure(cinfo, opt);
  e->row = xmalloc((size_t)width * 3);
  jpeg_start_compress(cinfo, TRUE);
#ifdef ENGINE_JPEGLI
  if (grey && !opt->jpeg_adaptive_quantization) jpegli_luma_dead_zone(cinfo);
#endif
  return &e->base;
}
