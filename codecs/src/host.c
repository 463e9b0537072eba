#include "host.h"

#include <stdlib.h>
#include <string.h>

void host_fail(int kind, const char *msg) {
  host_fail_raw(kind, msg, (int)strlen(msg));
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) host_fail(FAIL_MEMORY, "out of memory");
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) host_fail(FAIL_MEMORY, "out of memory");
  return p;
}
