/* libjpeg's default error handler calls exit(); ours formats the message and throws in JS. */
#ifndef ENGINE_JPEG_ERROR_H
#define ENGINE_JPEG_ERROR_H

#include <stdio.h>

#include "jpeglib.h"

struct jpeg_error_mgr *jpeg_throwing_errors(struct jpeg_error_mgr *err);

#endif
