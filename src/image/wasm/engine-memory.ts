import { ENGINE_BUDGET_BYTES } from '../../limits/memory';

const PAGE_BYTES = 65_536;
/** codecs/build.sh links the module with --initial-memory=2097152: its static data (1.4 MB with libaom's tables) and stack. */
const INITIAL_BYTES = 2_097_152;

/**
 * The engine's share of the isolate's 128 MB, enforced rather than predicted: one linear memory, which
 * the module imports, created with the engine budget as its maximum, plus the JS buffers of the job in
 * hand (its output, and what the request holds besides its input), counted against the same budget.
 * The module's allocator asks `grow` for every page (codecs/src/host.c) and the output buffer asks
 * `allowsJs` for every MiB, so a job the memory model under-estimated fails one allocation (a 413 for
 * that request) and the isolate never passes its limit.
 *
 * A memory is retired, never dropped for good: V8 frees a WebAssembly.Memory only when a full GC finds
 * it unreachable, and WASM growth does not count towards the external memory that triggers one, so
 * memories dropped after every failed or large job could pile up. A retired memory is held weakly, so
 * the runtime may reclaim it (how a large one goes back to the isolate); if it has not by the next job,
 * that job revives it, zeroed, instead of making another: there is never more than one.
 */
export class EngineMemory {
  private current: WebAssembly.Memory | undefined;
  private retired: WeakRef<WebAssembly.Memory> | undefined;
  /** JS bytes counted against the budget: the output being written and what the request holds. */
  private js = 0;
  /** The most engine bytes (WASM + JS) seen since the last takePeak(). */
  private peak = 0;
  /** JS bytes last refused (allowsJs), since the last acquire(); 0 when none was. */
  private refusedJs = 0;

  constructor(readonly budget: number = ENGINE_BUDGET_BYTES) {}

  /** The memory an instance is made over: the one in use, a revived retired one, or a new one. */
  acquire(): WebAssembly.Memory {
    this.refusedJs = 0;
    if (this.current) return this.current;
    const revived = this.retired?.deref();
    this.retired = undefined;
    if (revived) {
      // A new instance expects zeroed memory (its .bss, and calloc trusts sbrk's pages to be zero).
      new Uint8Array(revived.buffer).fill(0);
      this.current = revived;
    } else {
      this.current = new WebAssembly.Memory({ initial: INITIAL_BYTES / PAGE_BYTES, maximum: Math.floor(this.budget / PAGE_BYTES) });
    }
    this.note();
    return this.current;
  }

  /** Drops the strong reference: the memory's instance is done with (a failure, or a large job). */
  retire(): void {
    if (this.current) this.retired = new WeakRef(this.current);
    this.current = undefined;
  }

  /**
   * Gives the memory up for good (a stalled job's: its suspended stack may still resume and write into it),
   * so no later job revives it.
   */
  abandon(): void {
    this.current = undefined;
  }

  /** Bytes of WASM memory held by the engine: the memory in use, not a retired one. */
  liveBytes(): number {
    return this.current?.buffer.byteLength ?? 0;
  }

  /** Bytes of WASM memory alive: in use, or retired and not yet reclaimed. */
  wasmBytes(): number {
    return (this.current ?? this.retired?.deref())?.buffer.byteLength ?? 0;
  }

  /** The module's memory_grow import: grows by `pages` when the budget allows; the old size in pages, or -1. */
  grow(pages: number): number {
    if (!this.current || !this.allows(pages * PAGE_BYTES)) return -1;
    try {
      const old = this.current.grow(pages);
      this.note();
      return old;
    } catch {
      return -1; // past the memory's maximum
    }
  }

  /** Whether `extra` more bytes, WASM or JS, keep the engine within its budget. */
  allows(extra: number): boolean {
    return this.wasmBytes() + this.js + extra <= this.budget;
  }

  /** allows() for `extra` JS bytes, remembering a refusal for refusedOnlyBeside(). */
  allowsJs(extra: number): boolean {
    const allowed = this.allows(extra);
    if (!allowed) this.refusedJs = extra;
    return allowed;
  }

  /**
   * Whether the last JS bytes refused would have fitted beside `ownWasmBytes` of WASM memory instead of the whole
   * memory: a job on a revived memory larger than it grew was refused room that memory's earlier job had taken.
   */
  refusedOnlyBeside(ownWasmBytes: number): boolean {
    // A fresh memory starts at INITIAL_BYTES and grows by whole pages.
    const own = Math.max(INITIAL_BYTES, Math.ceil(ownWasmBytes / PAGE_BYTES) * PAGE_BYTES);
    return this.refusedJs > 0 && this.wasmBytes() > own && own + this.js + this.refusedJs <= this.budget;
  }

  /** Counts `bytes` of JS buffers against the budget until the returned function is called. */
  holdJs(bytes: number): () => void {
    this.js += bytes;
    this.note();
    let held = true;
    return () => {
      if (held) this.js -= bytes;
      held = false;
    };
  }

  /** The most bytes the engine held (WASM memory plus counted JS buffers) since the last call. */
  takePeak(): number {
    const peak = this.peak;
    this.peak = this.wasmBytes() + this.js;
    return peak;
  }

  private note(): void {
    this.peak = Math.max(this.peak, this.wasmBytes() + this.js);
  }
}
