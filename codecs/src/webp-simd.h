#ifndef ENGINE_WEBP_SIMD_H
#define ENGINE_WEBP_SIMD_H

/* Lets libwebp use its SSE2 and SSE4.1 paths (built as WASM SIMD); call before any libwebp function. */
void webp_use_simd(void);

#endif
