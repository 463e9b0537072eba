/**
 * Image jobs in one isolate run one at a time: the isolate's 128 MB is shared by every request it
 * serves, and the memory model budgets for one job. Later requests wait their turn.
 */
let tail: Promise<unknown> = Promise.resolve();

export function runExclusive<T>(job: () => Promise<T>): Promise<T> {
  const result = tail.then(job, job);
  tail = result.catch(() => undefined);
  return result;
}
