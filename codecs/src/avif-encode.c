#include <stdlib.h>
#include <string.h>

#include "aom/aom_encoder.h"
#include "aom/aomcx.h"
#include "aom-error.h"
#include "avif-container.h"
#include "encode.h"
#include "host.h"
#include "progress.h"

/* AVIF output: libaom in all-intra (still picture) mode. The image is cut into cells of one size
 * (a grid item when there are several): rows are converted to YCbCr as they arrive into a stripe
 * one cell tall and the image's width, and when it is full each cell of it is encoded in turn by
 * one encoder sized for a cell, its AV1 data pushed out at once. So memory holds a stripe and
 * one encoder's state, whatever the image's height. The container's header is reserved first and
 * written over at the end (avif-container.h). Alpha is a second, monochrome, lossless encoder:
 * cells whose alpha is all NEAR_OPAQUE or more are coded opaque, and an image whose every cell is
 * opaque has no alpha item. */
typedef struct {
  encoder base;
  int width, height, channels;
  int mono;     /* grey input: a monochrome (4:0:0) colour item */
  int alpha_in; /* the rows carry alpha */
  int shift;    /* chroma subsampling: 1 for 4:2:0, 0 for 4:4:4 (and unused when mono) */
  int cell_w, cell_h, columns, rows;
  int stripe_w, chroma_w, chroma_h; /* the stripe's luma width; one cell's chroma size */
  uint8_t *y, *u, *v, *a;           /* the stripe's planes */
  uint8_t *pair;                    /* 4:2:0: the previous row as RGB */
  uint8_t *neutral, *opaque;        /* a row of 128s (chroma of monochrome frames), one of 255s */
  int row;                          /* rows received */
  int cells_done;                   /* cells of the stripes already encoded */
  aom_codec_ctx_t colour, alpha;
  int colour_open, alpha_open;
  int frames;
  const encode_options *options;
  avif_layout layout;
  uint32_t *colour_offsets, *colour_sizes, *alpha_offsets, *alpha_sizes;
  uint32_t written; /* bytes of cells written after the header */
  size_t reserved;  /* the header's room */
  int transparent;  /* some alpha cell was not opaque */
  int pending_opaque; /* opaque alpha cells before the first transparent one, not yet written */
  uint8_t *opaque_cell; /* an opaque alpha cell's AV1 data, once encoded */
  uint32_t opaque_size;
  uint8_t *icc;
} avif_encoder;

static void check(aom_codec_err_t err) {
  if (err != AOM_CODEC_OK) engine_longjmp(err);
}

static void open_codec(avif_encoder *e, aom_codec_ctx_t *ctx, int alpha) {
  const encode_options *o = e->options;
  aom_codec_iface_t *iface = aom_codec_av1_cx();
  aom_codec_enc_cfg_t cfg;
  check(aom_codec_enc_config_default(iface, &cfg, AOM_USAGE_ALL_INTRA));
  int mono = alpha || e->mono;
  cfg.g_profile = !mono && !e->shift ? 1 : 0;
  cfg.g_w = (unsigned)e->cell_w;
  cfg.g_h = (unsigned)e->cell_h;
  cfg.g_threads = 1;
  cfg.g_limit = 1; /* a still picture: the reduced sequence header, every cell on its own */
  cfg.monochrome = (unsigned)mono;
  cfg.rc_end_usage = AOM_Q;
  int cq = alpha ? 0 : (100 - o->quality) * 63 / 100;
  cfg.rc_min_quantizer = (unsigned)cq;
  cfg.rc_max_quantizer = (unsigned)cq;
  check(aom_codec_enc_init(ctx, iface, &cfg, 0));
  /* Lossless alpha comes out within 0.3 % of one size at every speed (1 MP of noise): the fastest. */
  check(aom_codec_control(ctx, AOME_SET_CPUUSED, alpha ? 9 : o->avif_speed));
  check(aom_codec_control(ctx, AOME_SET_CQ_LEVEL, (unsigned)cq));
  /* No intra block copy: on content libaom takes for a screenshot (at most four luma values in most 16x16
   * blocks) it hashes every block position of the cell at every size, about 60 B per pixel (145 MiB for a
   * 1 MP cell of two-tone noise, above the engine's budget); photos never take it. */
  check(aom_codec_control(ctx, AV1E_SET_ENABLE_INTRABC, 0u));
  if (alpha) check(aom_codec_control(ctx, AV1E_SET_LOSSLESS, 1u));
  else check(aom_codec_control(ctx, AOME_SET_TUNING, o->avif_tune));
  /* The reconstruction is never a reference: libaom computes its filters' parameters and skips applying those it can. */
  check(aom_codec_control(ctx, AV1E_SET_SKIP_POSTPROC_FILTERING, 1u));
  check(aom_codec_control(ctx, AV1E_SET_COLOR_RANGE, AOM_CR_FULL_RANGE));
  check(aom_codec_control(ctx, AV1E_SET_COLOR_PRIMARIES, e->icc || alpha ? AOM_CICP_CP_UNSPECIFIED : AOM_CICP_CP_BT_709));
  check(aom_codec_control(ctx, AV1E_SET_TRANSFER_CHARACTERISTICS, e->icc || alpha ? AOM_CICP_TC_UNSPECIFIED : AOM_CICP_TC_SRGB));
  check(aom_codec_control(ctx, AV1E_SET_MATRIX_COEFFICIENTS, alpha ? AOM_CICP_MC_UNSPECIFIED : AOM_CICP_MC_BT_601));
}

/* av1C (AV1-ISOBMFF 2.3) for a cell's data: profile and level from its sequence header (libaom
 * writes the reduced one of a still picture), the rest as configured. */
static void make_av1c(uint8_t config[4], const uint8_t *data, size_t size, int mono, int shift) {
  if (size < 4 || ((data[0] >> 3) & 15) != 1 || (data[0] & 4)) host_fail(FAIL_INTERNAL, "avif: no sequence header first");
  size_t at = 1;
  while (at < size && (data[at] & 0x80)) at++; /* the OBU's leb128 size */
  at++;
  if (at + 1 >= size || !(data[at] & 0x08)) host_fail(FAIL_INTERNAL, "avif: not a reduced still picture header");
  int profile = data[at] >> 5;
  int level = (data[at] & 7) << 2 | data[at + 1] >> 6;
  int sub = mono || shift;
  config[0] = 0x81;
  config[1] = (uint8_t)(profile << 5 | level);
  config[2] = (uint8_t)(mono << 4 | sub << 3 | sub << 2);
  config[3] = 0;
}

/* libaom has no progress callback; functions of it that a build without threads calls for every superblock or
 * 64x64 block are wrapped at link time instead (build.sh, --wrap), to report work as it goes, so the job hands the
 * event loop back inside a cell: the row-sync hook of its multi-threaded encoder, a no-op here, called after each
 * superblock it codes (encodeframe.c, encode_sb_row); the list of a filter block's 8x8 blocks that its CDEF search
 * builds first for each block it searches (pickcdef.c; libaom's own filtering of the frame, which builds it too, is
 * skipped for a still picture); and the lookup of a superblock's coefficients that the bitstream writer makes for
 * each superblock (bitstream.c, write_modes) while av1_pack_bitstream, wrapped too, writes the frame after them.
 * A cell's work is STEPS_PER_BLOCK steps per 64x64 block (cpu-model.ts): writing a block reports WRITING_STEPS of
 * them, searching it SEARCH_STEPS where CDEF is searched (speed 6: libaom picks CDEF from the quantiser at 7 to 9,
 * and lossless alpha has none), coding it the rest. The three run at paces of their own (on photos, writing is 2 %
 * of a cell's CPU at speed 6 and 11 to 27 % at 9, unreported it held the loop 20 to 50 ms a cell; CDEF's search 5 to
 * 16 % at 6), so each is reported as a stage of its own that the watch paces apart (progress.h). What coding and
 * searching did not report is reported when writing starts (blocks the search skips), and what writing did not
 * when the cell is done; a cell never reports more. Superblocks are 64x64 with tune=iq (its Variance Boost) and at
 * speed 9, else 128x128 (4 blocks, fewer at the cell's edges). */
enum { STEPS_PER_BLOCK = 4, SEARCH_STEPS = 1, WRITING_STEPS = 1 };
enum { CODING = 1, SEARCHING, WRITING };
static int coding_blocks_across, coding_steps; /* of the cell being coded: its blocks across, coding's steps a block */
static int superblock_side;                    /* in 64x64 blocks */
static int writing;                            /* av1_pack_bitstream is running */
static long steps_left[WRITING + 1];           /* by stage */

static void report_steps(int stage, long steps) {
  if (steps > steps_left[stage]) steps = steps_left[stage];
  steps_left[stage] -= steps;
  if (steps > 0) report_progress(PROGRESS_STAGE(PROGRESS_ENCODER_STEP, stage), steps);
}

void __wrap_av1_row_mt_sync_write_dummy(void *sync, int row, int column, int columns) {
  (void)sync, (void)row, (void)column;
  superblock_side = columns > 0 ? (coding_blocks_across + columns - 1) / columns : 1;
  report_steps(CODING, (long)superblock_side * superblock_side * coding_steps);
}

struct CommonModeInfoParams;
int __real_av1_cdef_compute_sb_list(const struct CommonModeInfoParams *params, int mi_row, int mi_col, void *list, unsigned char size);
int __wrap_av1_cdef_compute_sb_list(const struct CommonModeInfoParams *params, int mi_row, int mi_col, void *list, unsigned char size) {
  report_steps(SEARCHING, SEARCH_STEPS);
  return __real_av1_cdef_compute_sb_list(params, mi_row, mi_col, list, size);
}

struct AV1_COMP;
int __real_av1_pack_bitstream(struct AV1_COMP *cpi, uint8_t *dst, size_t dst_size, size_t *size, int *largest_tile_id);
int __wrap_av1_pack_bitstream(struct AV1_COMP *cpi, uint8_t *dst, size_t dst_size, size_t *size, int *largest_tile_id) {
  report_steps(CODING, steps_left[CODING]);
  report_steps(SEARCHING, steps_left[SEARCHING]);
  writing = 1;
  int status = __real_av1_pack_bitstream(cpi, dst, dst_size, size, largest_tile_id);
  writing = 0;
  return status;
}

struct CB_COEFF_BUFFER *__real_av1_get_cb_coeff_buffer(const struct AV1_COMP *cpi, int mi_row, int mi_col);
struct CB_COEFF_BUFFER *__wrap_av1_get_cb_coeff_buffer(const struct AV1_COMP *cpi, int mi_row, int mi_col) {
  if (writing) report_steps(WRITING, (long)superblock_side * superblock_side * WRITING_STEPS);
  return __real_av1_get_cb_coeff_buffer(cpi, mi_row, mi_col);
}

/* Encodes one cell and writes its AV1 data (without the temporal delimiter, which AVIF items leave
 * out); returns where it starts and its size, and the payload's av1C the first time. */
static void encode_cell(avif_encoder *e, aom_codec_ctx_t *ctx, aom_image_t *img, int alpha, uint32_t *offset, uint32_t *size,
                        uint8_t **copy) {
  coding_blocks_across = (e->cell_w + 63) / 64;
  long blocks = (long)coding_blocks_across * ((e->cell_h + 63) / 64);
  int search_steps = !alpha && e->options->avif_speed <= 6 ? SEARCH_STEPS : 0;
  coding_steps = STEPS_PER_BLOCK - search_steps - WRITING_STEPS;
  steps_left[CODING] = blocks * coding_steps;
  steps_left[SEARCHING] = blocks * search_steps;
  steps_left[WRITING] = blocks * WRITING_STEPS;
  check(aom_codec_encode(ctx, img, e->frames++, 1, 0));
  for (int stage = CODING; stage <= WRITING; stage++) report_steps(stage, steps_left[stage]);
  aom_codec_iter_t iter = NULL;
  const aom_codec_cx_pkt_t *pkt;
  *offset = e->written;
  *size = 0;
  while ((pkt = aom_codec_get_cx_data(ctx, &iter)) != NULL) {
    if (pkt->kind != AOM_CODEC_CX_FRAME_PKT) continue;
    const uint8_t *data = pkt->data.frame.buf;
    size_t n = pkt->data.frame.sz;
    if (n >= 2 && data[0] == 0x12 && data[1] == 0) data += 2, n -= 2;
    if (*size == 0) {
      uint8_t *av1c = alpha ? e->layout.alpha_av1c : e->layout.colour_av1c;
      if (!av1c[0]) make_av1c(av1c, data, n, alpha || e->mono, e->shift);
    }
    if (copy) {
      *copy = xmalloc(n);
      memcpy(*copy, data, n);
    }
    host_output_write(data, (int)n);
    e->written += (uint32_t)n;
    *size += (uint32_t)n;
  }
  if (*size == 0) host_fail(FAIL_INTERNAL, "avif: the encoder wrote no frame");
}

static void wrap(aom_image_t *img, int mono, int shift, int width, int height) {
  memset(img, 0, sizeof *img);
  img->fmt = mono || shift ? AOM_IMG_FMT_I420 : AOM_IMG_FMT_I444;
  img->w = img->d_w = (unsigned)width;
  img->h = img->d_h = (unsigned)height;
  img->bit_depth = 8;
  img->monochrome = mono;
  img->range = AOM_CR_FULL_RANGE;
  img->x_chroma_shift = img->y_chroma_shift = (unsigned)(mono || shift);
}

static void write_opaque_cell(avif_encoder *e, int cell) {
  if (!e->opaque_cell) {
    aom_image_t img;
    wrap(&img, 1, 1, e->cell_w, e->cell_h);
    /* A stride of 0 repeats one row. */
    img.planes[0] = e->opaque;
    img.planes[1] = img.planes[2] = e->neutral;
    encode_cell(e, &e->alpha, &img, 1, &e->alpha_offsets[cell], &e->alpha_sizes[cell], &e->opaque_cell);
    e->opaque_size = e->alpha_sizes[cell];
    return;
  }
  host_output_write(e->opaque_cell, (int)e->opaque_size);
  e->alpha_offsets[cell] = e->written;
  e->alpha_sizes[cell] = e->opaque_size;
  e->written += e->opaque_size;
}

static int cell_opaque(const avif_encoder *e, int column) {
  for (int y = 0; y < e->cell_h; y++) {
    const uint8_t *a = e->a + (size_t)y * e->stripe_w + (size_t)column * e->cell_w;
    for (int x = 0; x < e->cell_w; x++)
      if (a[x] < NEAR_OPAQUE) return 0;
  }
  return 1;
}

static void encode_alpha_cell(avif_encoder *e, int column, int cell) {
  if (!e->alpha_open) {
    open_codec(e, &e->alpha, 1);
    e->alpha_open = 1;
  }
  if (cell_opaque(e, column)) {
    if (e->transparent) write_opaque_cell(e, cell);
    else e->pending_opaque++;
    return;
  }
  if (!e->transparent) {
    e->transparent = 1;
    for (int i = 0; i < e->pending_opaque; i++) write_opaque_cell(e, i);
  }
  aom_image_t img;
  wrap(&img, 1, 1, e->cell_w, e->cell_h);
  img.planes[0] = e->a + (size_t)column * e->cell_w;
  img.stride[0] = e->stripe_w;
  img.planes[1] = img.planes[2] = e->neutral;
  encode_cell(e, &e->alpha, &img, 1, &e->alpha_offsets[cell], &e->alpha_sizes[cell], NULL);
}

/* Fills the stripe's rows below the image's last one (the last stripe's padding) and encodes its cells. */
static void encode_stripe(avif_encoder *e, int filled) {
  int chroma_filled = (filled + e->shift) >> e->shift;
  int chroma_stride = e->chroma_w * e->columns;
  for (int y = filled; y < e->cell_h; y++) {
    memcpy(e->y + (size_t)y * e->stripe_w, e->y + (size_t)(filled - 1) * e->stripe_w, (size_t)e->stripe_w);
    if (e->alpha_in) memcpy(e->a + (size_t)y * e->stripe_w, e->a + (size_t)(filled - 1) * e->stripe_w, (size_t)e->stripe_w);
  }
  if (!e->mono)
    for (int y = chroma_filled; y < e->chroma_h; y++) {
      memcpy(e->u + (size_t)y * chroma_stride, e->u + (size_t)(chroma_filled - 1) * chroma_stride, (size_t)chroma_stride);
      memcpy(e->v + (size_t)y * chroma_stride, e->v + (size_t)(chroma_filled - 1) * chroma_stride, (size_t)chroma_stride);
    }
  if (!e->colour_open) {
    open_codec(e, &e->colour, 0);
    e->colour_open = 1;
  }
  for (int c = 0; c < e->columns; c++) {
    aom_image_t img;
    wrap(&img, e->mono, e->shift, e->cell_w, e->cell_h);
    img.planes[0] = e->y + (size_t)c * e->cell_w;
    img.stride[0] = e->stripe_w;
    if (e->mono) {
      img.planes[1] = img.planes[2] = e->neutral;
    } else {
      img.planes[1] = e->u + (size_t)c * e->chroma_w;
      img.planes[2] = e->v + (size_t)c * e->chroma_w;
      img.stride[1] = img.stride[2] = chroma_stride;
    }
    int cell = e->cells_done + c;
    encode_cell(e, &e->colour, &img, 0, &e->colour_offsets[cell], &e->colour_sizes[cell], NULL);
  }
  if (e->alpha_in)
    for (int c = 0; c < e->columns; c++) encode_alpha_cell(e, c, e->cells_done + c);
  e->cells_done += e->columns;
}

/* BT.601 full-range YCbCr (matrix coefficients 6), 16-bit fixed point. */
static uint8_t luma(int r, int g, int b) { return (uint8_t)((19595 * r + 38470 * g + 7471 * b + 32768) >> 16); }
static uint8_t clamp(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
static uint8_t cb(int r, int g, int b) { return clamp(128 + ((-11059 * r - 21709 * g + 32768 * b + 32768) >> 16)); }
static uint8_t cr(int r, int g, int b) { return clamp(128 + ((32768 * r - 27439 * g - 5329 * b + 32768) >> 16)); }

/* The stripe's chroma row `cy` from one or two RGB rows, each sample the mean of its block. */
static void chroma_row(avif_encoder *e, const uint8_t *top, const uint8_t *bottom, int cy) {
  int stride = e->chroma_w * e->columns, step = 1 << e->shift;
  uint8_t *u = e->u + (size_t)cy * stride, *v = e->v + (size_t)cy * stride;
  int cx;
  for (cx = 0; cx * step < e->width; cx++) {
    int r = 0, g = 0, b = 0, count = 0;
    for (int dx = 0; dx < step && cx * step + dx < e->width; dx++) {
      const uint8_t *p = top + (size_t)(cx * step + dx) * 3, *q = bottom + (size_t)(cx * step + dx) * 3;
      r += p[0] + q[0], g += p[1] + q[1], b += p[2] + q[2], count += 2;
    }
    r = (r + count / 2) / count, g = (g + count / 2) / count, b = (b + count / 2) / count;
    u[cx] = cb(r, g, b);
    v[cx] = cr(r, g, b);
  }
  for (; cx < stride; cx++) u[cx] = u[cx - 1], v[cx] = v[cx - 1];
}

static void put_row(row_sink *self, const uint8_t *row) {
  avif_encoder *e = (avif_encoder *)self;
  int sy = e->row % e->cell_h;
  uint8_t *y = e->y + (size_t)sy * e->stripe_w;
  uint8_t *rgb = e->pair + (size_t)(e->shift && (sy & 1)) * e->width * 3;
  int x;
  for (x = 0; x < e->width; x++) {
    const uint8_t *p = row + (size_t)x * e->channels;
    if (e->mono) {
      y[x] = p[0];
    } else {
      y[x] = luma(p[0], p[1], p[2]);
      memcpy(rgb + (size_t)x * 3, p, 3);
    }
    if (e->alpha_in) e->a[(size_t)sy * e->stripe_w + x] = p[e->channels - 1];
  }
  for (; x < e->stripe_w; x++) {
    y[x] = y[x - 1];
    if (e->alpha_in) e->a[(size_t)sy * e->stripe_w + x] = e->a[(size_t)sy * e->stripe_w + x - 1];
  }
  int last = ++e->row == e->height;
  if (!e->mono) {
    if (!e->shift) chroma_row(e, rgb, rgb, sy);
    else if (sy & 1) chroma_row(e, e->pair, rgb, sy >> 1);
    else if (last) chroma_row(e, rgb, rgb, sy >> 1);
  }
  if (sy == e->cell_h - 1 || last) encode_stripe(e, sy + 1);
}

static void finish(encoder *self) {
  avif_encoder *e = (avif_encoder *)self;
  if (e->row != e->height) host_fail(FAIL_INTERNAL, "avif: fewer rows than the image");
  e->layout.alpha = e->transparent;
  e->layout.data_size = e->written;
  uint8_t *header = xcalloc(1, e->reserved);
  avif_write_header(header, &e->layout, e->reserved);
  host_output_patch(0, header, (int)e->reserved);
  free(header);
  if (e->colour_open) aom_codec_destroy(&e->colour);
  if (e->alpha_open) aom_codec_destroy(&e->alpha);
  free(e->y);
  free(e->a);
  free(e->pair);
  free(e->neutral);
  free(e->opaque_cell);
  free(e->icc);
  free(e->colour_offsets);
  free(e);
}

encoder *avif_encoder_new(int width, int height, int channels, const encode_options *opt) {
  avif_encoder *e = xcalloc(1, sizeof(avif_encoder));
  e->base.sink.put = put_row;
  e->base.finish = finish;
  e->width = width;
  e->height = height;
  e->channels = channels;
  e->mono = channels <= 2;
  e->alpha_in = channels_have_alpha(channels);
  e->shift = opt->avif_yuv444 ? 0 : 1;
  e->options = opt;
  e->cell_w = opt->avif_cell_w;
  e->cell_h = opt->avif_cell_h;
  if (e->cell_w <= 0 || e->cell_h <= 0) host_fail(FAIL_INTERNAL, "avif: no cell size");
  e->columns = (width + e->cell_w - 1) / e->cell_w;
  e->rows = (height + e->cell_h - 1) / e->cell_h;
  int cells = e->columns * e->rows;
  /* MIAF: a grid's cells are at least 64x64, in even sizes when chroma is subsampled; at most 256 a side. */
  if (cells > 1 && (e->cell_w < 64 || e->cell_h < 64 || e->columns > 256 || e->rows > 256 ||
                    (e->shift && ((e->cell_w | e->cell_h) & 1))))
    host_fail(FAIL_INTERNAL, "avif: the cell size does not make a valid grid");
  if (cells == 1 && (e->cell_w != width || e->cell_h != height)) host_fail(FAIL_INTERNAL, "avif: one cell is the image");
  e->stripe_w = e->cell_w * e->columns;
  e->chroma_w = (e->cell_w + e->shift) >> e->shift;
  e->chroma_h = (e->cell_h + e->shift) >> e->shift;
  e->y = xmalloc((size_t)e->stripe_w * e->cell_h + (e->mono ? 0 : (size_t)e->chroma_w * e->columns * e->chroma_h * 2));
  if (!e->mono) {
    e->u = e->y + (size_t)e->stripe_w * e->cell_h;
    e->v = e->u + (size_t)e->chroma_w * e->columns * e->chroma_h;
    e->pair = xmalloc((size_t)width * 3 * 2);
  }
  if (e->alpha_in) e->a = xmalloc((size_t)e->stripe_w * e->cell_h);
  e->neutral = xmalloc((size_t)e->stripe_w * 2);
  memset(e->neutral, 128, (size_t)e->stripe_w);
  e->opaque = e->neutral + e->stripe_w;
  memset(e->opaque, 255, (size_t)e->stripe_w);
  e->colour_offsets = xcalloc((size_t)cells * 4, sizeof(uint32_t));
  e->colour_sizes = e->colour_offsets + cells;
  e->alpha_offsets = e->colour_sizes + cells;
  e->alpha_sizes = e->alpha_offsets + cells;
  int icc_size = host_profile_size();
  if (icc_size > 0) {
    e->icc = xmalloc((size_t)icc_size);
    host_profile_read(e->icc);
  }
  e->layout = (avif_layout){.width = width, .height = height, .cell_w = e->cell_w, .cell_h = e->cell_h,
                            .columns = e->columns, .rows = e->rows, .mono = e->mono, .alpha = e->alpha_in,
                            .icc = e->icc, .icc_size = (size_t)(icc_size > 0 ? icc_size : 0),
                            .colour_offsets = e->colour_offsets, .colour_sizes = e->colour_sizes,
                            .alpha_offsets = e->alpha_offsets, .alpha_sizes = e->alpha_sizes};
  /* The header's room: its size with an alpha item if the rows have alpha (fixed-width fields). */
  e->reserved = avif_write_header(NULL, &e->layout, 0);
  uint8_t zeros[256] = {0};
  for (size_t left = e->reserved; left > 0;) {
    int n = left < sizeof zeros ? (int)left : (int)sizeof zeros;
    host_output_write(zeros, n);
    left -= (size_t)n;
  }
  return &e->base;
}
