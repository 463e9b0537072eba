/* wasi-libc has no setjmp.h. jpegli includes it but never calls setjmp: its errors end in
 * our error_exit (jpeg-error.c, built against jpegli), which throws in JS and does not return.
 * libaom calls setjmp before its work and longjmp from aom_internal_error(): here setjmp
 * returns 0 once and longjmp fails the job (aom-error.c: out of memory is the 413, corrupt data
 * in the decoder a 400), which
 * throws in JS, so nothing ever returns a second time from setjmp. */
#ifndef ENGINE_COMPAT_SETJMP_H
#define ENGINE_COMPAT_SETJMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int jmp_buf[1];
__attribute__((noreturn)) void engine_longjmp(int code);
#define setjmp(env) 0
#define longjmp(env, code) engine_longjmp(code)

#ifdef __cplusplus
}
#endif

#endif
