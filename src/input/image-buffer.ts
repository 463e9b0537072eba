import type { ApiError } from '../errors/api-error';
import type { ByteClaim } from '../limits/admission';

/** A resizable ArrayBuffer: V8 reserves its memory at `maxByteLength` and commits it as it grows, in place. */
const growingBuffer = (maxByteLength: number) => new ArrayBuffer(0, { maxByteLength });

/**
 * The bytes of one image as they arrive, held once: in one buffer that grows in place by what came
 * (a resizable ArrayBuffer reserved at `maxBytes`), so nothing is held for bytes a client only announced
 * and nothing is copied at the end. Every byte is counted in the request's claim before it is held (a
 * claim the isolate cannot give is a 503, with nothing more held); more than `maxBytes` is refused with
 * `tooLarge`.
 */
export class ImageBuffer {
  #buffer: ArrayBuffer;
  #length = 0;

  constructor(
    private readonly claim: ByteClaim,
    private readonly maxBytes: number,
    private readonly tooLarge: () => ApiError,
  ) {
    this.#buffer = growingBuffer(maxBytes);
  }

  /** Copies `bytes` in, at the end. */
  write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const length = this.#length + bytes.length;
    if (length > this.maxBytes) throw this.tooLarge();
    this.claim.grow(bytes.length);
    this.#buffer.resize(length);
    new Uint8Array(this.#buffer, this.#length, bytes.length).set(bytes);
    this.#length = length;
  }

  /** The image, in one buffer of its size. */
  finish(): Uint8Array {
    return new Uint8Array(this.#buffer, 0, this.#length);
  }

  /** Gives back what this image held: it will not be used. */
  discard(): void {
    this.claim.shrink(this.#length);
    this.#buffer = growingBuffer(0);
    this.#length = 0;
  }
}
