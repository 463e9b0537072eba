import type { RateLimitInfo } from '@squeeze-edge/client';

/** The pause a pool must respect before starting another request, and how it learns it. */
export interface Pace {
  /** Milliseconds to wait before starting a request while `inFlight` are running; 0: start now. */
  delayBeforeStart(inFlight: number): number;
}

/**
 * Paces requests from the `RateLimit` field's `minute` window: while the requests left do not exceed the
 * ones in flight, nothing starts until the window frees one. A 429 or 503 pause of the client (all its
 * calls wait out Retry-After together) holds the pool too.
 */
export class RateLimitPace implements Pace {
  readonly #client: { readonly pausedFor: number };
  #minute: { remaining: number; resetAt: number } | undefined;

  constructor(client: { readonly pausedFor: number }) {
    this.#client = client;
  }

  observe(info: RateLimitInfo, now = Date.now()): void {
    if (info.minute) this.#minute = { remaining: info.minute.remaining, resetAt: now + info.minute.resetSeconds * 1000 };
  }

  delayBeforeStart(inFlight: number, now = Date.now()): number {
    if (this.#client.pausedFor > 0) return this.#client.pausedFor;
    const minute = this.#minute;
    if (!minute || minute.remaining > inFlight) return 0;
    if (now < minute.resetAt) return minute.resetAt - now;
    // The window freed at least one request: send one, and learn the rest from its answer.
    this.#minute = { remaining: inFlight + 1, resetAt: now + 1000 };
    return 0;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Runs `work` on the items, at most `concurrency` at a time, starting each only when `pace` allows and
 * none once `stop()` is true or `signal` aborts; resolves when every started item is finished.
 */
export async function runPool<T>(
  items: readonly T[],
  options: { concurrency: number; pace: Pace; stop: () => boolean; signal: AbortSignal },
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  const halted = () => options.stop() || options.signal.aborted;
  for (const item of items) {
    while (running.size >= options.concurrency) await Promise.race(running);
    for (let wait = options.pace.delayBeforeStart(running.size); wait > 0 && !halted(); wait = options.pace.delayBeforeStart(running.size)) {
      await Promise.race([delay(wait, options.signal), ...running]);
    }
    if (halted()) break;
    const task = work(item).finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
}
