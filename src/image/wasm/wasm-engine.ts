import { ApiError } from '../../errors/api-error';
import { PAID_CPU_BUDGET_MS } from '../../limits/cpu';
import type { ImageEngine } from '../engine';
import { libjpegTurboQuality } from '../quality-scale';
import { rgbaWord, storedWindow, uprightWindow } from '../steps/geometry';
import { webpLoopCount } from '../steps/frame-area';
import { type Box, type ImageHeader, type OutputSpec, WHITE, isAvif, isGifHeader } from '../types';
import {
  FAIL_CPU,
  FAIL_MEMORY,
  FAIL_UNSUPPORTED,
  FLAG_JPEG_ADAPTIVE_QUANTIZATION,
  FLAG_JPEG_ALIGN,
  FLAG_JPEG_DC_LEVELS,
  FLAG_JPEG_DC_LEVELS_FLAT,
  FLAG_JPEG_DC_LEVELS_SMOOTH,
  FLAG_JPEG_OPTIMIZE,
  FLAG_JPEG_RECODE,
  FLAG_LIBJPEG_TURBO,
  FLAG_OWN_WEBP_ALPHA,
  FLAG_ATTEND,
  FLAG_ANIMATED,
  FLAG_PROGRESSIVE,
  FLAG_WEBP_LOW_MEMORY,
  FORMAT_CODES,
  FORMAT_RAW,
  ORIENTATION_SHIFT,
  type EngineExports,
} from './abi';
import { avifApertureOffset, avifInput, avifStoredSize } from './avif-input';
import { AVIF_TUNE, AVIF_YUV444, planAvif } from './avif-plan';
import { EngineMemory } from './engine-memory';
import { type JobWork, attentionWork, estimateCpuMs, jobWork, subjectInJobWork, windowWork } from './cpu-model';
import { EngineFailure, HostIo } from './host-io';
import { JobWatch } from './job-watch';
import { promising } from './jspi';
import {
  type EncoderPlan,
  type JpegPlan,
  RETIRE_AFTER_BYTES,
  estimatePeakBytes,
  planEncoder,
  plannedOutputBytes,
  subjectInJob,
  subjectPeakBytes,
} from './memory-model';
import { nextTurn } from '../next-turn';
import { Turns } from '../turns';

/**
 * jpegli's adaptive quantisation, off: on, it makes the dark star field 1.22x the mozjpeg engine's bytes at equal
 * SSIMULACRA2 and the median miss issue 15's 0.94 (0.955 at service 80), for about 1 % less at equal butteraugli
 * (docs/benchmarks.md, "JPEG encoder: jpegli against the mozjpeg engine").
 */
export const JPEGLI_ADAPTIVE_QUANTIZATION = false;

const JPEG_FLAGS: Record<JpegPlan, number> = {
  progressive: FLAG_PROGRESSIVE,
  optimized: FLAG_JPEG_OPTIMIZE,
  streaming: 0,
  baseline: FLAG_LIBJPEG_TURBO,
};

const DC_LEVEL_FLAGS: Record<NonNullable<OutputSpec['dcOnLevels']>, number> = {
  detailed: FLAG_JPEG_DC_LEVELS,
  smooth: FLAG_JPEG_DC_LEVELS | FLAG_JPEG_DC_LEVELS_SMOOTH,
  flat: FLAG_JPEG_DC_LEVELS | FLAG_JPEG_DC_LEVELS_SMOOTH | FLAG_JPEG_DC_LEVELS_FLAT,
};

/** An ImageEngine on codecs/dist/engine.wasm, with what tests and the bench need to look inside. */
export interface WasmEngine extends ImageEngine {
  /** WASM memory the engine holds for its next job (0 once a large job's memory has been retired). */
  memoryBytes(): number;
  /**
   * What the last job used (a failed one too): the WASM memory it needed (the top of the instance's heap;
   * the job's alone when it ran on a fresh instance), its output buffer at its largest, how many times it
   * decoded the input, its predicted and counted work (model ms), the most work it did between two
   * hand-backs of the event loop, and how many hand-backs it made.
   */
  lastJob(): JobReport;
  /** The most the engine held (WASM memory and counted JS buffers) since the last call. */
  takePeak(): number;
  /** How many jobs the engine has started: a refusal before any engine work leaves it unchanged. */
  jobsStarted(): number;
  /** A job is in the engine (suspended while it has handed the event loop back, or running). */
  jobRunning(): boolean;
  /** Units of work the job in the engine has reported so far, by kind (abi.ts PROGRESS_*); none between jobs. */
  runningUnits(): Record<number, number>;
}

export interface JobReport {
  wasmBytes: number;
  outputBufferBytes: number;
  inputPasses: number;
  predictedMs: number;
  workMs: number;
  longestSliceMs: number;
  yields: number;
  /** Units of work the stages reported, by kind (abi.ts PROGRESS_*). */
  units: Record<number, number>;
  /** At each hand-back of the event loop, the kind (or stage of a kind: progress.h) whose report found it due. */
  handBacks: readonly number[];
}

export interface WasmEngineOptions {
  /** Tests pin the encoder (e.g. libjpeg-turbo, to compare with cjpeg); the service never does. */
  plan?: (header: ImageHeader, out: OutputSpec) => EncoderPlan;
  /** An instance whose memory grew past this is retired after its job (tests: 0, a fresh one per job). */
  retireAfterBytes?: number;
  /** The budget the memory is capped at (tests of the enforcement use smaller ones). */
  budgetBytes?: number;
  /** jpegli's adaptive quantisation (the bench measures both); JPEGLI_ADAPTIVE_QUANTIZATION by default. */
  jpegAdaptiveQuantization?: boolean;
  /** How a job hands the event loop back (under JSPI): a timer, which lets other requests' events in. */
  yieldToEventLoop?: () => Promise<void>;
  /** The clock the watch reads at hand-backs (job-watch.ts). */
  clock?: () => number;
  /** Tests of the watch scale the predicted work down (1: the model's). */
  predictionScale?: number;
  /** How long a job may hand nothing back before it is failed (SILENCE_MS; tests use less). */
  silenceMs?: number;
  /** AVIF settings in place of the plan's, AVIF_TUNE and AVIF_YUV444 (the bench measures variants). */
  avif?: { speed?: number; tune?: number; yuv444?: boolean };
}

/**
 * A job that hands nothing back for this long is failed: its hand-back was never resumed (as when workerd
 * cancelled a request's timers, before src/middleware/run-to-end.ts), and the queue behind it must move.
 * An honest job hands back every HOLD_TARGET_MS of work (job-watch.ts), far more often.
 */
export const SILENCE_MS = 5000;

class EngineStalled extends Error {}

/** A window decoded as it is stored, priced as a lossless PNG of it (the raw rows are no more than its worst). */
const windowSpec = (window: Box): OutputSpec => ({ format: 'png', quality: 100, width: window.width, height: window.height, window });
const rawBytes = (window: Box) => window.width * window.height * 3;

/** The job's result, or EngineStalled once it has been silent (no hand-back begun or ended) for silenceMs. */
function watchdog<T>(io: HostIo, silenceMs: number, job: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => reject(new EngineStalled(`no hand-back for ${silenceMs} ms`)), silenceMs);
    };
    io.onHandBack = arm;
    arm();
  });
  return Promise.race([job, stalled]).finally(() => {
    clearTimeout(timer);
    io.onHandBack = () => {};
  });
}

/**
 * The picture the module decodes and where the header's stored image lies in it: an AVIF's whole picture, its
 * clean aperture a window of it. Its bytes go in as the AV1 data alone (avif-input.ts).
 */
function decodedPicture(header: ImageHeader): { width: number; height: number; left: number; top: number } {
  if (!isAvif(header)) return { width: header.width, height: header.height, left: 0, top: 0 };
  return { ...avifStoredSize(header), ...avifApertureOffset(header) };
}

/** What the module or the watch reported, as the API's error. */
function asApiError(error: unknown, header: ImageHeader): unknown {
  if (!(error instanceof EngineFailure)) return error;
  switch (error.kind) {
    case FAIL_UNSUPPORTED:
      return new ApiError('unsupported_image', `The ${header.format.toUpperCase()} data cannot be decoded: ${error.message}.`, { cause: error });
    case FAIL_MEMORY:
      return new ApiError('image_too_large', 'The image needs more memory than the service has for one image.', { cause: error });
    case FAIL_CPU:
      return new ApiError('image_too_large', `The image took too long to process: ${error.message}. Send a smaller image, or a smaller maxWidth/maxHeight.`, {
        cause: error,
      });
    default:
      return error;
  }
}

/**
 * One instance is reused across jobs (the pipeline runs one job at a time per isolate) while its memory
 * stays small. After a job that grew it past RETIRE_AFTER_BYTES, and after any failure inside the module
 * (C code that threw out of a codec leaves its allocations behind), the instance is dropped and its
 * memory retired (engine-memory.ts); the next job starts from a fresh instance.
 */
export function createWasmEngine(module: WebAssembly.Module, options: WasmEngineOptions = {}): WasmEngine {
  const plan = options.plan ?? planEncoder;
  const retireAfter = options.retireAfterBytes ?? RETIRE_AFTER_BYTES;
  const adaptiveQuantization = options.jpegAdaptiveQuantization ?? JPEGLI_ADAPTIVE_QUANTIZATION;
  const clock = options.clock ?? Date.now;
  const memory = new EngineMemory(options.budgetBytes);
  const yieldToEventLoop = options.yieldToEventLoop ?? nextTurn;
  const silenceMs = options.silenceMs ?? SILENCE_MS;
  let live:
    | {
        exports: EngineExports;
        io: HostIo;
        transcode: (...args: Parameters<EngineExports['transcode']>) => Promise<void>;
        attend: (...args: Parameters<EngineExports['attend']>) => Promise<void>;
      }
    | undefined;
  let last: JobReport = { wasmBytes: 0, outputBufferBytes: 0, inputPasses: 0, predictedMs: 0, workMs: 0, longestSliceMs: 0, yields: 0, units: {}, handBacks: [] };
  let started = 0;
  let watching: JobWatch | undefined;
  // A job may wait, suspended, for its turn of the event loop: the next one starts after it ends.
  const turns = new Turns();

  function instance() {
    if (!live) {
      // Each instance has its own host I/O: a discarded instance that resumes late cannot touch the next job's.
      const io = new HostIo(memory, yieldToEventLoop);
      const exports = new WebAssembly.Instance(module, io.imports(memory.acquire())).exports as unknown as EngineExports;
      live = { exports, io, transcode: promising(exports.transcode), attend: promising(exports.attend) };
    }
    return live;
  }

  function retire(): void {
    live = undefined;
    memory.retire();
  }

  /**
   * gravity=auto: in the transcode, on its one decode, where the image it keeps fits (a JPEG's thumbnail); else the
   * attention job first (codecs/src/attention.c: its output the window's stored left and top), then the transcode.
   */
  async function subjectJob(input: Uint8Array, header: ImageHeader, out: OutputSpec, cpuBudgetMs: number, profile?: Uint8Array): Promise<{ bytes: Uint8Array; window: Box }> {
    const window = storedWindow(header, out);
    // The engine places the window in the picture it decodes: an AVIF's clean aperture lies inside it, the window kept within that.
    const stored = decodedPicture(header);
    const within = (at: number, offset: number, room: number) => Math.min(Math.max(0, at - offset), room);
    const upright = (left: number, top: number) =>
      uprightWindow(header, out.orientation ?? 1, { ...window, left: within(left, stored.left, header.width - window.width), top: within(top, stored.top, header.height - window.height) });
    const chosen = plan(header, out);
    // An AVIF's clean aperture is cut by the transcode's window, which the one-job subject would move outside it.
    if (subjectInJob(header, out, chosen) && !(isAvif(header) && header.heif.clap)) {
      let placed: Box = window;
      const bytes = await run(input, header, out, cpuBudgetMs, profile, {
        work: subjectInJobWork(header, out, chosen),
        flags: FLAG_ATTEND,
        done: (exports) => (placed = upright(exports.window_left(), exports.window_top())),
      });
      return { bytes, window: placed };
    }
    const started = clock();
    const place = await run(input, header, out, cpuBudgetMs, undefined, {
      work: attentionWork(header),
      call: ({ attend }) => attend(FORMAT_CODES[header.format], stored.width, stored.height, window.width, window.height),
    });
    const at = new DataView(place.buffer, place.byteOffset, place.byteLength);
    const found = upright(at.getInt32(0, true), at.getInt32(4, true));
    const bytes = await run(input, header, { ...out, window: found }, cpuBudgetMs - (clock() - started), profile);
    return { bytes, window: found };
  }

  async function run(
    input: Uint8Array,
    header: ImageHeader,
    out: OutputSpec,
    cpuBudgetMs: number,
    profile: Uint8Array | undefined,
    job: {
      /** The job's predicted work, when it is not a plain transcode's. */
      work?: JobWork;
      /** Another entry point than transcode (the attention job). */
      call?: (engine: NonNullable<typeof live>) => Promise<void>;
      flags?: number;
      /** Reads what the module left of the job once it has succeeded. */
      done?: (exports: EngineExports) => void;
      /** The most it writes, when it is not out's encoding (a raw window). */
      outputBytes?: number;
    } = {},
  ): Promise<Uint8Array> {
    started++;
    const engine = instance();
    const { exports, io, transcode } = engine;
    const chosen = plan(header, out);
    const flags =
      (out.format === 'jpeg' ? JPEG_FLAGS[chosen.jpeg] : 0) |
      (adaptiveQuantization ? FLAG_JPEG_ADAPTIVE_QUANTIZATION : 0) |
      (chosen.ownWebpAlpha ? FLAG_OWN_WEBP_ALPHA : 0) |
      (chosen.webpLowMemory ? FLAG_WEBP_LOW_MEMORY : 0) |
      (out.recode ? FLAG_JPEG_RECODE : 0) |
      (out.alignSteps ? FLAG_JPEG_ALIGN : 0) |
      (out.dcOnLevels ? DC_LEVEL_FLAGS[out.dcOnLevels] : 0) |
      (out.animated ? FLAG_ANIMATED : 0) |
      (job.flags ?? 0) |
      ((out.orientation ?? 1) << ORIENTATION_SHIFT);
    const work = job.work ?? jobWork(header, out, chosen);
    const scale = options.predictionScale ?? 1;
    const watch = new JobWatch({ ...work, ms: work.ms * scale }, { budgetMs: cpuBudgetMs, scans: header.scans }, clock);
    const report = () => {
      watch.finish();
      last = { ...last, predictedMs: work.ms, workMs: watch.workMs, longestSliceMs: watch.longestSliceMs, yields: io.yields, units: watch.units, handBacks: watch.handBacks };
    };
    watching = watch;
    const stored = decodedPicture(header);
    io.start(isAvif(header) ? avifInput(input, header) : input, job.outputBytes ?? plannedOutputBytes(header, out, chosen), watch, profile);
    try {
      let quality = out.format === 'jpeg' && chosen.jpeg === 'baseline' && !out.recode ? libjpegTurboQuality(out.quality) : out.quality;
      if (out.format === 'avif') {
        const avif = { ...planAvif(out.width, out.height, out.quality), tune: AVIF_TUNE, yuv444: AVIF_YUV444, ...options.avif };
        exports.avif_options(avif.speed, avif.tune, avif.cellWidth, avif.cellHeight, avif.yuv444 ? 1 : 0);
        quality = avif.quality;
      }
      if (out.animated && isGifHeader(header)) exports.anim_options(header.gif.frameCount, webpLoopCount(header.gif.loopCount));
      const window = storedWindow(header, out);
      const placed = out.placed ?? { left: 0, top: 0, width: out.width, height: out.height };
      exports.geometry(window.left + stored.left, window.top + stored.top, window.width, window.height, out.width, out.height, placed.left, placed.top, rgbaWord(out.background ?? WHITE));
      await watchdog(io, silenceMs, job.call ? job.call(engine) : transcode(FORMAT_CODES[header.format], FORMAT_CODES[out.format], quality, placed.width, placed.height, flags, stored.width, stored.height));
      last = { ...last, wasmBytes: exports.heap_top(), outputBufferBytes: io.peakOutputBytes, inputPasses: io.inputPasses };
      job.done?.(exports);
      report();
      const output = io.finish();
      if (memory.wasmBytes() > retireAfter) retire();
      return output;
    } catch (error) {
      report();
      // A memory retired after an earlier job, revived before the collector reclaimed it, keeps the size that job
      // grew it to: room this job never needed, which a fresh memory would have left it (issue 35 item 7).
      const carried = error instanceof EngineFailure && error.kind === FAIL_MEMORY && memory.refusedOnlyBeside(exports.heap_top());
      io.end();
      if (error instanceof EngineStalled) {
        // Its stack may still be suspended in the instance: neither it nor its memory is used again.
        live = undefined;
        memory.abandon();
        throw new ApiError('service_unavailable', `The engine stopped answering for ${silenceMs / 1000} s; nothing was charged. Try again in 1 s.`, {
          headers: { 'Retry-After': '1' },
          cause: error,
        });
      }
      retire();
      if (carried) {
        // The collector's timing, not the image: answered as busy, not as too large.
        throw new ApiError('service_unavailable', 'The engine is still holding memory an earlier image needed; nothing was charged. Try again in 1 s.', {
          headers: { 'Retry-After': '1' },
          cause: error,
        });
      }
      throw asApiError(error, header);
    } finally {
      watching = undefined;
    }
  }

  return {
    estimatePeakBytes: (header, out) => estimatePeakBytes(header, out, plan(header, out)),
    estimateCpuMs: (header, out) => estimateCpuMs(header, out, plan(header, out)),
    estimateSubject: (header, out) => {
      const chosen = plan(header, out);
      const inJob = subjectInJob(header, out, chosen);
      const cpuMs = inJob ? Math.ceil(subjectInJobWork(header, out, chosen).ms) : Math.ceil(attentionWork(header).ms) + estimateCpuMs(header, out, chosen);
      return { peakBytes: subjectPeakBytes(header, out, chosen), cpuMs };
    },

    estimateWindow: (header, window) => {
      const out = windowSpec(window);
      return { peakBytes: estimatePeakBytes(header, out, plan(header, out)) + rawBytes(window), cpuMs: Math.ceil(windowWork(header, out).ms) };
    },
    decodeWindow: (input, header, window, limits = {}) =>
      turns.run(() => {
        const stored = decodedPicture(header);
        return run(input, header, windowSpec(window), limits.cpuBudgetMs ?? PAID_CPU_BUDGET_MS, undefined, {
          work: windowWork(header, windowSpec(window)),
          outputBytes: rawBytes(window),
          call: ({ transcode }) => transcode(FORMAT_CODES[header.format], FORMAT_RAW, 100, window.width, window.height, 0, stored.width, stored.height),
        });
      }),

    holdJs: (bytes) => memory.holdJs(bytes),

    transcode: (input, header, out, limits = {}) => turns.run(() => run(input, header, out, limits.cpuBudgetMs ?? PAID_CPU_BUDGET_MS, limits.profile)),
    transcodeToSubject: (input, header, out, limits = {}) => turns.run(() => subjectJob(input, header, out, limits.cpuBudgetMs ?? PAID_CPU_BUDGET_MS, limits.profile)),

    memoryBytes: () => memory.liveBytes(),
    lastJob: () => last,
    takePeak: () => memory.takePeak(),
    jobsStarted: () => started,
    jobRunning: () => watching !== undefined,
    runningUnits: () => ({ ...watching?.units }),
  };
}
