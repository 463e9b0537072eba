/* libaom's errors: its longjmp (compat/setjmp.h) ends in engine_longjmp, which fails the job. Out of memory
 * is the 413; anything else is the data's fault while the decoder works (a 400), ours in the encoder. */
#ifndef ENGINE_AOM_ERROR_H
#define ENGINE_AOM_ERROR_H

void aom_errors_blame_data(int on);
__attribute__((noreturn)) void engine_longjmp(int code);

#endif
