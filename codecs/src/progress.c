#include "progress.h"

#include "host.h"

void report_progress(int kind, long units) {
  if (host_progress(kind, units > 0x7fffffff ? 0x7fffffff : (int)units)) host_yield();
}

int input_read(uint8_t *dst, int len) {
  int n = host_input_read(dst, len);
  if (n > 0) report_progress(PROGRESS_INPUT, n);
  return n;
}
