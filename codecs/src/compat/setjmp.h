/* wasi-libc has no setjmp.h. jpegli includes it but never calls setjmp: its errors end in
 * our error_exit (jpegli-encode.c), which throws in JS and does not return. */
