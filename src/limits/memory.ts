/**
 * Memory the image engine may use for one job. A Worker isolate has 128 MiB for everything; the rest
 * is left for the JS heap, the request body and the response (at most about 10 MiB each) and the
 * runtime itself.
 */
export const ENGINE_BUDGET_BYTES = 96 * 1_048_576;

/**
 * The most pixels an input may have, whatever the memory model says. Memory alone would admit a
 * baseline JPEG of hundreds of megapixels with a small maxWidth (rows stream), but decoding costs
 * CPU per input pixel (about 30 to 60 ms/MP here): 100 MP keeps one job to a few seconds, and is
 * above any camera photo that fits the 10 MB upload limit.
 */
export const MAX_INPUT_PIXELS = 100_000_000;
