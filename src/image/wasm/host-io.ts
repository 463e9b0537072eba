import { FAIL_INTERNAL, FAIL_MEMORY, type EngineExports } from './abi';

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

/** An ArrayBuffer that grows in place (ES2024; in V8 and workerd), so output is never copied to grow. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

/** Address space reserved for one output; pages are committed only as the output grows. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;
/** The buffer grows in place (nothing is copied) by this much, so it stays close to the output. */
const GROWTH_BYTES = 1024 * 1024;

/**
 * The JS side of codecs/src/host.h for one job: the module pulls the input from here and
 * pushes the output here, so neither file is copied whole into WASM memory.
 */
export class HostIo {
  private input: Uint8Array = new Uint8Array(0);
  private position = 0;
  private output: ArrayBuffer = new ResizableArrayBuffer(0, { maxByteLength: 0 });
  /** The module announced the output's exact size: `output` is a fixed buffer of that size. */
  private reserved = false;
  private length = 0;
  /** What JS held for the output at its most: the grown buffer and the final copy. */
  peakOutputBytes = 0;
  exports?: EngineExports;

  start(input: Uint8Array): void {
    this.input = input;
    this.position = 0;
    this.output = new ResizableArrayBuffer(GROWTH_BYTES, { maxByteLength: MAX_OUTPUT_BYTES });
    this.reserved = false;
    this.length = 0;
  }

  /**
   * The output in a fixed-length buffer: Web APIs (Response, crypto) refuse resizable ones,
   * so a grown output is copied once, at the end; both exist for that moment.
   */
  finish(): Uint8Array {
    const exact = this.reserved && this.length === this.output.byteLength;
    const out = exact ? new Uint8Array(this.output) : new Uint8Array(this.output.slice(0, this.length));
    this.peakOutputBytes = exact ? out.byteLength : this.output.byteLength + out.byteLength;
    this.input = new Uint8Array(0);
    this.output = new ResizableArrayBuffer(0, { maxByteLength: 0 });
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
        output_reserve: (total: number) => {
          if (this.length > 0 || total > MAX_OUTPUT_BYTES) return;
          this.output = new ArrayBuffer(total);
          this.reserved = true;
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
          throw new EngineFailure(FAIL_INTERNAL, `the codec module aborted (${code})`);
        },
      },
    };
  }

  private append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.output.byteLength) {
      if (this.reserved) throw new EngineFailure(FAIL_INTERNAL, 'the output is larger than announced');
      if (needed > MAX_OUTPUT_BYTES) throw new EngineFailure(FAIL_MEMORY, 'the output is larger than the service returns');
      (this.output as ResizableArrayBuffer).resize(Math.min(MAX_OUTPUT_BYTES, Math.max(needed, this.output.byteLength + GROWTH_BYTES)));
    }
    new Uint8Array(this.output).set(bytes, this.length);
    this.length = needed;
  }
}
