/* wasi-libc has no setjmp.h. jpegli includes it but never calls setjmp: its errors end in
 * our error_exit (jpeg-error.c, built against jpegli), which throws in JS and does not return. */
