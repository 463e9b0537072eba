/* The boundary with JavaScript. The input is pulled and the output pushed through these
 * imports, so neither file has to live in WASM memory. Standalone WASM has no setjmp:
 * every error path ends in host_fail(), whose JS side throws; the TS binding then drops
 * this instance, because whatever the codecs had allocated is leaked. */
#ifndef ENGINE_HOST_H
#define ENGINE_HOST_H

#include <stddef.h>
#include <stdint.h>

#define IMPORT(name) __attribute__((import_module("env"), import_name(name)))

/* Copies up to len input bytes into dst; returns the count, 0 at the end of the input. */
IMPORT("input_read") int host_input_read(uint8_t *dst, int len);
/* The input's total size in bytes. */
IMPORT("input_size") int host_input_size(void);
/* Starts the input again from its first byte, for a second decoding pass. */
IMPORT("input_rewind") void host_input_rewind(void);
/* Announces that the whole output will be exactly `total` bytes (WebP knows it before its
 * first byte), so JS can hold it in one buffer of that size instead of growing one. */
IMPORT("output_reserve") void host_output_reserve(int total);
/* Appends len bytes to the output. */
IMPORT("output_write") void host_output_write(const uint8_t *src, int len);
/* Writes len bytes over output already written, from byte `offset` on (a header reserved first). */
IMPORT("output_patch") void host_output_patch(int offset, const uint8_t *src, int len);
/* The ICC profile the output is to carry (AVIF writes it itself): its size (0: none), its bytes. */
IMPORT("profile_size") int host_profile_size(void);
IMPORT("profile_read") void host_profile_read(uint8_t *dst);
/* Grows the linear memory (imported from JS) by `pages` of 64 KiB when the isolate's engine
 * budget allows it; returns the previous size in pages, or -1 when refused. The allocator's
 * sbrk (host.c) is the only caller, so no allocation can take the isolate past the budget. */
IMPORT("memory_grow") int host_memory_grow(int pages);
/* Counts `units` of work of a kind (progress.h) against the job's prediction and budget; throws
 * in JS to stop a job past them. Returns nonzero when the event loop is due back. */
IMPORT("progress") int host_progress(int kind, int units);
/* Hands the event loop back: under JSPI the WASM stack suspends until JS resumes it. */
IMPORT("yield") void host_yield(void);
/* Throws in JS with the message; never returns. */
IMPORT("fail") __attribute__((noreturn)) void host_fail_raw(int kind, const char *msg, int len);

enum fail_kind {
  FAIL_UNSUPPORTED = 1, /* the data cannot be decoded */
  FAIL_MEMORY = 2,      /* an allocation failed: the job did not fit */
  FAIL_INTERNAL = 3     /* a bug of ours */
};

__attribute__((noreturn)) void host_fail(int kind, const char *msg);

/* malloc that fails the job instead of returning NULL. */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);

#endif
