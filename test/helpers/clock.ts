import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, vi } from 'vitest';

type Faked = NonNullable<NonNullable<Parameters<typeof vi.useFakeTimers>[0]>['toFake']>[number];

/** Whether the running test has stopped the clock (freezeClock, pinClock); reset after every test. */
let held = false;

/**
 * The clock of the suite (setup.ts). `TEST_CLOCK_START=2031-01-31T23:59:59.990Z npm test` starts every test
 * at that instant, the clock then running on as usual, so every test longer than a few milliseconds
 * crosses 00:00 UTC on the 1st: the way to check that no test depends on the month staying the same.
 * Unset, the clock is the real one.
 */
export function installTestClock(): void {
  afterEach(() => {
    held = false;
    vi.useRealTimers();
  });
  const start = env.TEST_CLOCK_START ? Date.parse(env.TEST_CLOCK_START) : undefined;
  if (start === undefined) return;
  if (Number.isNaN(start)) throw new Error(`TEST_CLOCK_START is not a date: ${env.TEST_CLOCK_START}`);
  const install = () => vi.useFakeTimers({ toFake: ['Date'], now: start, shouldAdvanceTime: true });
  // At once, for what a test file computes when it loads and in its beforeAll; then afresh for every test.
  install();
  beforeEach(install);
}

/**
 * Stops the clock where it is for the rest of the test (the Worker reads the same clock): for a test that
 * writes this month's usage and then makes requests that must fall in that month. A request reads the
 * clock once (src/middleware/read-clock.ts), so one request never straddles two months; a test of several
 * requests needs the clock to hold still between them. Does nothing when the test holds the clock already.
 */
export function freezeClock(): number {
  if (!held) vi.useFakeTimers({ toFake: ['Date'] });
  held = true;
  return Date.now();
}

/**
 * Sets the clock to `atMs` and stops it there, faking `alsoFaked` timers too: for a test that moves the
 * clock itself (vi.advanceTimersByTime) and must stay in one month while it does.
 */
export function pinClock(atMs: number, ...alsoFaked: Faked[]): void {
  vi.useFakeTimers({ toFake: ['Date', ...alsoFaked], now: atMs });
  held = true;
}
