import { FAIL_CPU, FAIL_UNSUPPORTED, PROGRESS_SCAN_START } from './abi';
import type { JobWork } from './cpu-model';
import { EngineFailure } from './host-io';

/**
 * How often a job hands the event loop back: about every HOLD_TARGET_MS of its running time, so that no
 * request waits much more behind it (decisions.md: at least every 50 ms), while each hand-back (a timer,
 * about 1.3 ms in workerd) costs the job under 5 %. The work between two hand-backs is counted in model
 * milliseconds, which run 1 to 15 times real ones depending on the path and the phase (the model is
 * measured on the slowest content, with margins), so the watch learns the ratio from the clock: at each
 * resume it takes the time since the last one over the work counted in between, and keeps the largest
 * ratio seen, decaying slowly (one slow turn of other requests does not shrink every later slice). The
 * first slice assumes real time is model time. A job's phases do not run at one pace, though: a
 * progressive JPEG's DC scans against its refinement scans, zlib's fast trials against its level-9 write
 * (up to 6 times, measured): decayed through a fast phase, the ratio would let the next slower one hold
 * the loop 90 to 110 ms. So it never falls below SUSTAINED_SHARE of the sustained ratio: the largest this
 * job has kept over two hand-backs in a row (one slow turn of other requests is not a phase), starting
 * from the model's own 1, and halving every SUSTAINED_HALF_LIFE_MS (a phase seen half a second ago still
 * counts; a burst of other requests does not shrink every later slice). A phase as slow as one seen
 * lately, or as the model, then holds the loop at most about HOLD_TARGET_MS / SUSTAINED_SHARE. A hand-back
 * costs about 0.07 ms of CPU (a timer's turn in workerd), so even slices of 2 ms at a job's start cost
 * little. `npm run bench` measures the longest hold on each path (docs/benchmarks.md).
 */
export const HOLD_TARGET_MS = 30;
const RATIO_DECAY = 0.8;
const SUSTAINED_SHARE = 0.75;
const SUSTAINED_HALF_LIFE_MS = 500;
const SLICE_RANGE_MS = [2, 5000] as const;

/**
 * A job is stopped once its counted work passes this many times its prediction, and this much more: an
 * honest job's count comes to about its prediction (the counts follow the header: rows, scans, blocks,
 * macroblocks), so only work its header hid gets there.
 */
export const FAR_PAST_FACTOR = 2;
export const FAR_PAST_SLACK_MS = 250;

export interface WatchLimits {
  /** The CPU time this job may take: the request's budget less what its earlier jobs took. */
  budgetMs: number;
  /** The scans the header walk counted: a decoder that meets more is reading something else. */
  scans: number;
}

/**
 * The run-time half of the CPU budget, for one job. The engine's stages report their work as they go
 * (codecs/src/progress.h); the watch counts it in model milliseconds against the job's prediction,
 * deterministically, and every slice of it (HOLD_TARGET_MS) says the event loop is due back. There it also
 * reads the clock: in Workers the clock only moves across I/O, and the hand-back is one, so what it reads
 * there is the time since the job started, to the last resume (other requests' turns in between
 * included; jobs run one at a time per isolate). A job past its budget or far past its prediction is
 * stopped with FAIL_CPU, which the engine answers with 413 image_too_large.
 */
export class JobWatch {
  /** Counted work so far, in model milliseconds. */
  workMs = 0;
  /** The most work counted between two hand-backs. */
  longestSliceMs = 0;
  /** Units reported, by kind (abi.ts PROGRESS_*). */
  readonly units: Record<number, number> = {};
  private sinceYieldMs = 0;
  /** Real milliseconds per counted one, the largest seen (decaying), and the work of the slice that just ended. */
  private ratio = 1;
  private lastSliceMs = 0;
  /** The ratio of the last turn, and the sustained one (decaying) with the time it was last updated. */
  private lastTurnRatio = 0;
  private sustainedRatio = 1;
  private sustainedAtMs: number;
  private readonly startedMs: number;
  private resumedAtMs: number;
  private readonly stopAtMs: number;

  constructor(
    private readonly work: JobWork,
    private readonly limits: WatchLimits,
    private readonly clock: () => number,
  ) {
    this.startedMs = clock();
    this.resumedAtMs = this.startedMs;
    this.sustainedAtMs = this.startedMs;
    this.stopAtMs = FAR_PAST_FACTOR * work.ms + FAR_PAST_SLACK_MS;
  }

  /** The `progress` import: counts `units` of `kind`; 1 when the event loop is due back. */
  progress(kind: number, units: number): number {
    if (kind === PROGRESS_SCAN_START) {
      if (units > this.limits.scans) {
        throw new EngineFailure(FAIL_UNSUPPORTED, `the decoder met scan ${units}, past the ${this.limits.scans} its header has`);
      }
      return 0;
    }
    this.units[kind] = (this.units[kind] ?? 0) + units;
    const ms = units * (this.work.msPerUnit[kind] ?? 0);
    if (!this.work.timingOnly?.includes(kind)) this.workMs += ms;
    this.sinceYieldMs += ms;
    if (this.workMs > this.stopAtMs) {
      throw new EngineFailure(
        FAIL_CPU,
        `it was stopped after more than ${FAR_PAST_FACTOR} times the work its header promised (about ${seconds(this.work.ms)} s of CPU)`,
      );
    }
    if (this.sinceYieldMs < Math.min(SLICE_RANGE_MS[1], Math.max(SLICE_RANGE_MS[0], HOLD_TARGET_MS / this.ratio))) return 0;
    this.longestSliceMs = Math.max(this.longestSliceMs, this.sinceYieldMs);
    this.lastSliceMs = this.sinceYieldMs;
    this.sinceYieldMs = 0;
    // Where the clock stands still while code runs (Workers), this is the time of the last resume.
    const elapsedMs = this.clock() - this.startedMs;
    if (elapsedMs > this.limits.budgetMs) {
      throw new EngineFailure(FAIL_CPU, `it was stopped after ${seconds(elapsedMs)} s, past the ${seconds(this.limits.budgetMs)} s of CPU allowed here`);
    }
    return 1;
  }

  /** The job runs again after a hand-back: the clock has moved across it, in Workers too. */
  resumed(): void {
    const now = this.clock();
    const tookMs = now - this.resumedAtMs;
    this.resumedAtMs = now;
    if (tookMs <= 0 || this.lastSliceMs <= 0) return;
    const turnRatio = tookMs / this.lastSliceMs;
    const decayed = this.sustainedRatio * 0.5 ** ((now - this.sustainedAtMs) / SUSTAINED_HALF_LIFE_MS);
    this.sustainedRatio = Math.max(decayed, Math.min(turnRatio, this.lastTurnRatio));
    this.sustainedAtMs = now;
    this.lastTurnRatio = turnRatio;
    this.ratio = Math.max(turnRatio, this.ratio * RATIO_DECAY, SUSTAINED_SHARE * this.sustainedRatio);
  }

  /** After the job: the last slice counts too. */
  finish(): void {
    this.longestSliceMs = Math.max(this.longestSliceMs, this.sinceYieldMs);
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
