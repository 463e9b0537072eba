// The end-to-end runs are vitest files like the rest of the suite (test/e2e/vitest.config.ts): tests run in
// the order written, each to the end, and vitest reports them. `test` is vitest's; `assert` says what broke.
export { test } from 'vitest';

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
