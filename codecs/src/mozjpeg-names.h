/* Included first when jpeg-encode.c and jpeg-error.c are built a second time against
 * mozjpeg (build.sh), so that build's functions do not clash with the libjpeg-turbo one. */
#define jpeg_encoder_new mozjpeg_encoder_new
#define jpeg_throwing_errors mozjpeg_throwing_errors
