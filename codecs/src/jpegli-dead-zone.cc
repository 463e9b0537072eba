// jpegli's dead zone for a grey image: jpegli rounds a YCbCr luma AC coefficient to zero below 0.59082
// of its step (kZeroBiasOffsetYCbCrAC[0], quant.cc), a grey one only below 0.5 (its InitQuantizer sets the
// offsets for YCbCr alone). Its per-component offsets are internal to the encoder (encode_internal.h), set
// by jpegli_start_compress and read as each block is quantised, so this is called right after it.
#include "lib/jpegli/encode_internal.h"

extern "C" void jpegli_luma_dead_zone(j_compress_ptr cinfo) {
  float *offset = cinfo->master->zero_bias_offset[0];
  for (int k = 1; k < DCTSIZE2; k++) offset[k] = 0.59082f;
}
