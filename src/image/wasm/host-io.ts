import type { EngineExports } from './abi';

/** What C reported through the `fail` import; thrown out of the WASM call. */
export class EngineFailure extends Error {
  constructor(
    readonly kind: number,
    message: string,
  ) {
    super(message);
    this.name = 'EngineFailure';
  }
}

/**
 * The JS side of codecs/src/host.h for one job: the module pulls the input from here and
 * pushes the output here, so neither file is copied whole into WASM memory.
 */
export class HostIo {
  private input: Uint8Array = new Uint8Array(0);
  private position = 0;
  private output = new Uint8Array(0);
  private length = 0;
  /** Most bytes the output buffers held at once during the job (old and new while growing). */
  peakOutputBytes = 0;
  exports?: EngineExports;

  /** `outputHint` sizes the first output buffer, so a good guess means no copy. */
  start(input: Uint8Array, outputHint: number): void {
    this.input = input;
    this.position = 0;
    this.output = new Uint8Array(Math.max(4096, Math.ceil(outputHint)));
    this.length = 0;
    this.peakOutputBytes = this.output.length;
  }

  /** The output, trimmed: a view when the buffer is well used, otherwise a copy. */
  finish(): Uint8Array {
    const out = this.length * 4 >= this.output.length * 3 ? this.output.subarray(0, this.length) : this.output.slice(0, this.length);
    this.input = new Uint8Array(0);
    this.output = new Uint8Array(0);
    return out;
  }

  imports(): WebAssembly.Imports {
    const memory = (): Uint8Array => new Uint8Array(this.exports!.memory.buffer);
    return {
      env: {
        input_size: () => this.input.length,
        input_read: (ptr: number, len: number) => {
          const n = Math.min(len, this.input.length - this.position);
          memory().set(this.input.subarray(this.position, this.position + n), ptr);
          this.position += n;
          return n;
        },
        input_rewind: () => {
          this.position = 0;
        },
        output_write: (ptr: number, len: number) => this.append(memory().subarray(ptr, ptr + len)),
        fail: (kind: number, ptr: number, len: number) => {
          throw new EngineFailure(kind, new TextDecoder().decode(memory().subarray(ptr, ptr + len)));
        },
      },
      // wasi-libc links these for paths the glue never takes (stdio, getenv, abort).
      wasi_snapshot_preview1: {
        environ_sizes_get: (countPtr: number, sizePtr: number) => {
          const view = new DataView(this.exports!.memory.buffer);
          view.setUint32(countPtr, 0, true);
          view.setUint32(sizePtr, 0, true);
          return 0;
        },
        environ_get: () => 0,
        fd_write: () => 8,
        fd_close: () => 8,
        fd_seek: () => 8,
        proc_exit: (code: number) => {
          throw new EngineFailure(3, `the codec module aborted (${code})`);
        },
      },
    };
  }

  private append(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.output.length) {
      const grown = new Uint8Array(Math.max(this.length + bytes.length, Math.ceil(this.output.length * 1.5)));
      grown.set(this.output.subarray(0, this.length));
      this.peakOutputBytes = Math.max(this.peakOutputBytes, this.output.length + grown.length);
      this.output = grown;
    }
    this.output.set(bytes, this.length);
    this.length += bytes.length;
  }
}
