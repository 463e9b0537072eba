/**
 * Memory the image engine may use for one job. A Worker isolate has 128 MiB for everything; the rest
 * is left for the JS heap, the request body and the response (at most about 10 MiB each) and the
 * runtime itself.
 */
export const ENGINE_BUDGET_BYTES = 96 * 1_048_576;
