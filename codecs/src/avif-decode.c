/* AVIF input: the AV1 images of an AVIF, decoded by libaom's decoder and turned into 8-bit rows.
 *
 * The container is walked in TypeScript (src/image/header/), which hands the engine only the AV1 data, in
 * this framing (src/image/wasm/avif-input.ts writes it; every field a little-endian uint32):
 *
 *   columns, rows          the grid's cells (1 x 1 for a single image), at most 256 each
 *   cell_w, cell_h         the size of every cell (the image's own for a single image), as its ispe says
 *   has_alpha              1 when every cell has an alpha cell (the auxiliary image's, same layout)
 *   matrix, full_range     colr nclx's matrix_coefficients and full_range_flag, or 0xffffffff: the sequence header's
 *   then, for each cell in raster order: colour_length, alpha_length (0 without alpha)
 *   then, for each cell in raster order: its colour AV1 data (OBUs), then its alpha AV1 data
 *
 * The image is the stored size the header said (a grid's output size, which crops the last cells). Each
 * cell is decoded whole (libaom holds the frame), then converted: YUV to RGB with the matrix and range, the
 * chroma upsampled with the 3:1 weights of a centred sample, 10 and 12 bits rounded to 8 (no dithering),
 * alpha from the alpha cell. A single image, or a grid one cell wide, goes to the sink row by row from the
 * decoded frames; a wider grid fills a stripe one cell tall and the image's width first. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aom/aom_decoder.h"
#include "aom/aomdx.h"
#include "aom-error.h"
#include "decode.h"
#include "host.h"
#include "progress.h"

#define MAX_GRID_SIDE 256
#define UNSPECIFIED 0xffffffffu

/* libaom reads a coding block's mode info once per block as it parses the frame: the pixels it covers
 * are the decode's work, reported (and yielded in) as they add up, the linker sending its calls here. */
struct AV1Decoder;
struct DecoderCodingBlock;
struct aom_reader;
#define REPORT_PIXELS 16384
static long unreported;

static void report_decoded(void) {
  if (unreported) report_progress(PROGRESS_FRAME_DECODED, unreported);
  unreported = 0;
}

void __real_av1_read_mode_info(struct AV1Decoder *pbi, struct DecoderCodingBlock *dcb, struct aom_reader *r, int x_mis, int y_mis);
void __wrap_av1_read_mode_info(struct AV1Decoder *pbi, struct DecoderCodingBlock *dcb, struct aom_reader *r, int x_mis, int y_mis) {
  __real_av1_read_mode_info(pbi, dcb, r, x_mis, y_mis);
  unreported += 16L * x_mis * y_mis;
  if (unreported >= REPORT_PIXELS) report_decoded();
}

static uint32_t read_u32(void) {
  uint8_t b[4];
  for (int done = 0; done < 4;) {
    int n = input_read(b + done, 4 - done);
    if (n <= 0) host_fail(FAIL_UNSUPPORTED, "the AVIF data ended early");
    done += n;
  }
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint8_t *read_bytes(uint32_t length) {
  uint8_t *data = xmalloc(length ? length : 1);
  for (uint32_t done = 0; done < length;) {
    int n = input_read(data + done, (int)(length - done));
    if (n <= 0) host_fail(FAIL_UNSUPPORTED, "the AVIF data ended early");
    done += (uint32_t)n;
  }
  return data;
}

typedef struct {
  aom_codec_ctx_t codec;
  int open;
  uint8_t *data;
} av1_decoder;

/* Decodes one AV1 image of cell_w x cell_h: its sequence header is checked before libaom allocates a frame. */
static const aom_image_t *decode_cell(av1_decoder *d, uint32_t length, int cell_w, int cell_h) {
  free(d->data);
  d->data = read_bytes(length);
  aom_codec_iface_t *iface = aom_codec_av1_dx();
  aom_codec_stream_info_t info = {0};
  if (aom_codec_peek_stream_info(iface, d->data, length, &info) != AOM_CODEC_OK)
    host_fail(FAIL_UNSUPPORTED, "the AV1 data has no valid sequence header");
  if ((int)info.w != cell_w || (int)info.h != cell_h) host_fail(FAIL_UNSUPPORTED, "the AV1 image's size does not match its header");
  aom_errors_blame_data(1);
  if (!d->open) {
    aom_codec_dec_cfg_t cfg = {.threads = 1, .allow_lowbitdepth = 1};
    aom_codec_err_t err = aom_codec_dec_init(&d->codec, iface, &cfg, 0);
    if (err != AOM_CODEC_OK) host_fail(err == AOM_CODEC_MEM_ERROR ? FAIL_MEMORY : FAIL_INTERNAL, "the AV1 decoder failed to start");
    d->open = 1;
  }
  aom_codec_err_t err = aom_codec_decode(&d->codec, d->data, length, NULL);
  report_decoded();
  if (err != AOM_CODEC_OK) host_fail(err == AOM_CODEC_MEM_ERROR ? FAIL_MEMORY : FAIL_UNSUPPORTED, "the AV1 data is corrupt");
  aom_codec_iter_t iter = NULL;
  const aom_image_t *img = aom_codec_get_frame(&d->codec, &iter);
  aom_errors_blame_data(0);
  if (!img) host_fail(FAIL_UNSUPPORTED, "the AV1 data holds no image");
  if ((int)img->d_w != cell_w || (int)img->d_h != cell_h) host_fail(FAIL_UNSUPPORTED, "the AV1 frame's size does not match its header");
  return img;
}

static void close_decoder(av1_decoder *d) {
  if (d->open) aom_codec_destroy(&d->codec);
  free(d->data);
}

/* One row of a plane as 16-bit samples. */
static void load_row(const aom_image_t *img, int plane, int y, int width, uint16_t *dst) {
  const uint8_t *src = img->planes[plane] + (size_t)y * img->stride[plane];
  if (img->fmt & AOM_IMG_FMT_HIGHBITDEPTH) {
    memcpy(dst, src, (size_t)width * 2);
  } else {
    for (int x = 0; x < width; x++) dst[x] = src[x];
  }
}

typedef struct {
  float kr, kb;   /* luma weights of red and blue */
  int identity;   /* matrix 0: the planes are G, B, R */
  int full;       /* full range */
  int depth;
  int mono, xs, ys;  /* monochrome; the chroma's shifts */
  int channels;   /* of the rows: 1 or 3, and alpha */
  uint16_t *luma, *chroma[2][2], *alpha; /* one row; the two chroma rows of each plane nearest it */
  float *cb, *cr; /* chroma upsampled to the row's width, centred on 0 */
} converter;

/* KR and KB of the matrices of ITU-T H.273 that have them; any other (unspecified, reserved, chroma-derived)
 * is taken as BT.601, as libavif takes an unspecified one. */
static void set_matrix(converter *c, uint32_t mc) {
  switch (mc) {
    case 0: c->identity = 1; break;
    case 1: c->kr = 0.2126f, c->kb = 0.0722f; break;
    case 4: c->kr = 0.30f, c->kb = 0.11f; break;
    case 7: c->kr = 0.212f, c->kb = 0.087f; break;
    case 9:
    case 10: c->kr = 0.2627f, c->kb = 0.0593f; break;
    default: c->kr = 0.299f, c->kb = 0.114f;
  }
}

/* A sample scaled to 0..1 of its range (luma, or a plane of the identity matrix), or chroma centred on 0. */
static inline float unit(const converter *c, float v) {
  float max = (float)((1 << c->depth) - 1);
  if (c->full) return v / max;
  float scale = (float)(1 << (c->depth - 8));
  return (v - 16 * scale) / (219 * scale);
}

static inline float chroma_unit(const converter *c, float v) {
  float scale = (float)(1 << (c->depth - 8));
  if (c->full) return (v - 128 * scale) / ((float)((1 << c->depth) - 1));
  return (v - 128 * scale) / (224 * scale);
}

static inline uint8_t to8(float v) {
  v = v * 255.0f + 0.5f;
  return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
}

/* Chroma at row y of the output: each plane's nearest row weighted 3, the next nearest 1 (a centred sample),
 * then the same across (4:2:0; 4:2:2 across only); 4:4:4 is taken as it is. */
static void upsample_chroma(converter *c, const aom_image_t *img, int y, int width) {
  int cw = ((int)img->d_w + c->xs) >> c->xs, ch = ((int)img->d_h + c->ys) >> c->ys;
  int near = y >> c->ys, far = near;
  if (c->ys) far = y & 1 ? (near + 1 < ch ? near + 1 : near) : (near > 0 ? near - 1 : 0);
  for (int p = 0; p < 2; p++) {
    load_row(img, 1 + p, near, cw, c->chroma[p][0]);
    load_row(img, 1 + p, far, cw, c->chroma[p][1]);
    float *out = p ? c->cr : c->cb;
    const uint16_t *a = c->chroma[p][0], *b = c->chroma[p][1];
    for (int x = 0; x < width; x++) {
      float v;
      if (!c->xs) {
        v = a[x];
      } else {
        int n = x >> 1, f = x & 1 ? (n + 1 < cw ? n + 1 : n) : (n > 0 ? n - 1 : 0);
        float vn = c->ys ? 3.0f * a[n] + b[n] : 4.0f * a[n], vf = c->ys ? 3.0f * a[f] + b[f] : 4.0f * a[f];
        v = (3 * vn + vf) / 16;
      }
      out[x] = c->identity ? unit(c, v) : chroma_unit(c, v);
    }
  }
}

/* Row y of a cell, `width` pixels from its left, as 8-bit samples of the rows' channels. */
static void convert_row(converter *c, const aom_image_t *img, const aom_image_t *alpha, int y, int width, uint8_t *out) {
  load_row(img, 0, y, width, c->luma);
  if (!c->mono) upsample_chroma(c, img, y, width);
  int a_full = alpha && alpha->range == AOM_CR_FULL_RANGE, a_depth = alpha ? (int)alpha->bit_depth : 8;
  if (alpha) load_row(alpha, 0, y, width, c->alpha);
  float kg = 1 - c->kr - c->kb;
  for (int x = 0; x < width; x++) {
    float l = unit(c, c->luma[x]);
    if (c->mono) {
      *out++ = to8(l);
    } else if (c->identity) {
      *out++ = to8(c->cr[x]), *out++ = to8(l), *out++ = to8(c->cb[x]);
    } else {
      float r = l + (2 - 2 * c->kr) * c->cr[x], b = l + (2 - 2 * c->kb) * c->cb[x];
      *out++ = to8(r), *out++ = to8((l - c->kr * r - c->kb * b) / kg), *out++ = to8(b);
    }
    if (alpha) {
      float a = c->alpha[x], max = (float)((1 << a_depth) - 1), scale = (float)(1 << (a_depth - 8));
      *out++ = to8(a_full ? a / max : (a - 16 * scale) / (219 * scale));
    }
  }
}

static void *row_buffer(int width, size_t size) { return xmalloc((size_t)(width + 2) * size); }

/* The converter for cells like `img`: the matrix and range from colr nclx when given, else its sequence header's. */
static void converter_init(converter *c, const aom_image_t *img, int has_alpha, uint32_t matrix, uint32_t full_range, int cell_w) {
  memset(c, 0, sizeof *c);
  set_matrix(c, matrix != UNSPECIFIED ? matrix : (uint32_t)img->mc);
  c->full = full_range != UNSPECIFIED ? !!full_range : img->range == AOM_CR_FULL_RANGE;
  c->depth = (int)img->bit_depth;
  c->mono = img->monochrome;
  c->xs = (int)img->x_chroma_shift, c->ys = (int)img->y_chroma_shift;
  if (c->identity && (c->xs || c->ys)) host_fail(FAIL_UNSUPPORTED, "an identity matrix needs 4:4:4 AV1 data");
  c->channels = (c->mono ? 1 : 3) + has_alpha;
  c->luma = row_buffer(cell_w, 2);
  c->alpha = row_buffer(cell_w, 2);
  for (int p = 0; p < 2; p++)
    for (int r = 0; r < 2; r++) c->chroma[p][r] = row_buffer(cell_w, 2);
  c->cb = row_buffer(cell_w, sizeof(float));
  c->cr = row_buffer(cell_w, sizeof(float));
}

/* The same layout as the first cell's: a grid's cells must agree. */
static void check_like(const converter *c, const aom_image_t *img) {
  if ((int)img->bit_depth != c->depth || img->monochrome != c->mono || (int)img->x_chroma_shift != c->xs || (int)img->y_chroma_shift != c->ys)
    host_fail(FAIL_UNSUPPORTED, "the AVIF grid's cells differ in format");
}

static void converter_free(converter *c) {
  free(c->luma), free(c->alpha), free(c->cb), free(c->cr);
  for (int p = 0; p < 2; p++)
    for (int r = 0; r < 2; r++) free(c->chroma[p][r]);
}

void avif_decode(decode_target *target) {
  uint32_t columns = read_u32(), rows = read_u32(), cell_w = read_u32(), cell_h = read_u32(), has_alpha = read_u32();
  uint32_t matrix = read_u32(), full_range = read_u32();
  if (!columns || !rows || columns > MAX_GRID_SIDE || rows > MAX_GRID_SIDE || has_alpha > 1 || !cell_w || !cell_h || cell_w > 65536 ||
      cell_h > 65536)
    host_fail(FAIL_UNSUPPORTED, "the AVIF layout is invalid");
  int64_t width = target->header_w, height = target->header_h;
  /* The grid covers the image and no cell lies wholly past it (ISO/IEC 23008-12, 6.6.2.3). */
  if ((int64_t)columns * cell_w < width || (int64_t)rows * cell_h < height || (int64_t)(columns - 1) * cell_w >= width ||
      (int64_t)(rows - 1) * cell_h >= height)
    host_fail(FAIL_UNSUPPORTED, "the AVIF grid does not match the image's size");
  decode_check_size(target, (long)width, (long)height);
  size_t cells = (size_t)columns * rows;
  uint32_t *lengths = xmalloc(cells * 2 * sizeof(uint32_t));
  uint64_t total = 28 + cells * 8;
  for (size_t i = 0; i < cells * 2; i++) total += lengths[i] = read_u32();
  if (total != (uint64_t)host_input_size()) host_fail(FAIL_UNSUPPORTED, "the AVIF data's lengths do not add up");
  for (size_t i = 0; i < cells; i++)
    if (!lengths[2 * i] || !lengths[2 * i + 1] != !has_alpha) host_fail(FAIL_UNSUPPORTED, "an AVIF cell has no data");

  av1_decoder colour = {0}, alpha = {0};
  converter c;
  row_sink *sink = NULL;
  uint8_t *stripe = NULL;
  size_t stride = 0;
  for (uint32_t r = 0; r < rows; r++) {
    int shown_h = (int)(r + 1 < rows ? cell_h : (int)(height - (int64_t)r * cell_h));
    for (uint32_t col = 0; col < columns; col++) {
      size_t i = (size_t)r * columns + col;
      const aom_image_t *img = decode_cell(&colour, lengths[2 * i], (int)cell_w, (int)cell_h);
      const aom_image_t *a = has_alpha ? decode_cell(&alpha, lengths[2 * i + 1], (int)cell_w, (int)cell_h) : NULL;
      if (!sink) {
        converter_init(&c, img, (int)has_alpha, matrix, full_range, (int)cell_w);
        sink = target->begin(target, (int)width, (int)height, c.channels);
        stride = (size_t)width * c.channels;
        stripe = xmalloc(columns > 1 ? stride * cell_h : stride);
      }
      check_like(&c, img);
      int shown_w = (int)(col + 1 < columns ? cell_w : (int)(width - (int64_t)col * cell_w));
      for (int y = 0; y < shown_h; y++) {
        uint8_t *out = columns > 1 ? stripe + stride * y + (size_t)col * cell_w * c.channels : stripe;
        convert_row(&c, img, a, y, shown_w, out);
        if (columns == 1) sink->put(sink, stripe);
      }
    }
    if (columns > 1)
      for (int y = 0; y < shown_h; y++) sink->put(sink, stripe + stride * y);
  }
  free(stripe);
  free(lengths);
  converter_free(&c);
  close_decoder(&colour);
  close_decoder(&alpha);
}
