/**
 * What one API request spent its time on, for its Server-Timing header (decisions.md "Edge latency"):
 * one `d1` or `do` entry per round trip to shared state made before the answer, in the order made,
 * then one entry per stage it reached, in the order of STAGES, then `total`.
 *
 * Durations are read from the runtime's clock. In production Workers that clock moves only when the
 * isolate does I/O (a defence against timing attacks), so CPU-bound work between two I/O events reads
 * as the time up to the last of them; the round trips, which are I/O, are measured in full.
 */
export const STAGES = ['auth', 'limits', 'fetch', 'queue', 'engine'] as const;
export type Stage = (typeof STAGES)[number];
export type Trip = 'd1' | 'do';

const ms = (value: number) => Math.round(value * 10) / 10;

export class ServerTiming {
  readonly #startMs: number;
  readonly #stages = new Map<Stage, number>();
  readonly #trips: Array<{ kind: Trip; ms: number; desc: string }> = [];

  constructor(private readonly now: () => number = () => performance.now()) {
    this.#startMs = now();
  }

  /** Adds `ms` to a stage (a stage may be reached more than once, e.g. an optional second engine job). */
  add(stage: Stage, durationMs: number): void {
    this.#stages.set(stage, (this.#stages.get(stage) ?? 0) + durationMs);
  }

  /** Runs `work` as (part of) a stage. */
  async stage<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
    const start = this.now();
    try {
      return await work();
    } finally {
      this.add(stage, this.now() - start);
    }
  }

  /** Runs one round trip to shared state, recorded with what it was for. */
  async trip<T>(kind: Trip, desc: string, call: () => Promise<T>): Promise<T> {
    const start = this.now();
    try {
      return await call();
    } finally {
      this.#trips.push({ kind, ms: this.now() - start, desc });
    }
  }

  /** The header's value: the stages reached, the round trips made, and the total so far. */
  header(): string {
    const stages = STAGES.filter((s) => this.#stages.has(s)).map((s) => `${s};dur=${ms(this.#stages.get(s)!)}`);
    const trips = this.#trips.map((t) => `${t.kind};dur=${ms(t.ms)};desc="${t.desc.replaceAll(/["\\]/g, '')}"`);
    return [...trips, ...stages, `total;dur=${ms(this.now() - this.#startMs)}`].join(', ');
  }
}

/** `job` as the isolate's engine queue runs it: the wait before it starts is `queue`, its run is `engine`. */
export function queuedJob<T>(timing: ServerTiming | undefined, job: () => Promise<T>): () => Promise<T> {
  const queuedAt = performance.now();
  return () => {
    timing?.add('queue', performance.now() - queuedAt);
    return timing ? timing.stage('engine', job) : job();
  };
}
