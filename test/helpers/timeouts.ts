/**
 * The timeout of a heavy test (tens of megapixels, or a hundred engine jobs): seconds of CPU on an idle
 * machine, several times that on a shared, loaded 2-core one. The suite's default is 30 s.
 */
export const HEAVY_TEST_TIMEOUT_MS = 180_000;
