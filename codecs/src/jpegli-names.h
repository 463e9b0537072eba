/* Included first when jpeg-encode.c and jpeg-error.c are built a second time against jpegli
 * (build.sh): every libjpeg call they make becomes jpegli's, and their own functions get names
 * of their own, so the two builds link side by side. */
#define jpeg_encoder_new jpegli_encoder_new
#define jpeg_throwing_errors jpegli_throwing_errors
#define jpeg_host_destination jpegli_host_destination
#define jpeg_std_error jpegli_std_error
#define jpeg_CreateCompress jpegli_CreateCompress
#define jpeg_start_compress jpegli_start_compress
#define jpeg_write_scanlines jpegli_write_scanlines
#define jpeg_finish_compress jpegli_finish_compress
#define jpeg_destroy_compress jpegli_destroy_compress
