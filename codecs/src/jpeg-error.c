#include "jpeg-error.h"

#include <string.h>

#include "host.h"
#include "jerror.h"

/* jpegli has no message codes: its message is in msg_parm.s, "Out of memory" for a failed
 * allocation (memory_manager.cc). */
static int out_of_memory(j_common_ptr cinfo, const char *msg) {
#ifdef ENGINE_JPEGLI
  (void)cinfo;
  return strstr(msg, "Out of memory") != NULL;
#else
  (void)msg;
  return cinfo->err->msg_code == JERR_OUT_OF_MEMORY;
#endif
}

/* Never returns into the codec: host_fail throws in JS. */
static void error_exit(j_common_ptr cinfo) {
  char msg[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, msg);
  msg[JMSG_LENGTH_MAX - 1] = 0;
  if (out_of_memory(cinfo, msg)) host_fail(FAIL_MEMORY, msg);
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
