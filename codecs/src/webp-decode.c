#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "host.h"
#include "progress.h"
#include "src/dec/vp8_dec.h"
#include "src/dec/vp8i_dec.h"
#include "src/dec/webpi_dec.h"
#include "src/utils/huffman_utils.h"
#include "webp/decode.h"

/* A VP8L header may hold 65,536 groups of 5 Huffman codes, a few bits each, whose tables are built
 * before any row (and again at each incremental update until the header is whole): that work is
 * reported (and yielded in) table by table, the linker sending libwebp's calls here (--wrap). */
int __real_VP8LBuildHuffmanTable(HuffmanTables *const root_table, int root_bits, const int code_lengths[], int code_lengths_size);
int __wrap_VP8LBuildHuffmanTable(HuffmanTables *const root_table, int root_bits, const int code_lengths[], int code_lengths_size) {
  report_progress(PROGRESS_HUFFMAN_TABLE, (long)code_lengths_size + (1L << root_bits));
  return __real_VP8LBuildHuffmanTable(root_table, root_bits, code_lengths, code_lengths_size);
}

/* Rows the VP8 decoder hands over at once: a macroblock row (16), the loop filter's
 * extra rows (up to 8), and the row the fancy upsampler finishes late. */
#define STRIP_ROWS 32

/* libwebp decodes from a complete buffer, so the compressed input is copied in. */
static uint8_t *read_all(size_t *size) {
  int len = host_input_size();
  uint8_t *buf = xmalloc((size_t)len);
  for (int done = 0; done < len;) {
    int n = host_input_read(buf + done, len - done);
    if (n <= 0) host_fail(FAIL_INTERNAL, "the input ended early");
    done += n;
  }
  *size = (size_t)len;
  return buf;
}

/* Bytes of a lossless WebP handed to the incremental decoder at a time: it decodes the rows
 * they complete, which are reported as work (progress.h) between two chunks. */
#define LOSSLESS_CHUNK 65536

/* Lossless WebP keeps the whole ARGB image inside the decoder anyway: decode the frame whole,
 * through the incremental decoder over growing prefixes of the input (no copy), so that the
 * work comes in pieces. */
static void decode_lossless(const uint8_t *data, size_t size, decode_target *target, int channels) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
  WebPIDecoder *idec = WebPIDecode(NULL, 0, &config);
  if (!idec) host_fail(FAIL_MEMORY, "out of memory");
  VP8StatusCode status = VP8_STATUS_SUSPENDED;
  int rows = 0, header_read = 0;
  for (size_t given = 0; status == VP8_STATUS_SUSPENDED && given < size;) {
    size_t before = given;
    given = size - given > LOSSLESS_CHUNK ? given + LOSSLESS_CHUNK : size;
    /* The bytes read are work (PROGRESS_INPUT). Until the header is read, each update from an eighth of
     * the data on parses it again from its start (libwebp's idec_dec.c, DecodeVP8LHeader). */
    report_progress(PROGRESS_INPUT, (long)(header_read || given < size / 8 ? given - before : given));
    status = WebPIUpdate(idec, data, given);
    int last_y = 0, width = 0;
    if (WebPIDecGetRGB(idec, &last_y, &width, NULL, NULL)) {
      header_read = 1;
      report_progress(PROGRESS_FRAME_DECODED, (long)(last_y - rows) * width);
      rows = last_y;
    }
  }
  WebPIDelete(idec);
  if (status == VP8_STATUS_OUT_OF_MEMORY) host_fail(FAIL_MEMORY, "out of memory");
  if (status != VP8_STATUS_OK) host_fail(FAIL_UNSUPPORTED, "the WebP data is corrupt or truncated");
  const WebPRGBABuffer *rgba = &config.output.u.RGBA;
  row_sink *sink = target->begin(target, config.output.width, config.output.height, channels);
  for (int y = 0; y < config.output.height; y++) sink->put(sink, rgba->rgba + (size_t)y * rgba->stride);
  WebPFreeDecBuffer(&config.output);
}

/* Lossy WebP streams: libwebp's own output stage (fancy upsampling, alpha) writes each batch
 * of rows through a buffer pointer that is moved, before every batch, so that those rows
 * land in a small strip; finished rows go on to the sink from there. */
typedef struct {
  WebPDecParams params; /* first: libwebp's put casts io->opaque to it */
  WebPDecBuffer output;
  WebPDecoderOptions options;
  VP8IoPutHook libwebp_put;
  uint8_t *strip;
  size_t stride;
  row_sink *sink;
} strip_decoder;

static int put_strip(const VP8Io *io) {
  strip_decoder *d = (strip_decoder *)io->opaque;
  int first = io->mb_y - 1;
  if (io->mb_h + 2 > STRIP_ROWS) host_fail(FAIL_INTERNAL, "webp: taller batch of rows than the strip");
  /* Row `first` of the image maps to row 0 of the strip. */
  d->output.u.RGBA.rgba = (uint8_t *)((uintptr_t)d->strip - (uintptr_t)((intptr_t)first * (intptr_t)d->stride));
  int done = d->params.last_y;
  if (!d->libwebp_put(io)) return 0;
  for (int y = done; y < d->params.last_y; y++) d->sink->put(d->sink, d->strip + (size_t)(y - first) * d->stride);
  return 1;
}

static void decode_lossy(const uint8_t *data, size_t size, decode_target *target, int channels) {
  WebPHeaderStructure headers;
  memset(&headers, 0, sizeof(headers));
  headers.data = data;
  headers.data_size = size;
  headers.have_all_data = 1;
  if (WebPParseHeaders(&headers) != VP8_STATUS_OK) host_fail(FAIL_UNSUPPORTED, "the WebP header is invalid");

  strip_decoder *d = xcalloc(1, sizeof(strip_decoder));
  WebPResetDecParams(&d->params);
  if (!WebPInitDecBuffer(&d->output)) host_fail(FAIL_INTERNAL, "libwebp version mismatch");
  d->params.output = &d->output;
  d->params.options = &d->options;
  VP8Io io;
  VP8InitIo(&io);
  io.data = headers.data + headers.offset;
  io.data_size = headers.data_size - headers.offset;
  WebPInitCustomIo(&d->params, &io);
  d->libwebp_put = io.put;
  io.put = put_strip;

  VP8Decoder *dec = VP8New();
  if (!dec) host_fail(FAIL_MEMORY, "out of memory");
  dec->alpha_data_ = headers.alpha_data;
  dec->alpha_data_size_ = headers.alpha_data_size;
  if (!VP8GetHeaders(dec, &io)) host_fail(FAIL_UNSUPPORTED, "the WebP data is corrupt");
  d->stride = (size_t)io.width * channels;
  d->strip = xmalloc(d->stride * STRIP_ROWS);
  d->output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
  d->output.width = io.width;
  d->output.height = io.height;
  d->output.is_external_memory = 1;
  d->output.u.RGBA.stride = (int)d->stride;
  d->output.u.RGBA.size = d->stride * (size_t)io.height;
  d->sink = target->begin(target, io.width, io.height, channels);
  if (!VP8Decode(dec, &io)) {
    host_fail(dec->status_ == VP8_STATUS_OUT_OF_MEMORY ? FAIL_MEMORY : FAIL_UNSUPPORTED,
              "the WebP data is corrupt or truncated");
  }
  VP8Delete(dec);
  free(d->strip);
  free(d);
}

void webp_decode(decode_target *target) {
  size_t size;
  uint8_t *data = read_all(&size);
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) host_fail(FAIL_UNSUPPORTED, "the WebP header is invalid");
  if (features.has_animation) host_fail(FAIL_UNSUPPORTED, "animated WebP is not supported");
  /* Before the lossless frame or the lossy decoder's state is allocated. */
  decode_check_size(target, features.width, features.height);
  int channels = features.has_alpha ? 4 : 3;
  if (features.format == 2) decode_lossless(data, size, target, channels);
  else decode_lossy(data, size, target, channels);
  free(data);
}
