/**
 * The isolate's memory. A Worker isolate has 128 MB for everything, and production kills it (with
 * every request on it) beyond that; local workerd does not enforce it. The service splits it:
 *
 * - ENGINE_BUDGET_BYTES for the image engine: its WASM memory (created with this as its maximum, and
 *   grown only when the engine's running total allows, src/image/wasm/engine-memory.ts) plus the JS
 *   buffers of the job in hand (its output, stopped at its planned size, and the copies the pipeline
 *   makes of it). The memory model admits a job only when its estimate fits; the enforcement makes a
 *   model miss one 413.
 * - QUEUED_INPUT_BYTES for the images of the requests admitted to the engine (the running job's and
 *   those waiting): beyond it a request is answered 503 with Retry-After and charged nothing.
 * - The rest (8 MiB) for the runtime, the Worker's code and heap, and what parsing a request leaves
 *   for the garbage collector (a JSON body and its text; V8 counts those towards its own GC triggers,
 *   unlike WASM memory).
 */
export const ENGINE_BUDGET_BYTES = 96 * 1_048_576;
export const QUEUED_INPUT_BYTES = 24 * 1_048_576;

/**
 * The most pixels an input may have, whatever the models say: 100 MP is above any camera photo that
 * fits the 10 MB upload limit, and keeps the CPU model's inputs in the range it was measured on.
 */
export const MAX_INPUT_PIXELS = 100_000_000;
