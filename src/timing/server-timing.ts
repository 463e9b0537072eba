/**
 * What one API request spent its time on, for its Server-Timing header (decisions.md "Edge latency"):
 * one `d1` or `do` entry per round trip to shared state made before the answer, in the order made,
 * then one entry per stage it reached, in the order of STAGES, then `total`.
 *
 * Two things would tell one tenant about others or about the isolate, and are shown so that they do not:
 * - `queue` is the wait behind other requests' engine jobs, so it is shown in coarse steps (QUEUE_STEPS_MS,
 *   below the first step 0), and `total` counts the wait as shown: the header tells that others' work was
 *   ahead, never how much to the millisecond;
 * - a round trip made only sometimes (the key's account, asked of D1 the first time an isolate sees the
 *   key) is listed whether or not it was made (listTrip), with 0 when it was not, so that whether the
 *   entry appears does not tell a key holder what the isolate has seen. Its time stays what the client's
 *   own clock measures anyway.
 *
 * Durations are read from the runtime's clock. In production Workers that clock moves only when the
 * isolate does I/O (a defence against timing attacks), so CPU-bound work between two I/O events reads
 * as the time up to the last of them; the round trips, which are I/O, are measured in full.
 */
export const STAGES = ['auth', 'limits', 'fetch', 'queue', 'engine'] as const;
export type Stage = (typeof STAGES)[number];
export type Trip = 'd1' | 'do';

const ms = (value: number) => Math.round(value * 10) / 10;

/** The steps `queue` is shown in: the largest one not above the wait. */
export const QUEUE_STEPS_MS = [10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];
const queueShown = (waitMs: number) => QUEUE_STEPS_MS.findLast((step) => step <= waitMs) ?? 0;

export class ServerTiming {
  readonly #startMs: number;
  readonly #stages = new Map<Stage, number>();
  /** In the order made or listed; `made` false for a listed trip not (yet) made. */
  readonly #trips: Array<{ kind: Trip; ms: number; desc: string; made: boolean }> = [];

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

  /** Runs one round trip to shared state, recorded with what it was for (in the place listTrip() gave it, if any). */
  async trip<T>(kind: Trip, desc: string, call: () => Promise<T>): Promise<T> {
    const start = this.now();
    try {
      return await call();
    } finally {
      const durationMs = this.now() - start;
      const listed = this.#trips.find((t) => !t.made && t.kind === kind && t.desc === desc);
      if (listed) Object.assign(listed, { ms: durationMs, made: true });
      else this.#trips.push({ kind, ms: durationMs, desc, made: true });
    }
  }

  /** Lists a round trip the request makes only sometimes, here and whether or not it is made (0 when not). */
  listTrip(kind: Trip, desc: string): void {
    this.#trips.push({ kind, ms: 0, desc, made: false });
  }

  /** The header's value: the round trips made (and listed), the stages reached, and the total so far. */
  header(): string {
    const waitMs = this.#stages.get('queue') ?? 0;
    const shown = (stage: Stage) => (stage === 'queue' ? queueShown(waitMs) : this.#stages.get(stage)!);
    const stages = STAGES.filter((s) => this.#stages.has(s)).map((s) => `${s};dur=${ms(shown(s))}`);
    const trips = this.#trips.map((t) => `${t.kind};dur=${ms(t.ms)};desc="${t.desc.replaceAll(/["\\]/g, '')}"`);
    const totalMs = this.now() - this.#startMs - waitMs + queueShown(waitMs);
    return [...trips, ...stages, `total;dur=${ms(totalMs)}`].join(', ');
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
