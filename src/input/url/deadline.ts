import { ApiError } from '../../errors/api-error';

/**
 * One time budget for a whole url fetch: DNS lookups, every redirect hop and retry, and the body.
 * Its signal aborts real outbound fetches; `race` also bounds awaits that ignore signals (a body
 * stream that never ends, a backoff pause), so nothing outlives the budget. `end` aborts the same
 * way, so work still in flight when the fetch is decided (the other DNS lookup) stops too.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(ms: number) {
    const timeout = new ApiError('url_timeout', `Fetching the url timed out after ${ms} ms.`);
    this.#timer = setTimeout(() => this.#controller.abort(timeout), ms);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the deadline has passed or the fetch has ended. */
  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** Why: url_timeout when the deadline passed. */
  get reason(): unknown {
    return this.signal.reason;
  }

  /** Settles as `promise` does, or rejects with url_timeout when the deadline passes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.aborted) return Promise.reject(this.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.reason);
      this.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  sleep(ms: number): Promise<void> {
    return this.race(new Promise<void>((resolve) => setTimeout(resolve, ms)));
  }

  /** Called once the fetch is decided, whatever the outcome: stops the timer and anything still running. */
  end(): void {
    clearTimeout(this.#timer);
    this.#controller.abort(new Error('The url fetch has ended.'));
  }
}
