/**
 * The isolate's memory, the one place its split is decided. A Worker isolate has 128 MB (MiB here, as
 * everywhere in this service) for everything, and production kills it (with every request on it) beyond
 * that; local workerd does not enforce it. The split, 96 + 24 + 8 = 128 MiB:
 *
 * - ENGINE_BUDGET_BYTES, 96 MiB, for the image engine: its WASM memory (created with this as its maximum,
 *   and grown only when the engine's running total allows, src/image/wasm/engine-memory.ts) plus the JS
 *   buffers of the job in hand (its output, stopped at its planned size, and the copies the pipeline makes
 *   of it). The memory model admits a job only when its estimate fits; the enforcement makes a model miss
 *   one 413.
 * - REQUEST_BYTES_BUDGET, 24 MiB, for what requests hold outside the engine, from their first byte
 *   (src/limits/admission.ts counts it): bodies being read and parsed, url bodies in flight, the images
 *   of requests waiting for the engine or in it, until they are answered, and answers until they are
 *   sent (an answer its client does not read stays in the budget, src/routes/image-response.ts). A body is parsed as it
 *   arrives into one buffer that grows in place by what came (src/input/image-buffer.ts), counted as it
 *   grows, so a request holds its image once, and nothing for bytes it only announced; plus while it is
 *   read the 64 KiB chunk in hand and ENVELOPE_BYTES (64 KiB) of other fields: a largest upload, base64
 *   or url image takes 10 MiB + 128 KiB, its length announced or not. So the largest request fits alone,
 *   and two largest uploads fit together. Beyond the budget a request is answered 503 with Retry-After
 *   and charged nothing.
 * - The rest, 8 MiB, for the runtime, the Worker's code and heap, and what parsing leaves for the garbage
 *   collector (small strings of the fields and of base64 batches; V8 counts those towards its own GC
 *   triggers, unlike WASM memory).
 */
export const ENGINE_BUDGET_BYTES = 96 * 1_048_576;
export const REQUEST_BYTES_BUDGET = 24 * 1_048_576;

/**
 * The most pixels an input may have, whatever the models say: 100 MP is above any camera photo that
 * fits the 10 MB upload limit, and keeps the CPU model's inputs in the range it was measured on.
 */
export const MAX_INPUT_PIXELS = 100_000_000;
