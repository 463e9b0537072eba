import type { ApiError } from '../errors/api-error';
import { concat } from '../image/bytes';
import type { ByteClaim } from '../limits/admission';

/**
 * The bytes of one image as they arrive, held once: in one buffer of the size the request announced
 * (its Content-Length bounds the image), or, when it announced none, as the pieces that came, joined into
 * one buffer of the final size at the end. Every byte is counted in the request's claim before it is
 * held, the join included; more than `maxBytes` is refused with `tooLarge`.
 */
export class ImageBuffer {
  #buffer: Uint8Array | undefined;
  #pieces: Uint8Array[] = [];
  #length = 0;
  /** What this image holds in the claim. */
  #claimed = 0;

  constructor(
    private readonly claim: ByteClaim,
    private readonly maxBytes: number,
    private readonly tooLarge: () => ApiError,
    expectedBytes?: number,
  ) {
    if (expectedBytes === undefined) return;
    this.#hold(Math.min(expectedBytes, maxBytes));
    this.#buffer = new Uint8Array(this.#claimed);
  }

  /** Copies `bytes` in: into the buffer, or as a piece of their own. */
  write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#length + bytes.length > this.maxBytes) throw this.tooLarge();
    if (this.#buffer && this.#length + bytes.length <= this.#buffer.length) {
      this.#buffer.set(bytes, this.#length);
    } else {
      if (this.#buffer) {
        // More than was announced (only a peer that breaks HTTP framing): what came is a piece too.
        this.#pieces.push(this.#buffer.subarray(0, this.#length));
        this.#buffer = undefined;
      }
      this.#hold(bytes.length);
      this.#pieces.push(bytes.slice());
    }
    this.#length += bytes.length;
  }

  /** The image, in one buffer of its size (a view of the announced one). */
  finish(): Uint8Array {
    if (this.#buffer) return this.#buffer.subarray(0, this.#length);
    if (this.#pieces.length <= 1) return this.#pieces[0] ?? new Uint8Array(0);
    this.#hold(this.#length);
    const joined = concat(this.#pieces);
    this.claim.shrink(this.#claimed - joined.length);
    this.#claimed = joined.length;
    this.#pieces = [joined];
    return joined;
  }

  /** Gives back what this image held: it will not be used. */
  discard(): void {
    this.claim.shrink(this.#claimed);
    this.#claimed = 0;
    this.#buffer = undefined;
    this.#pieces = [];
    this.#length = 0;
  }

  #hold(bytes: number): void {
    this.claim.grow(bytes);
    this.#claimed += bytes;
  }
}
