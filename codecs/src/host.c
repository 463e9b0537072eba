#include "host.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WASM_PAGE 65536

/* The start of the heap, after static data and the stack (set by the linker). */
extern unsigned char __heap_base;

/* malloc's only source of memory, in place of wasi-libc's sbrk: the break starts at
 * __heap_base on every new instance (so an instance made over a reused, zeroed memory
 * reuses all of it) and the memory grows only when JS allows (host_memory_grow). */
static uintptr_t brk;

void *sbrk(intptr_t increment) {
  if (!brk) brk = (uintptr_t)&__heap_base;
  uintptr_t old = brk;
  if (increment < 0 || old + (uintptr_t)increment < old) {
    errno = ENOMEM;
    return (void *)-1;
  }
  uintptr_t end = old + (uintptr_t)increment;
  uintptr_t have = (uintptr_t)__builtin_wasm_memory_size(0) * WASM_PAGE;
  if (end > have && host_memory_grow((int)((end - have + WASM_PAGE - 1) / WASM_PAGE)) < 0) {
    errno = ENOMEM;
    return (void *)-1;
  }
  brk = end;
  return (void *)old;
}

/* The top of the heap: the most memory this instance has needed so far (malloc never gives
 * memory back to sbrk), which is what one job needs when it runs on a fresh instance. */
__attribute__((export_name("heap_top"))) uintptr_t heap_top(void) { return brk ? brk : (uintptr_t)&__heap_base; }

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
