import type { RateLimitInfo } from './rate-limit.js';
import { sleep } from './sleep.js';

/**
 * What one client knows of its limits: the windows of the latest answer, and a pause that every call of
 * the client waits out, so that a 429 or 503 with Retry-After stops all of them at once, not just the
 * call that met it (the API does not count refused requests, but sending them is still waste).
 */
export class RateGate {
  latest: RateLimitInfo = {};
  #until = 0;

  pause(ms: number): void {
    this.#until = Math.max(this.#until, Date.now() + ms);
  }

  /** Milliseconds left in the current pause. */
  get pausedFor(): number {
    return Math.max(0, this.#until - Date.now());
  }

  async wait(signal?: AbortSignal): Promise<void> {
    while (this.pausedFor > 0) await sleep(this.pausedFor, signal);
  }
}
