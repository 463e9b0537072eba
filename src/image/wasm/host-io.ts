import { FAIL_INTERNAL, FAIL_MEMORY } from './abi';
import type { EngineMemory } from './engine-memory';
import type { JobWatch } from './job-watch';
import { hasJspi, suspending } from './jspi';

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

/** The buffer grows in place (nothing is copied) by this much, so it stays close to the output. */
const GROWTH_BYTES = 1024 * 1024;

/**
 * The JS side of codecs/src/host.h for one job: the module pulls the input from here and pushes the
 * output here, so neither file is copied whole into WASM memory. The output may not pass the size the
 * job was planned with (the memory model's worst case for its format, quality and size), nor take the
 * engine past its budget: either fails the job with FAIL_MEMORY (a 413) at the write that would.
 */
export class HostIo {
  private input: Uint8Array = new Uint8Array(0);
  private position = 0;
  /** The ICC profile an encoder that writes its own container carries (AVIF), or none. */
  private profile: Uint8Array = new Uint8Array(0);
  private output: ArrayBuffer = new ArrayBuffer(0);
  private planned = 0;
  /** The module announced the output's exact size: `output` is a fixed buffer of that size. */
  private reserved = false;
  private length = 0;
  /** Releases the output buffer's count against the engine budget. */
  private releaseOutput: () => void = () => {};
  /** The output buffer at its largest in this job. */
  peakOutputBytes = 0;
  /** How many times the job read the input from its start (a decode pass each). */
  inputPasses = 0;
  /** How many times the job handed the event loop back. */
  yields = 0;
  /** Called as each hand-back begins and ends: the engine's watchdog sees the job is alive. */
  onHandBack: () => void = () => {};
  /** Counts the job's work and says when the event loop is due back (job-watch.ts). */
  private watch: JobWatch | undefined;

  constructor(
    private readonly memory: EngineMemory,
    private readonly yieldToEventLoop: () => Promise<void>,
  ) {}

  start(input: Uint8Array, plannedOutputBytes: number, watch: JobWatch, profile: Uint8Array = new Uint8Array(0)): void {
    this.watch = watch;
    this.yields = 0;
    this.input = input;
    this.position = 0;
    this.profile = profile;
    this.planned = plannedOutputBytes;
    this.output = new ResizableArrayBuffer(0, { maxByteLength: plannedOutputBytes });
    this.reserved = false;
    this.length = 0;
    this.peakOutputBytes = 0;
    this.inputPasses = 0;
    this.countOutput();
  }

  /**
   * The output, in the buffer it was written to: a grown buffer is shrunk in place to the output's
   * length (Response, crypto and the container edits accept such a view), so it is never copied.
   */
  finish(): Uint8Array {
    if (!this.reserved) (this.output as ResizableArrayBuffer).resize(this.length);
    const out = new Uint8Array(this.output, 0, this.length);
    this.end();
    return out;
  }

  /** Forgets the job's buffers (after finish, or when the job failed). */
  end(): void {
    this.watch = undefined;
    this.releaseOutput();
    this.releaseOutput = () => {};
    this.input = new Uint8Array(0);
    this.profile = new Uint8Array(0);
    this.output = new ArrayBuffer(0);
  }

  imports(memory: WebAssembly.Memory): WebAssembly.Imports {
    const bytes = (): Uint8Array => new Uint8Array(memory.buffer);
    return {
      env: {
        memory,
        memory_grow: (pages: number) => this.memory.grow(pages),
        input_size: () => this.input.length,
        input_read: (ptr: number, len: number) => {
          if (this.position === 0) this.inputPasses++;
          const n = Math.min(len, this.input.length - this.position);
          bytes().set(this.input.subarray(this.position, this.position + n), ptr);
          this.position += n;
          return n;
        },
        input_rewind: () => {
          this.position = 0;
        },
        output_reserve: (total: number) => {
          if (this.length > 0) return;
          this.ensureRoom(total);
          this.output = new ArrayBuffer(total);
          this.reserved = true;
          this.countOutput();
        },
        output_write: (ptr: number, len: number) => this.append(bytes().subarray(ptr, ptr + len)),
        output_patch: (offset: number, ptr: number, len: number) => {
          if (offset < 0 || offset + len > this.length) throw new EngineFailure(FAIL_INTERNAL, 'a patch past the output written');
          new Uint8Array(this.output).set(bytes().subarray(ptr, ptr + len), offset);
        },
        profile_size: () => this.profile.length,
        profile_read: (ptr: number) => bytes().set(this.profile, ptr),
        progress: (kind: number, units: number) => this.watch?.progress(kind, units) ?? 0,
        // Without JSPI the job cannot hand the loop back; the watch still learns how its work runs.
        yield: hasJspi
          ? suspending(async () => {
              this.yields++;
              this.onHandBack();
              await this.yieldToEventLoop();
              this.onHandBack();
              this.watch?.resumed();
            })
          : () => this.watch?.resumed(),
        fail: (kind: number, ptr: number, len: number) => {
          throw new EngineFailure(kind, new TextDecoder().decode(bytes().subarray(ptr, ptr + len)));
        },
      },
      // wasi-libc links these for paths the glue never takes (stdio, getenv, abort; libaom's film grain
      // table and statistics files): every file operation fails with EBADF (8), so no file ever opens.
      wasi_snapshot_preview1: {
        environ_sizes_get: (countPtr: number, sizePtr: number) => {
          const view = new DataView(memory.buffer);
          view.setUint32(countPtr, 0, true);
          view.setUint32(sizePtr, 0, true);
          return 0;
        },
        environ_get: () => 0,
        fd_write: () => 8,
        fd_close: () => 8,
        fd_seek: () => 8,
        fd_read: () => 8,
        fd_fdstat_get: () => 8,
        fd_fdstat_set_flags: () => 8,
        fd_prestat_get: () => 8,
        fd_prestat_dir_name: () => 8,
        path_open: () => 8,
        proc_exit: (code: number) => {
          throw new EngineFailure(FAIL_INTERNAL, `the codec module aborted (${code})`);
        },
      },
    };
  }

  /** Fails the job unless an output buffer of `bytes` is within its plan and the engine's budget. */
  private ensureRoom(bytes: number): void {
    if (bytes > this.planned) throw new EngineFailure(FAIL_MEMORY, 'the output is larger than the job was planned for');
    if (!this.memory.allowsJs(bytes - this.output.byteLength)) throw new EngineFailure(FAIL_MEMORY, 'the output does not fit the memory budget');
  }

  private countOutput(): void {
    this.releaseOutput();
    this.releaseOutput = this.memory.holdJs(this.output.byteLength);
    this.peakOutputBytes = Math.max(this.peakOutputBytes, this.output.byteLength);
  }

  private append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.output.byteLength) {
      if (this.reserved) throw new EngineFailure(FAIL_INTERNAL, 'the output is larger than announced');
      const size = Math.min(this.planned, Math.max(needed, this.output.byteLength + GROWTH_BYTES));
      this.ensureRoom(Math.max(needed, size));
      (this.output as ResizableArrayBuffer).resize(Math.max(needed, size));
      this.countOutput();
    }
    new Uint8Array(this.output).set(bytes, this.length);
    this.length = needed;
  }
}
