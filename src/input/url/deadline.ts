import { ApiError } from '../../errors/api-error';

/**
 * One time budget for a whole url fetch: DNS lookups, every redirect hop and retry, and the body.
 * Its signal aborts real outbound fetches; `race` also bounds awaits that ignore signals (a body
 * stream that never ends, a backoff pause), so nothing outlives the budget.
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

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** The url_timeout error once expired. */
  get error(): unknown {
    return this.signal.reason;
  }

  /** Settles as `promise` does, or rejects with url_timeout when the deadline passes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.expired) return Promise.reject(this.error);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.error);
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

  /** Stops the timer once the fetch is over, whatever its outcome. */
  dispose(): void {
    clearTimeout(this.#timer);
  }
}
