import { ApiError } from '../errors/api-error';
import type { ImageBuffer } from './image-buffer';

const DATA_URI = /^data:[^,]*;base64,/i;
/** A data URI prefix is looked for in the text's first characters (media type parameters included). */
const PREFIX_WINDOW = 256;
/** The whitespace base64 decoding skips (ECMA-262 "ASCII whitespace"). */
const WHITESPACE = '\t\n\f\r ';
const NOT_WHITESPACE = /[^\t\n\f\r ]/;
/** Characters decoded at a time: a few calls per image, and a small string held per request. */
const BATCH = 64 * 1024;

type Alphabet = 'base64' | 'base64url';
/** ES2026 `Uint8Array.prototype.setFromBase64` (in workerd): decodes into an existing array, a piece at a time. */
type SetFromBase64 = (text: string, options: { alphabet: Alphabet; lastChunkHandling: 'loose' | 'stop-before-partial' }) => {
  read: number;
  written: number;
};

/**
 * Decodes a base64 image as its text arrives, into `out`: with or without a data URI prefix, standard or
 * URL-safe alphabet (not mixed), padding optional, whitespace ignored. The text is decoded BATCH
 * characters at a time with Uint8Array's setFromBase64 and written to the image buffer; an incomplete
 * group of four waits for the next batch. So the text is never held whole, only a batch of it.
 */
export class Base64Decoder {
  #text = '';
  #first = true;
  #alphabet: Alphabet | undefined;
  #padded = false;

  constructor(private readonly out: ImageBuffer) {}

  push(text: string): void {
    this.#text += text;
    if (this.#text.length >= BATCH) this.#decode(false);
  }

  end(): void {
    this.#decode(true);
  }

  #decode(last: boolean): void {
    let text = this.#text;
    if (this.#first) {
      // The first batch holds the whole prefix window (BATCH > PREFIX_WINDOW), unless it is all there is.
      this.#first = false;
      const prefix = DATA_URI.exec(text.slice(0, PREFIX_WINDOW));
      if (prefix) text = text.slice(prefix[0].length);
    }
    this.#chooseAlphabet(text);
    // Padding ends the data: only whitespace may follow it.
    if (this.#padded) {
      if (NOT_WHITESPACE.test(text)) throw badBase64();
      this.#text = '';
      return;
    }
    const scratch = new Uint8Array(Math.ceil(text.length / 4) * 3);
    let result: { read: number; written: number };
    try {
      result = (scratch as unknown as { setFromBase64: SetFromBase64 }).setFromBase64(text, {
        alphabet: this.#alphabet ?? 'base64',
        lastChunkHandling: last ? 'loose' : 'stop-before-partial',
      });
    } catch {
      throw badBase64();
    }
    this.out.write(scratch.subarray(0, result.written));
    this.#text = text.slice(result.read);
    this.#padded = endsWithPadding(text, result.read);
  }

  /** Text without `+/-_` decodes the same in both alphabets; the first of them seen decides, the other is refused. */
  #chooseAlphabet(text: string): void {
    const urlSafe = this.#alphabet !== 'base64url' && /[-_]/.test(text);
    const standard = this.#alphabet !== 'base64' && /[+/]/.test(text);
    if ((urlSafe && (standard || this.#alphabet === 'base64')) || (standard && this.#alphabet === 'base64url')) throw badBase64();
    if (urlSafe) this.#alphabet = 'base64url';
    else if (standard) this.#alphabet = 'base64';
  }
}

/** Whether the decoded text, `text` up to `end`, ended with padding (whitespace after it aside). */
function endsWithPadding(text: string, end: number): boolean {
  let i = end - 1;
  while (i >= 0 && WHITESPACE.includes(text[i]!)) i--;
  return text[i] === '=';
}

export function badBase64(): ApiError {
  return new ApiError('bad_request', 'image: expected base64 data (optionally as a data URI).');
}
