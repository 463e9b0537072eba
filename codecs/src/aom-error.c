#include "aom-error.h"

#include "aom/aom_codec.h"
#include "host.h"

static int blame_data;

void aom_errors_blame_data(int on) { blame_data = on; }

void engine_longjmp(int code) {
  if (code == AOM_CODEC_MEM_ERROR) host_fail(FAIL_MEMORY, "out of memory in libaom");
  host_fail(blame_data ? FAIL_UNSUPPORTED : FAIL_INTERNAL, blame_data ? "the AV1 data is corrupt" : "the AV1 encoder failed");
}
