#include "progress.h"

#include "host.h"

void report_progress(int kind, long units) {
  if (host_progress(kind, units > 0x7fffffff ? 0x7fffffff : (int)units)) host_yield();
}
