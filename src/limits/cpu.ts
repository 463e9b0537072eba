/**
 * CPU time a request's image jobs may take, as the CPU model predicts it (src/image/wasm/cpu-model.ts:
 * milliseconds of the machine it was measured on, for the slowest content). Jobs run one at a time per
 * isolate, so a long one also delays every request waiting behind it; production stops a request at
 * wrangler.toml's cpu_ms (60 s), above these.
 */
export const PAID_CPU_BUDGET_MS = 45_000;
/**
 * The demo needs no key and gets a third of that: a 4K screenshot to lossy PNG fits, a 12 MP PNG does
 * not, and its WebP candidate is skipped above about 6 MP.
 */
export const DEMO_CPU_BUDGET_MS = 15_000;
