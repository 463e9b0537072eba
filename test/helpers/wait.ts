/**
 * Waits for something to happen (a request reaching a fake server, a row written in the background),
 * never for a length of time. The condition is polled over the real event loop, also while a test fakes
 * the timers: this module keeps the real setTimeout. Polling flags rather than awaiting a promise that
 * the Worker settles: workerd runs a promise's continuation in the request that settled it, and a test
 * must not go on inside a request of the Worker's.
 */
const realSetTimeout = globalThis.setTimeout;

/** The real event loop's next turn, whatever the test has faked. */
export const nextTurn = () => new Promise<void>((resolve) => realSetTimeout(resolve, 1));

/**
 * Resolves once `condition()` holds. No deadline of its own: a condition that never holds is the test's
 * timeout, so a slow machine makes the test slower, never wrong.
 */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await nextTurn();
}
