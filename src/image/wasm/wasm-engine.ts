import { ApiError } from '../../errors/api-error';
import type { ImageEngine } from '../engine';
import { libjpegTurboQuality } from '../quality-scale';
import type { ImageHeader, OutputSpec } from '../types';
import {
  FAIL_MEMORY,
  FAIL_UNSUPPORTED,
  FLAG_JPEG_ADAPTIVE_QUANTIZATION,
  FLAG_JPEG_OPTIMIZE,
  FLAG_JPEG_RECODE,
  FLAG_JPEG_ALIGN,
  FLAG_LIBJPEG_TURBO,
  FLAG_OWN_WEBP_ALPHA,
  FLAG_PROGRESSIVE,
  FLAG_WEBP_LOW_MEMORY,
  FORMAT_CODES,
  ORIENTATION_SHIFT,
  type EngineExports,
} from './abi';
import { EngineMemory } from './engine-memory';
import { estimateCpuMs } from './cpu-model';
import { EngineFailure, HostIo } from './host-io';
import { type EncoderPlan, type JpegPlan, RETIRE_AFTER_BYTES, estimatePeakBytes, planEncoder, plannedOutputBytes } from './memory-model';

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

/** An ImageEngine on codecs/dist/engine.wasm, with what tests and the bench need to look inside. */
export interface WasmEngine extends ImageEngine {
  /** WASM memory the engine holds for its next job (0 once a large job's memory has been retired). */
  memoryBytes(): number;
  /**
   * What the last successful job used: the WASM memory it needed (the top of the instance's heap; the
   * job's alone when it ran on a fresh instance), its output buffer at its largest, and how many times
   * it decoded the input.
   */
  lastJob(): { wasmBytes: number; outputBufferBytes: number; inputPasses: number };
  /** The most the engine held (WASM memory and counted JS buffers) since the last call. */
  takePeak(): number;
  /** How many jobs the engine has started: a refusal before any engine work leaves it unchanged. */
  jobsStarted(): number;
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
  const memory = new EngineMemory(options.budgetBytes);
  const io = new HostIo(memory);
  let live: EngineExports | undefined;
  let last = { wasmBytes: 0, outputBufferBytes: 0, inputPasses: 0 };
  let started = 0;

  function instance(): EngineExports {
    live ??= new WebAssembly.Instance(module, io.imports(memory.acquire())).exports as unknown as EngineExports;
    return live;
  }

  function retire(): void {
    live = undefined;
    memory.retire();
  }

  return {
    estimatePeakBytes: (header, out) => estimatePeakBytes(header, out, plan(header, out)),
    estimateCpuMs: (header, out) => estimateCpuMs(header, out, plan(header, out)),

    holdJs: (bytes) => memory.holdJs(bytes),

    async transcode(input, header, out) {
      started++;
      const exports = instance();
      const chosen = plan(header, out);
      const flags =
        (out.format === 'jpeg' ? JPEG_FLAGS[chosen.jpeg] : 0) |
        (adaptiveQuantization ? FLAG_JPEG_ADAPTIVE_QUANTIZATION : 0) |
        (chosen.ownWebpAlpha ? FLAG_OWN_WEBP_ALPHA : 0) |
        (chosen.webpLowMemory ? FLAG_WEBP_LOW_MEMORY : 0) |
        (out.recode ? FLAG_JPEG_RECODE : 0) |
        (out.alignSteps ? FLAG_JPEG_ALIGN : 0) |
        ((out.orientation ?? 1) << ORIENTATION_SHIFT);
      io.start(input, out.recode ? header.fileBytes + 65536 : plannedOutputBytes(header, out, chosen));
      try {
        const quality = out.format === 'jpeg' && chosen.jpeg === 'baseline' && !out.recode ? libjpegTurboQuality(out.quality) : out.quality;
        exports.transcode(FORMAT_CODES[header.format], FORMAT_CODES[out.format], quality, out.width, out.height, flags, header.width, header.height);
        last = { wasmBytes: exports.heap_top(), outputBufferBytes: io.peakOutputBytes, inputPasses: io.inputPasses };
        const output = io.finish();
        if (memory.wasmBytes() > retireAfter) retire();
        return output;
      } catch (error) {
        io.end();
        retire();
        if (error instanceof EngineFailure && error.kind === FAIL_UNSUPPORTED) {
          throw new ApiError('unsupported_image', `The ${header.format.toUpperCase()} data cannot be decoded: ${error.message}.`, {
            cause: error,
          });
        }
        if (error instanceof EngineFailure && error.kind === FAIL_MEMORY) {
          throw new ApiError('image_too_large', 'The image needs more memory than the service has for one image.', { cause: error });
        }
        throw error;
      }
    },

    memoryBytes: () => memory.liveBytes(),
    lastJob: () => last,
    takePeak: () => memory.takePeak(),
    jobsStarted: () => started,
  };
}
