/**
 * CPU time a request's image jobs may take, as the CPU model predicts it (src/image/wasm/cpu-model.ts,
 * milliseconds on the machine the model was measured on). Jobs run one at a time per isolate, so a
 * long one also delays every request waiting behind it; production stops a request at wrangler.toml's
 * cpu_ms (60 s), well above these.
 */
export const PAID_CPU_BUDGET_MS = 30_000;
/** The demo needs no key: it gets a quarter of that (a 12 MP photo to JPEG; its WebP candidate is skipped above about 8 MP). */
export const DEMO_CPU_BUDGET_MS = 8_000;
