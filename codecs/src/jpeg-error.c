#include "jpeg-error.h"

#include "host.h"
#include "jerror.h"

static void error_exit(j_common_ptr cinfo) {
  char msg[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, msg);
  if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) host_fail(FAIL_MEMORY, msg);
  host_fail(cinfo->is_decompressor ? FAIL_UNSUPPORTED : FAIL_INTERNAL, msg);
}

/* Corrupt-data warnings (level -1) refuse the image: the service never returns a picture
 * with grey blocks where the data was damaged. Trace messages are ignored. */
static void emit_message(j_common_ptr cinfo, int msg_level) {
  if (msg_level < 0) error_exit(cinfo);
}

static void output_message(j_common_ptr cinfo) { (void)cinfo; }

struct jpeg_error_mgr *jpeg_throwing_errors(struct jpeg_error_mgr *err) {
  jpeg_std_error(err);
  err->error_exit = error_exit;
  err->emit_message = emit_message;
  err->output_message = output_message;
  return err;
}
