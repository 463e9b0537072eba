import { ApiError } from '../errors/api-error';
import { REQUEST_BYTES_BUDGET } from './memory';

/**
 * The most CPU time, by the CPU model, the engine's queue may hold (the running job's included): a
 * request that gets in waits at most about a minute of predicted work. A lone job always gets in (its
 * own budget, 45 s with a key, is checked before); behind it, jobs fill the rest. Bytes alone would not
 * bound the wait: a few KB of PNG can ask for seconds of lossless encoding.
 */
export const QUEUED_CPU_MS = 60_000;

/** What one request holds of the isolate's byte budget, from its first byte until it is answered. */
export interface ByteClaim {
  /** The bytes held now. */
  readonly bytes: number;
  /** Holds `bytes` more; past the isolate's budget it throws 503 service_unavailable and holds nothing more. */
  grow(bytes: number): void;
  /** Throws the same 503 when `bytes` more could not be held now (a body announced larger than what is free), holding nothing. */
  refuseUnlessFits(bytes: number): void;
  /** Gives `bytes` back (no longer held). */
  shrink(bytes: number): void;
  /** Gives everything back: the request is answered. */
  release(): void;
}

/**
 * One isolate's admission budget, in two measures: the bytes requests hold outside the engine (bodies
 * being read and parsed, url bodies in flight, images waiting for the engine or in it; the arithmetic
 * is in memory.ts), and the CPU time the engine's queue is predicted to take. A request that would pass
 * either is answered 503 with a Retry-After of the queued CPU time, and is charged nothing
 * (src/limits/charged-nothing.ts).
 */
export class Admission {
  #bytes = 0;
  #peakBytes = 0;
  #queuedCpuMs = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxQueuedCpuMs: number,
  ) {}

  /** A new request's claim, holding nothing yet. */
  claim(): ByteClaim {
    const admission = this;
    let held = 0;
    return {
      get bytes() {
        return held;
      },
      grow(bytes) {
        admission.#take(bytes);
        held += bytes;
      },
      refuseUnlessFits(bytes) {
        if (!admission.#fits(bytes)) throw admission.#busy();
      },
      shrink(bytes) {
        const given = Math.min(bytes, held);
        admission.#bytes -= given;
        held -= given;
      },
      release() {
        this.shrink(held);
      },
    };
  }

  /** Enters a job predicted to take `cpuMs` into the engine's queue; the returned function takes it out. */
  enqueue(cpuMs: number): () => void {
    if (this.#queuedCpuMs > 0 && this.#queuedCpuMs + cpuMs > this.maxQueuedCpuMs) throw this.#busy();
    this.#queuedCpuMs += cpuMs;
    let queued = true;
    return () => {
      if (queued) this.#queuedCpuMs -= cpuMs;
      queued = false;
    };
  }

  /** The most bytes held at once since the last call (tests check it against the budget). */
  takePeak(): number {
    const peak = this.#peakBytes;
    this.#peakBytes = this.#bytes;
    return peak;
  }

  #fits(bytes: number): boolean {
    return this.#bytes + bytes <= this.maxBytes;
  }

  #take(bytes: number): void {
    if (!this.#fits(bytes)) throw this.#busy();
    this.#bytes += bytes;
    this.#peakBytes = Math.max(this.#peakBytes, this.#bytes);
  }

  /** 503: come back when the queue's predicted work is done. */
  #busy(): ApiError {
    const seconds = Math.max(1, Math.ceil(this.#queuedCpuMs / 1000));
    return new ApiError('service_unavailable', `The service is busy with other images; nothing was charged. Try again in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
}

/** The isolate's one admission budget. */
export const admission = new Admission(REQUEST_BYTES_BUDGET, QUEUED_CPU_MS);
