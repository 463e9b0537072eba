import { FAIL_CPU, FAIL_UNSUPPORTED, PROGRESS_KIND_MASK, PROGRESS_SCAN_START } from './abi';
import type { JobWork } from './cpu-model';
import { EngineFailure } from './host-io';

/**
 * How often a job hands the event loop back: about every HOLD_TARGET_MS of its running time, so that no
 * request waits much more behind it (decisions.md: at least every 50 ms), while each hand-back (a timer,
 * about 1.3 ms in workerd) costs the job under 5 %. The work between two hand-backs is counted in model
 * milliseconds, which run 1 to 15 times real ones depending on the path, the content and the phase (the
 * model is measured on the slowest content, with margins), so the watch learns the ratio from the clock,
 * for each kind of work apart, and each stage of a kind that runs at a pace of its own (progress.h): a job
 * alternates phases at different paces (a 24 MP photo to AVIF decodes a stripe of rows at 0.26 real ms a
 * counted one, then codes its cells at 0.1 to 0.18; libaom codes a cell's blocks, then searches its filters
 * and writes its bitstream up to 20 times as fast), and a ratio learned in one phase let the next hold the
 * loop 45 to 56 ms. At each resume it takes the time since the last one over the time it expected, and
 * scales the ratio of every kind counted in between by that; each kind keeps the largest ratio seen,
 * decaying slowly, by as much as it made of the slice (one slow turn of other requests does not shrink every
 * later slice, and a kind's tail in a slice of a faster one hardly shrinks it). The first slice of a kind
 * assumes real time is model time. One kind's phases do not run at one pace either, though: a progressive
 * JPEG's DC scans against its refinement scans, zlib's fast trials against its level-9 write (up to 6 times,
 * measured): decayed through a fast phase, the ratio would let the next slower one hold the loop 90 to 110
 * ms. So it never falls below SUSTAINED_SHARE of the sustained ratio: the largest the kind has kept over
 * two hand-backs in a row (one slow turn of other requests is not a phase), starting from the model's own
 * 1, and halving every SUSTAINED_HALF_LIFE_MS (a phase seen half a second ago still counts; a burst of
 * other requests does not shrink every later slice). A phase as slow as one seen lately, or as the model,
 * then holds the loop at most about HOLD_TARGET_MS / SUSTAINED_SHARE (33 ms); the rest of the way to 50 ms is
 * for content that slows a stage from one part of an image to the next (libaom's superblocks take up to 2
 * times as long from one part of a photo to another: at a target of 30 ms they held the loop 47 to 56 ms).
 * A hand-back costs about 0.07 ms of CPU (a timer's turn in workerd), so even slices of 2 ms at a job's
 * start cost little. `npm run bench` measures the longest hold on each path (docs/benchmarks.md).
 */
export const HOLD_TARGET_MS = 25;
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
  /** At each hand-back, the kind (or stage of a kind) whose report found the event loop due. */
  readonly handBacks: number[] = [];
  private sinceYieldMs = 0;
  /** The real milliseconds the slice being counted is expected to take, and the kinds (or stages) counted in it. */
  private expectedMs = 0;
  private paced = new Map<number, number>();
  /** The same of the slice that just ended. */
  private lastExpectedMs = 0;
  private lastPaced = new Map<number, number>();
  private readonly paces = new Map<number, Pace>();
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
    this.stopAtMs = FAR_PAST_FACTOR * work.ms + FAR_PAST_SLACK_MS;
  }

  /** The `progress` import: counts `units` of `reported` (a kind, or a stage of one); 1 when the event loop is due back. */
  progress(reported: number, units: number): number {
    const kind = reported & PROGRESS_KIND_MASK;
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
    if (ms > 0) {
      const expected = ms * this.pace(reported).ratio;
      this.paced.set(reported, (this.paced.get(reported) ?? 0) + expected);
      this.expectedMs += expected;
    }
    if (this.workMs > this.stopAtMs) {
      throw new EngineFailure(
        FAIL_CPU,
        `it was stopped after more than ${FAR_PAST_FACTOR} times the work its header promised (about ${seconds(this.work.ms)} s of CPU)`,
      );
    }
    if (this.sinceYieldMs < SLICE_RANGE_MS[0] || (this.expectedMs < HOLD_TARGET_MS && this.sinceYieldMs < SLICE_RANGE_MS[1])) return 0;
    this.longestSliceMs = Math.max(this.longestSliceMs, this.sinceYieldMs);
    [this.lastPaced, this.paced] = [this.paced, this.lastPaced];
    this.paced.clear();
    this.lastExpectedMs = this.expectedMs;
    this.expectedMs = 0;
    this.sinceYieldMs = 0;
    // Where the clock stands still while code runs (Workers), this is the time of the last resume.
    const elapsedMs = this.clock() - this.startedMs;
    if (elapsedMs > this.limits.budgetMs) {
      throw new EngineFailure(FAIL_CPU, `it was stopped after ${seconds(elapsedMs)} s, past the ${seconds(this.limits.budgetMs)} s of CPU allowed here`);
    }
    this.handBacks.push(reported);
    return 1;
  }

  /** The job runs again after a hand-back: the clock has moved across it, in Workers too. */
  resumed(): void {
    const now = this.clock();
    const tookMs = now - this.resumedAtMs;
    this.resumedAtMs = now;
    if (tookMs <= 0 || this.lastExpectedMs <= 0) return;
    // Which kind of the slice took longer or shorter than expected the clock cannot tell: every kind in it is scaled.
    const correction = tookMs / this.lastExpectedMs;
    for (const [kind, expectedMs] of this.lastPaced) {
      const pace = this.pace(kind);
      const turnRatio = pace.ratio * correction;
      const decayed = pace.sustainedRatio * 0.5 ** ((now - pace.sustainedAtMs) / SUSTAINED_HALF_LIFE_MS);
      pace.sustainedRatio = Math.max(decayed, Math.min(turnRatio, pace.lastTurnRatio));
      pace.sustainedAtMs = now;
      pace.lastTurnRatio = turnRatio;
      pace.ratio = Math.max(turnRatio, pace.ratio * RATIO_DECAY ** (expectedMs / this.lastExpectedMs), SUSTAINED_SHARE * pace.sustainedRatio);
    }
  }

  private pace(kind: number): Pace {
    let pace = this.paces.get(kind);
    if (!pace) this.paces.set(kind, (pace = { ratio: 1, lastTurnRatio: 0, sustainedRatio: 1, sustainedAtMs: this.resumedAtMs }));
    return pace;
  }

  /** After the job: the last slice counts too. */
  finish(): void {
    this.longestSliceMs = Math.max(this.longestSliceMs, this.sinceYieldMs);
  }
}

/** What the watch has learned of one kind of work's pace, in real milliseconds per counted one. */
interface Pace {
  /** The largest seen, decaying. */
  ratio: number;
  /** That of the last turn, and the sustained one (decaying) with the time it was last updated. */
  lastTurnRatio: number;
  sustainedRatio: number;
  sustainedAtMs: number;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
