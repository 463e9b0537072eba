import { ApiError } from '../errors/api-error';
import { REQUEST_BYTES_BUDGET } from './memory';
import { LARGEST_REQUEST_BYTES } from './sizes';

/**
 * The most CPU time, by the CPU model, the engine's queue may hold (the running job's included): a
 * request that gets in waits at most about a minute of predicted work. A lone job always gets in (its
 * own budget, 45 s with a key, is checked before); behind it, jobs fill the rest. Bytes alone would not
 * bound the wait: a few KB of PNG can ask for seconds of lossless encoding.
 */
export const QUEUED_CPU_MS = 60_000;

/** What one request holds of the isolate's byte budget, from its first byte until its answer is sent. */
export interface ByteClaim {
  /** The bytes held now. */
  readonly bytes: number;
  /**
   * Holds `bytes` more; past the isolate's budget, or its holder's share of it, it throws 503
   * service_unavailable and holds nothing more.
   */
  grow(bytes: number): void;
  /** Throws the same 503 when `bytes` more could not be held now (a body announced larger than what is free), holding nothing. */
  refuseUnlessFits(bytes: number): void;
  /**
   * Holds exactly `bytes` from now, whatever the budget: what a request keeps once its work is done (its
   * answer, until it is sent). Those bytes exist already; refusing them would only waste the work.
   */
  keep(bytes: number): void;
  /** Gives `bytes` back (no longer held). */
  shrink(bytes: number): void;
  /** Gives everything back: the request is answered. */
  release(): void;
}

/**
 * One isolate's admission budget, in two measures: the bytes requests hold outside the engine (bodies
 * being read and parsed, url bodies in flight, images waiting for the engine or in it, answers not yet
 * sent; the arithmetic is in memory.ts), and the CPU time the engine's queue is predicted to take. A request that would pass
 * either is answered 503 with a Retry-After of the queued CPU time, and is charged nothing
 * (src/limits/charged-nothing.ts). The bytes are also counted per holder, an account or a client
 * network, each of which holds at most `maxHolderBytes` at once (decisions.md, "A slow client holds
 * nothing for long"), so that one client cannot fill the isolate for everyone.
 */
export class Admission {
  #bytes = 0;
  #peakBytes = 0;
  #queuedCpuMs = 0;
  /** The bytes each holder holds now; a holder is dropped when it holds nothing. */
  readonly #holders = new Map<string, number>();

  constructor(
    readonly maxBytes: number,
    readonly maxQueuedCpuMs: number,
    readonly maxHolderBytes: number,
  ) {}

  /**
   * A new request's claim, holding nothing yet, counted in `holder`'s share (`account:<id>` for a keyed
   * request, `network:<prefix>` for the demo's); without one (tests), in the isolate's budget alone.
   */
  claim(holder?: string): ByteClaim {
    const admission = this;
    let held = 0;
    return {
      get bytes() {
        return held;
      },
      grow(bytes) {
        admission.#refuseUnlessFits(bytes, holder);
        admission.#count(bytes, holder);
        held += bytes;
      },
      refuseUnlessFits(bytes) {
        admission.#refuseUnlessFits(bytes, holder);
      },
      keep(bytes) {
        admission.#count(bytes - held, holder);
        held = bytes;
      },
      shrink(bytes) {
        const given = Math.min(bytes, held);
        admission.#count(-given, holder);
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

  #refuseUnlessFits(bytes: number, holder: string | undefined): void {
    if (holder !== undefined && (this.#holders.get(holder) ?? 0) + bytes > this.maxHolderBytes) {
      throw this.#busy(`Your requests already hold the most one account or network may hold of this server's memory at once (${this.maxHolderBytes} bytes, one largest upload's share)`);
    }
    if (this.#bytes + bytes > this.maxBytes) throw this.#busy();
  }

  #count(bytes: number, holder: string | undefined): void {
    this.#bytes += bytes;
    this.#peakBytes = Math.max(this.#peakBytes, this.#bytes);
    if (holder === undefined) return;
    const holds = (this.#holders.get(holder) ?? 0) + bytes;
    if (holds > 0) this.#holders.set(holder, holds);
    else this.#holders.delete(holder);
  }

  /** 503: come back when the queue's predicted work is done. */
  #busy(why = 'The service is busy with other images'): ApiError {
    const seconds = Math.max(1, Math.ceil(this.#queuedCpuMs / 1000));
    return new ApiError('service_unavailable', `${why}; nothing was charged. Try again in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
}

/** The isolate's one admission budget. */
export const admission = new Admission(REQUEST_BYTES_BUDGET, QUEUED_CPU_MS, LARGEST_REQUEST_BYTES);
