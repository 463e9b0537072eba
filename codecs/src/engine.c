/* The module's one entry point: decode rows -> resample rows -> encode rows. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "attention.h"
#include "encode.h"
#include "frame.h"
#include "host.h"
#include "jpeg-recode.h"
#include "orient.h"
#include "progress.h"
#include "quantize.h"
#include "resample.h"
#include "spng.h"
#include "webp-simd.h"
#include "zlib.h"

#define EXPORT(name) __attribute__((export_name(name)))

/* Must match src/image/wasm/abi.ts. */
/* AVIF input: avif-decode.c's framing. GIF: input only (no GIF encoder: decisions.md, "Inputs phones and web sites produce"). */
/* RAW: output only, 8-bit RGB rows (raw-encode.c), never an answer's format. */
enum format { FORMAT_JPEG = 0, FORMAT_PNG = 1, FORMAT_WEBP = 2, FORMAT_AVIF = 3, FORMAT_GIF = 4, FORMAT_RAW = 5 };
enum flags {
  FLAG_PROGRESSIVE = 1, /* JPEG output: jpegli's progressive scans */
  FLAG_MITCHELL = 2,    /* resample with Mitchell instead of Lanczos3 */
  FLAG_OWN_WEBP_ALPHA = 4, /* WebP output: our alpha encoder, for images too big for libwebp's */
  FLAG_LIBJPEG_TURBO = 8,  /* JPEG output: libjpeg-turbo baseline instead of jpegli */
  FLAG_WEBP_LOW_MEMORY = 16, /* WebP output: libwebp's low_memory mode */
  FLAG_JPEG_OPTIMIZE = 32,   /* JPEG output: jpegli sequential with optimised Huffman tables */
  FLAG_JPEG_ADAPTIVE_QUANTIZATION = 64, /* JPEG output: jpegli's adaptive quantisation */
  FLAG_JPEG_RECODE = 128, /* JPEG to JPEG on the source's coefficients (jpeg-recode.c), same size */
  FLAG_JPEG_ALIGN = 4096, /* bit 12, after the orientation: JPEG to JPEG, same size, jpegli's steps on the source's grid */
  FLAG_JPEG_DC_LEVELS = 8192, /* JPEG to JPEG, same size: a DC step of 7 becomes 8 (jpeg-encode.c, dc_on_levels) */
  FLAG_JPEG_DC_LEVELS_SMOOTH = 16384, /* with FLAG_JPEG_DC_LEVELS, from a smooth source: 5 and 6 as well, and the
                                       * chroma's 8 over a source's DC step of 7 */
  FLAG_JPEG_DC_LEVELS_FLAT = 32768, /* with FLAG_JPEG_DC_LEVELS_SMOOTH, from a flat source: the luma's as well */
  FLAG_ATTEND = 65536, /* gravity=auto in the job's own decode: geometry's window placed where the subject is (attend_in_job) */
  FLAG_ANIMATED = 131072 /* a GIF's every frame into an animated WebP (anim_options says how many and the loop count) */
};
/* Bits 8 to 11 of flags: the EXIF orientation (1 to 8) to apply; 0 means 1. */
#define ORIENTATION_SHIFT 8

/* Reports rows as work of its kind (progress.h) and passes them on: a decoded row once the
 * decoder has made it, an encoded one once the encoder has taken it. */
typedef struct {
  row_sink sink;
  row_sink *next;
  int kind, width;
} counting_sink;

static void put_counted(row_sink *self, const uint8_t *row) {
  counting_sink *c = (counting_sink *)self;
  if (c->kind == PROGRESS_DECODED) report_progress(c->kind, c->width);
  c->next->put(c->next, row);
  if (c->kind != PROGRESS_DECODED) report_progress(c->kind, c->width);
}

static row_sink *counted(counting_sink *c, int kind, int width, row_sink *next) {
  *c = (counting_sink){.sink = {.put = put_counted}, .next = next, .kind = kind, .width = width};
  return &c->sink;
}

typedef struct {
  decode_target base;
  int out_format, flags;
  encode_options options;
  png_stats *stats;   /* filled on the analysis pass of PNG output */
  const png_stats *stats_for_png; /* what that pass found, for the encoder */
  const png_params *png_params; /* deflate settings chosen by trials, or NULL */
  long *png_count;    /* a trial pass: the PNG encoder only counts its bytes here */
  row_sink *stats_sink;
  encoder *encoder;
  resampler *resampler;
  cropper *cropper;
  padder *padder;
  int orientation;
  orienter *orienter;
  uint32_t pad_colour; /* the background, over white for JPEG */
  quantizer *quantizer; /* lossy PNG: set on the stats pass, used on the write pass if chosen */
  /* Small PNG output: the decoded, resampled rows (as stored, before orientation), kept
   * after the first decode so the stats, trial and write passes replay them instead of
   * decoding the whole input again. */
  uint8_t *frame;
  int frame_channels, buffering;
  row_sink frame_sink;
  int frame_rows;
  int replaying; /* the rows come from the frame, not a decoder: no decoding work */
  counting_sink decoded, encoded;
  /* gravity=auto in the job (FLAG_ATTEND): the whole image as decoded at the window's scale, kept while the
   * attention scores it, then every pass cuts the window from it instead of decoding again. */
  int in_format, keeping;
  attention *attention;
  uint8_t *kept;
  int kept_w, kept_h, kept_channels, kept_rows;
  row_sink kept_sink;
} job;

void decode_check_size(const decode_target *target, long width, long height) {
  if (width != target->header_w || height != target->header_h)
    host_fail(FAIL_UNSUPPORTED, "the image data does not match its header");
}

void decode_scaled_span(int start, int length, unsigned int m, unsigned int size, unsigned int *first, unsigned int *end) {
  *first = (unsigned int)(((long)start * m) / 8);
  unsigned int last = (unsigned int)(((long)(start + length) * m + 7) / 8);
  *end = last < size ? last : size;
}

static void put_frame_row(row_sink *self, const uint8_t *row) {
  job *j = (job *)((char *)self - offsetof(job, frame_sink));
  size_t stride = (size_t)j->base.want_w * j->frame_channels;
  if (j->frame_rows >= j->base.want_h) host_fail(FAIL_INTERNAL, "more rows than the frame");
  memcpy(j->frame + stride * j->frame_rows++, row, stride);
}

/* The job's geometry (src/image/wasm/wasm-engine.ts sets it before each transcode): the window
 * is decode_target's; the scaled window is placed at (x, y) in a canvas of canvas_w x canvas_h, as
 * displayed, filled with the background (0xRRGGBBAA; for JPEG, which has no alpha, over white). */
static struct {
  int left, top, width, height, canvas_w, canvas_h, x, y;
  uint32_t background;
} geometry;

/* The window's left and top as the last transcode took it: gravity=auto's (FLAG_ATTEND) placed by the attention. */
EXPORT("window_left")
int window_left(void) { return geometry.left; }
EXPORT("window_top")
int window_top(void) { return geometry.top; }

EXPORT("geometry")
void set_geometry(int left, int top, int width, int height, int canvas_w, int canvas_h, int x, int y, uint32_t background) {
  geometry.left = left, geometry.top = top, geometry.width = width, geometry.height = height;
  geometry.canvas_w = canvas_w, geometry.canvas_h = canvas_h, geometry.x = x, geometry.y = y;
  geometry.background = background;
}

/* Pads rows of out_w x out_h to the canvas; rows as stored (before orientation) when `stored`. */
static row_sink *pad(job *j, int out_w, int out_h, int channels, int stored, row_sink *next) {
  int canvas_w = geometry.canvas_w, canvas_h = geometry.canvas_h, x = geometry.x, y = geometry.y;
  if (stored && orientation_swaps_axes(j->orientation)) canvas_w = geometry.canvas_h, canvas_h = geometry.canvas_w, x = geometry.y, y = geometry.x;
  j->padder = padder_new(out_w, out_h, channels, canvas_w, canvas_h, x, y, j->pad_colour, next);
  return padder_sink(j->padder);
}

/* The window as the rows the decoder hands over show it, at its DCT scale. */
static row_sink *cut(job *j, int width, int height, int channels, row_sink *next) {
  const decode_target *t = &j->base;
  double scale = t->decoded_eighths / 8.0;
  resample_window w = {t->window_left * scale - t->delivered_x, t->window_top * scale - t->delivered_y, t->window_w * scale, t->window_h * scale};
  int out_w = t->want_w, out_h = t->want_h;
  int whole = w.left == 0 && w.top == 0 && w.width == width && w.height == height;
  if (t->decoded_eighths == 8 && w.width == out_w && w.height == out_h) {
    if (whole) return next;
    j->cropper = cropper_new((int)w.left, (int)w.top, out_h, channels, next);
    return cropper_sink(j->cropper);
  }
  enum resample_filter filter = j->flags & FLAG_MITCHELL ? FILTER_MITCHELL : FILTER_LANCZOS3;
  j->resampler = resampler_new(width, height, w, out_w, out_h, channels, filter, next);
  return resampler_sink(j->resampler);
}

static void put_kept_row(row_sink *self, const uint8_t *row) {
  job *j = (job *)((char *)self - offsetof(job, kept_sink));
  size_t stride = (size_t)j->kept_w * j->kept_channels;
  if (j->kept_rows >= j->kept_h) host_fail(FAIL_INTERNAL, "more rows than the image");
  memcpy(j->kept + stride * j->kept_rows++, row, stride);
  row_sink *scored = attention_sink(j->attention);
  scored->put(scored, row);
}

/* The keeping pass's sink: the decoded image kept, and scored as the attention job's own decode would have
 * made it (a JPEG at 1/8: boxes of the DCT scale's eighths; the others as decoded). */
static row_sink *keep(job *j, int width, int height, int channels) {
  j->kept_w = width, j->kept_h = height, j->kept_channels = channels;
  j->kept = xmalloc((size_t)width * height * channels);
  j->attention = attention_new(width, height, channels, j->in_format == FORMAT_JPEG ? j->base.decoded_eighths : 1);
  j->kept_sink.put = put_kept_row;
  return counted(&j->decoded, PROGRESS_DECODED, width, &j->kept_sink);
}

static row_sink *begin(decode_target *target, int width, int height, int channels) {
  job *j = (job *)target;
  if (j->keeping) return keep(j, width, height, channels);
  /* want_w x want_h is the scaled window as stored; the encoder gets the canvas as displayed. */
  int out_w = target->want_w, out_h = target->want_h;
  int swap = orientation_swaps_axes(j->orientation);
  int padded = geometry.canvas_w != (swap ? out_h : out_w) || geometry.canvas_h != (swap ? out_w : out_h);
  int out_channels = padded ? padded_channels(channels, j->pad_colour) : channels;
  row_sink *sink;
  if (j->buffering) {
    j->frame_channels = channels;
    j->frame = xmalloc((size_t)out_w * out_h * channels);
    j->frame_sink.put = put_frame_row;
    sink = &j->frame_sink;
  } else if (j->stats) {
    /* The stats pass only counts colours, which neither orientation nor placement changes. */
    int canvas_w = swap ? geometry.canvas_h : geometry.canvas_w;
    sink = j->stats_sink = png_stats_sink(j->stats, canvas_w, out_channels);
    if (j->quantizer) sink = quantizer_histogram_sink(j->quantizer, canvas_w, out_channels, sink);
    if (padded) sink = pad(j, out_w, out_h, channels, 1, sink);
  } else {
    int shown_w = geometry.canvas_w, shown_h = geometry.canvas_h;
    switch (j->out_format) {
      case FORMAT_JPEG:
        if (j->flags & FLAG_JPEG_ALIGN && target->source_steps_known) {
          j->options.align_luma = target->source_steps[0];
          if (target->source_chroma_420) j->options.align_chroma = target->source_steps[1];
        }
        if (j->flags & FLAG_JPEG_DC_LEVELS) {
          j->options.dc_on_levels = j->flags & FLAG_JPEG_DC_LEVELS_SMOOTH ? 5 : 7;
          j->options.dc_over_seven = (j->flags & FLAG_JPEG_DC_LEVELS_SMOOTH ? 2 : 0) | (j->flags & FLAG_JPEG_DC_LEVELS_FLAT ? 1 : 0);
        }
        j->encoder = (j->flags & FLAG_LIBJPEG_TURBO ? jpeg_encoder_new : jpegli_encoder_new)(shown_w, shown_h, out_channels, &j->options);
        break;
      case FORMAT_WEBP:
        if (!target->frame_done) j->encoder = webp_encoder_new(shown_w, shown_h, out_channels, &j->options);
        else if (!j->encoder) j->encoder = webp_anim_encoder_new(shown_w, shown_h, out_channels, &j->options);
        break;
      case FORMAT_AVIF: j->encoder = avif_encoder_new(shown_w, shown_h, out_channels, &j->options); break;
      case FORMAT_RAW: j->encoder = raw_encoder_new(shown_w, shown_h, out_channels); break;
      default:
        j->encoder = png_encoder_new(shown_w, shown_h, j->quantizer ? 4 : out_channels, j->stats_for_png, j->png_params, j->png_count);
    }
    /* zlib's Huffman-only and RLE strategies cost about a quarter of a level-9 pass. */
    int fast = j->png_params && (j->png_params->strategy == Z_HUFFMAN_ONLY || j->png_params->strategy == Z_RLE);
    sink = counted(&j->encoded, PROGRESS_ENCODED, fast ? (shown_w + 3) / 4 : shown_w, &j->encoder->sink);
    if (j->quantizer) sink = quantizer_dither_sink(j->quantizer, shown_w, out_channels, sink);
    /* Margins row by row as displayed, after the orienter. */
    if (padded) sink = pad(j, swap ? out_h : out_w, swap ? out_w : out_h, channels, 0, sink);
    /* After the resampler, so a frame buffered to rotate is at output size. */
    if (j->orientation > 1) {
      j->orienter = orienter_new(j->orientation, out_w, out_h, channels, sink);
      sink = orienter_sink(j->orienter);
    }
  }
  if (j->replaying) return sink;
  return counted(&j->decoded, PROGRESS_DECODED, width, cut(j, width, height, channels, sink));
}

/* Sends the buffered frame through the pass's sinks, as a decoder would at output size. */
static void replay(job *j) {
  int w = j->base.want_w, h = j->base.want_h;
  j->replaying = 1;
  row_sink *sink = begin(&j->base, w, h, j->frame_channels);
  j->replaying = 0;
  for (int y = 0; y < h; y++) sink->put(sink, j->frame + (size_t)y * w * j->frame_channels);
}

/* Sends the window's rows and columns of the kept image through the pass's sinks, as a decoder cut to the window hands them. */
static void replay_window(job *j) {
  decode_target *t = &j->base;
  unsigned int m = (unsigned int)t->decoded_eighths, x, x_end, y, y_end;
  decode_scaled_span(t->window_left, t->window_w, m, (unsigned int)j->kept_w, &x, &x_end);
  decode_scaled_span(t->window_top, t->window_h, m, (unsigned int)j->kept_h, &y, &y_end);
  t->delivered_x = (int)x, t->delivered_y = (int)y;
  row_sink *sink = begin(t, (int)(x_end - x), (int)(y_end - y), j->kept_channels);
  size_t stride = (size_t)j->kept_w * j->kept_channels;
  for (unsigned int row = y; row < y_end; row++) sink->put(sink, j->kept + stride * row + x * j->kept_channels);
}

/* The row stages a pass (or an animation's frame) set up in `begin`. */
static void free_stages(job *j) {
  resampler_free(j->resampler);
  j->resampler = NULL;
  cropper_free(j->cropper);
  j->cropper = NULL;
  padder_free(j->padder);
  j->padder = NULL;
  orienter_free(j->orienter);
  j->orienter = NULL;
}

/* An animation's frame is through the stages: the next one sets them up again. */
static void frame_done(decode_target *target, int duration_ms) {
  job *j = (job *)target;
  free_stages(j);
  webp_anim_frame(j->encoder, duration_ms);
}

/* One pass over the image: decoded from the input, or replayed from the buffered frame or the kept image. */
static void run(job *j, int in_format) {
  if (j->frame && !j->buffering) {
    replay(j);
  } else if (j->kept) {
    replay_window(j);
  } else {
    host_input_rewind();
    j->base.decoded_eighths = 8;
    j->base.delivered_x = j->base.delivered_y = 0;
    switch (in_format) {
      case FORMAT_JPEG: jpeg_decode(&j->base); break;
      case FORMAT_PNG: png_decode(&j->base); break;
      case FORMAT_WEBP: webp_decode(&j->base); break;
      case FORMAT_AVIF: avif_decode(&j->base); break;
      case FORMAT_GIF: gif_decode(&j->base); break;
      default: host_fail(FAIL_INTERNAL, "unknown input format");
    }
  }
  free_stages(j);
}

/* gravity=auto: the image decoded as small as its decoder can (a JPEG at 1/8) into the attention sink. */
typedef struct {
  decode_target base;
  attention *attention;
  counting_sink decoded;
} attention_job;

static row_sink *begin_attention(decode_target *target, int width, int height, int channels) {
  attention_job *j = (attention_job *)target;
  j->attention = attention_new(width, height, channels, 1);
  return counted(&j->decoded, PROGRESS_DECODED, width, attention_sink(j->attention));
}

/* Where a window of win_w x win_h of the stored image (in_w x in_h, as the header said) is best
 * placed for gravity=auto: its left and top, written as the output (two little-endian int32). */
EXPORT("attend")
void attend(int in_format, int in_w, int in_h, int win_w, int win_h) {
  attention_job j = {.base = {.begin = begin_attention, .want_w = 1, .want_h = 1, .header_w = in_w, .header_h = in_h,
                              .window_w = in_w, .window_h = in_h, .decoded_eighths = 8}};
  host_input_rewind();
  switch (in_format) {
    case FORMAT_JPEG: jpeg_decode(&j.base); break;
    case FORMAT_PNG: png_decode(&j.base); break;
    case FORMAT_WEBP: webp_decode(&j.base); break;
    case FORMAT_AVIF: avif_decode(&j.base); break;
    case FORMAT_GIF: gif_decode(&j.base); break;
    default: host_fail(FAIL_INTERNAL, "unknown input format");
  }
  int32_t place[2];
  attention_place(j.attention, in_w, in_h, win_w, win_h, &place[0], &place[1]);
  attention_free(j.attention);
  host_output_write((const uint8_t *)place, sizeof place);
}

/* Up to this many output pixels, lossless PNG counts the bytes of each zlib strategy
 * (default, filtered, Huffman-only, RLE: optipng -o2's search; each wins on some image of
 * the corpus) and writes the smallest. The input is decoded once into a frame at output
 * size (at most 4 MiB) and each trial deflates that frame again into a counter, at 1 to 4 s
 * per MP in all (bench: about optipng -o2's own time), whatever the input's size; above
 * this, one pass with the usual params. Trials without filters never won there. */
#define PNG_TRIAL_PIXELS 1000000L

static void choose_png_params(job *j, int in_format, png_params *best) {
  static const int strategies[] = {Z_FILTERED, Z_DEFAULT_STRATEGY, Z_HUFFMAN_ONLY, Z_RLE};
  int filter = png_default_filter(j->stats_for_png);
  long best_size = -1;
  for (size_t i = 0; i < sizeof strategies / sizeof *strategies; i++) {
    png_params params = {.strategy = strategies[i], .filter_choice = filter};
    long size = 0;
    j->png_params = &params;
    j->png_count = &size;
    run(j, in_format);
    j->encoder->finish(j->encoder);
    if (best_size < 0 || size < best_size) best_size = size, *best = params;
  }
  j->png_params = best;
  j->png_count = NULL;
}

/* Bytes of one PNG encoding of the job, counted rather than written. */
static long count_png(job *j, int in_format) {
  long size = 0;
  j->png_count = &size;
  run(j, in_format);
  j->encoder->finish(j->encoder);
  j->png_count = NULL;
  return size;
}

/* A dithered palette is not always smaller than the exact image: smooth gradients compress
 * better losslessly. Up to PNG_TRIAL_PIXELS both are first counted with zlib's fast
 * run-length strategy; when the lossless image is far the larger there (a photo: several
 * times the palette's), level 9 would not turn it round, and the palette is written. Else
 * both are counted as they would be written, and the lossless image kept when it is no
 * larger (its zlib strategy then chosen as for any lossless PNG). */
#define LOSSLESS_HOPELESS 1.25

/* Bytes of the job's PNG with zlib's run-length strategy: fast, for comparisons. */
static long count_png_fast(job *j, int in_format) {
  png_params rle = {.strategy = Z_RLE, .filter_choice = png_default_filter(j->stats_for_png)};
  j->png_params = &rle;
  long size = count_png(j, in_format);
  j->png_params = NULL;
  return size;
}

static void use_colours(job *j, quantizer *q, const png_stats *stats) {
  j->quantizer = q;
  j->stats_for_png = stats;
}

static void keep_lossless_if_smaller(job *j, int in_format, const png_stats *exact, png_params *params) {
  quantizer *q = j->quantizer;
  const png_stats *quantized = j->stats_for_png;
  long lossy_fast = count_png_fast(j, in_format);
  use_colours(j, NULL, exact);
  long lossless = count_png_fast(j, in_format) <= lossy_fast * LOSSLESS_HOPELESS ? count_png(j, in_format) : -1;
  use_colours(j, q, quantized);
  if (lossless >= 0 && lossless <= count_png(j, in_format)) {
    use_colours(j, NULL, exact);
    quantizer_free(q);
    choose_png_params(j, in_format, params);
  }
}

/* An animation's for the next transcode with FLAG_ANIMATED: the frames its header walk found, the output's loop count
 * (plays, 0 forever: src/image/wasm/wasm-engine.ts maps a GIF's onto it). */
static struct {
  int frames, loop_count;
} anim;

EXPORT("anim_options")
void anim_options(int frames, int loop_count) { anim.frames = frames, anim.loop_count = loop_count; }

/* AVIF output's settings for the next transcode (src/image/wasm/avif-plan.ts chooses them). */
static struct {
  int speed, tune, cell_w, cell_h, yuv444;
} avif;

EXPORT("avif_options")
void avif_options(int speed, int tune, int cell_w, int cell_h, int yuv444) {
  avif.speed = speed, avif.tune = tune, avif.cell_w = cell_w, avif.cell_h = cell_h, avif.yuv444 = yuv444;
}

/* The background over white, opaque: what JPEG has for transparency. */
static uint32_t over_white(uint32_t rgba) {
  uint32_t a = rgba & 0xff, rgb = 0;
  for (int shift = 24; shift >= 8; shift -= 8) rgb |= ((((rgba >> shift) & 0xff) * a + 255 * (255 - a) + 127) / 255) << shift;
  return rgb | 0xff;
}

/* gravity=auto in the transcode: one pass decodes the whole image at the DCT scale geometry's window asks
 * for and keeps it (a 400x400 thumbnail of a 24 MP JPEG: 4 to 10 MB), the attention places the window on it,
 * and the job's passes cut the window from what was kept: the input is read once, not once to find the
 * subject and again to transcode (src/image/wasm/memory-model.ts chooses this where the kept image fits). */
static void attend_in_job(job *j, int in_w, int in_h) {
  j->keeping = j->base.deliver_whole = 1;
  run(j, j->in_format);
  j->keeping = j->base.deliver_whole = 0;
  attention_place(j->attention, in_w, in_h, geometry.width, geometry.height, &geometry.left, &geometry.top);
  attention_free(j->attention);
  j->attention = NULL;
  j->base.window_left = geometry.left, j->base.window_top = geometry.top;
}

/* out_w x out_h is the scaled window as displayed, after orientation (geometry's canvas holds
 * it); in_w x in_h the stored size the header said, which every decoder checks before
 * allocating a whole frame. */
EXPORT("transcode")
void transcode(int in_format, int out_format, int quality, int out_w, int out_h, int flags, int in_w, int in_h) {
  int orientation = (flags >> ORIENTATION_SHIFT) & 15;
  int swap = orientation_swaps_axes(orientation);
  job j = {.base = {.begin = begin, .want_w = swap ? out_h : out_w, .want_h = swap ? out_w : out_h, .header_w = in_w, .header_h = in_h,
                    .window_left = geometry.left, .window_top = geometry.top, .window_w = geometry.width, .window_h = geometry.height},
           .orientation = orientation,
           .pad_colour = out_format == FORMAT_JPEG ? over_white(geometry.background) : geometry.background,
           .out_format = out_format,
           .in_format = in_format,
           .flags = flags,
           .options = {.quality = quality,
                       .progressive = !!(flags & FLAG_PROGRESSIVE),
                       .jpeg_optimize_coding = !!(flags & FLAG_JPEG_OPTIMIZE),
                       .jpeg_adaptive_quantization = !!(flags & FLAG_JPEG_ADAPTIVE_QUANTIZATION),
                       .own_webp_alpha = !!(flags & FLAG_OWN_WEBP_ALPHA),
                       .webp_low_memory = !!(flags & FLAG_WEBP_LOW_MEMORY),
                       .anim_loop_count = anim.loop_count,
                       .avif_speed = avif.speed,
                       .avif_tune = avif.tune,
                       .avif_cell_w = avif.cell_w,
                       .avif_cell_h = avif.cell_h,
                       .avif_yuv444 = avif.yuv444}};
  if (flags & FLAG_JPEG_RECODE) {
    if (in_format != FORMAT_JPEG || out_format != FORMAT_JPEG || out_w != in_w || out_h != in_h || orientation > 1 ||
        geometry.width != in_w || geometry.height != in_h || geometry.canvas_w != in_w || geometry.canvas_h != in_h)
      host_fail(FAIL_INTERNAL, "a re-coding keeps the JPEG as it is stored");
    jpeg_recode(&j.base);
    return;
  }
  webp_use_simd();
  webp_count_every_picture(0);
  if (flags & FLAG_ANIMATED) {
    if (in_format != FORMAT_GIF || out_format != FORMAT_WEBP || orientation > 1 || (flags & FLAG_ATTEND))
      host_fail(FAIL_INTERNAL, "an animation is a GIF made an animated WebP");
    j.base.frame_done = frame_done;
    j.base.max_frames = anim.frames;
  }
  if (flags & FLAG_ATTEND) attend_in_job(&j, in_w, in_h);
  uint32_t matte = over_white(geometry.background);
  convert_set_matte((uint8_t)(matte >> 24), (uint8_t)(matte >> 16), (uint8_t)(matte >> 8));
  png_stats stats, exact;
  png_params params;
  if (out_format == FORMAT_PNG) {
    int trials = (long)out_w * out_h <= PNG_TRIAL_PIXELS;
    if (trials) {
      j.buffering = 1;
      run(&j, in_format);
      j.buffering = 0;
    }
    /* PNG picks its colour type from the pixels: one pass to look, one to write. */
    j.stats = &stats;
    if (quality < 100) j.quantizer = quantizer_new();
    run(&j, in_format);
    free(j.stats_sink);
    j.stats = NULL;
    j.stats_for_png = &stats;
    exact = stats;
    if (j.quantizer && !quantizer_choose(j.quantizer, quality, &stats))
      quantizer_free(j.quantizer), j.quantizer = NULL;
    /* Lossless only: the quantiser's palette and dithering are not re-run per trial. */
    if (j.quantizer && trials) keep_lossless_if_smaller(&j, in_format, &exact, &params);
    else if (trials) choose_png_params(&j, in_format, &params);
  }
  run(&j, in_format);
  j.encoder->finish(j.encoder);
  quantizer_free(j.quantizer);
  free(j.frame);
  free(j.kept);
}
