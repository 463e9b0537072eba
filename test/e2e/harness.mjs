// A minimal runner: tests run in order (later ones build on the demo requests of earlier ones), every
// failure is reported, and the last line is "N passed, N failed".
const tests = [];

export function test(name, fn) {
  tests.push({ name, fn });
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export async function run() {
  let passed = 0;
  let failed = 0;
  for (const { name, fn } of tests) {
    const started = Date.now();
    try {
      await fn();
      passed += 1;
      console.log(`✓ ${name} (${Date.now() - started} ms)`);
    } catch (err) {
      failed += 1;
      console.log(`✗ ${name}\n    ${String(err?.stack ?? err).split('\n').slice(0, 6).join('\n    ')}`);
    }
  }
  return { passed, failed };
}
