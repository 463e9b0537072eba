/* libwebp picks its SSE2 and SSE4.1 code at run time through VP8GetCPUInfo, which has no answer for
 * wasm32 outside emscripten. That code is compiled to WASM SIMD (see build.sh), and
 * workerd and Node run SIMD, so it is always there. */
#include "webp-simd.h"

#include "src/dsp/cpu.h"

static int wasm_cpu_info(CPUFeature feature) {
  return feature == kSSE2 || feature == kSSE3 || feature == kSSE4_1;
}

void webp_use_simd(void) { VP8GetCPUInfo = wasm_cpu_info; }
