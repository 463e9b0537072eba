import { ApiError } from '../../errors/api-error';
import type { ImageEngine } from '../engine';
import type { ImageHeader, OutputSpec } from '../types';
import {
  FAIL_MEMORY,
  FAIL_UNSUPPORTED,
  FLAG_MOZJPEG,
  FLAG_OWN_WEBP_ALPHA,
  FLAG_PROGRESSIVE,
  FLAG_WEBP_LOW_MEMORY,
  FORMAT_CODES,
  ORIENTATION_SHIFT,
  type EngineExports,
} from './abi';
import { EngineFailure, HostIo } from './host-io';
import { type EncoderPlan, estimatePeakBytes, planEncoder } from './memory-model';

/** An ImageEngine on codecs/dist/engine.wasm, with what tests and the bench need to look inside. */
export interface WasmEngine extends ImageEngine {
  /** WASM memory of the live instance: its high-water mark, since memory never shrinks. */
  memoryBytes(): number;
  /** What the last successful job used: WASM memory after it and the most output buffer bytes. */
  lastJob(): { wasmBytes: number; outputBufferBytes: number };
}

/**
 * One instance is reused across jobs (the pipeline runs one job at a time per isolate).
 * After any failure inside the module the instance is dropped: C code that threw out of a
 * codec leaves its allocations behind, so the next job starts from a fresh one.
 */
export function createWasmEngine(
  module: WebAssembly.Module,
  /** Tests pin the encoder (e.g. libjpeg-turbo, to compare with cjpeg); the service never does. */
  plan: (header: ImageHeader, out: OutputSpec) => EncoderPlan = planEncoder,
): WasmEngine {
  let live: { exports: EngineExports; io: HostIo } | undefined;
  let last = { wasmBytes: 0, outputBufferBytes: 0 };

  function instance(): { exports: EngineExports; io: HostIo } {
    if (!live) {
      const io = new HostIo();
      const exports = new WebAssembly.Instance(module, io.imports()).exports as unknown as EngineExports;
      io.exports = exports;
      live = { exports, io };
    }
    return live;
  }

  return {
    estimatePeakBytes,

    async transcode(input, header, out) {
      const { exports, io } = instance();
      const chosen = plan(header, out);
      const flags =
        (chosen.mozjpeg ? FLAG_MOZJPEG : 0) |
        (chosen.progressive ? FLAG_PROGRESSIVE : 0) |
        (chosen.ownWebpAlpha ? FLAG_OWN_WEBP_ALPHA : 0) |
        (chosen.webpLowMemory ? FLAG_WEBP_LOW_MEMORY : 0) |
        ((out.orientation ?? 1) << ORIENTATION_SHIFT);
      io.start(input);
      try {
        exports.transcode(FORMAT_CODES[header.format], FORMAT_CODES[out.format], out.quality, out.width, out.height, flags);
        const output = io.finish();
        last = { wasmBytes: exports.memory.buffer.byteLength, outputBufferBytes: io.peakOutputBytes };
        return output;
      } catch (error) {
        live = undefined;
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

    memoryBytes: () => live?.exports.memory.buffer.byteLength ?? 0,
    lastJob: () => last,
  };
}
