import { ApiError } from '../errors/api-error';
import { concat } from '../image/bytes';
import { ENVELOPE_BYTES } from '../limits/sizes';
import { FieldsBuilder, type Fields } from './fields';
import type { ImageBuffer } from './image-buffer';

const CR = 0x0d;
/** A part's headers are a few short lines; more is not a form a client sends. */
const MAX_PART_HEADER_BYTES = 8 * 1024;
/** RFC 2046 5.1.1: a boundary is 1 to 70 characters. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
const encoder = new TextEncoder();

type State = 'preamble' | 'after-delimiter' | 'headers' | 'part' | 'epilogue';

/** The boundary of a multipart/form-data Content-Type, quoted or not; a 400 when it has none or a bad one. */
export function multipartBoundary(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? '';
  if (!BOUNDARY.test(boundary)) throw malformed();
  return boundary;
}

/**
 * A multipart/form-data body (RFC 7578), parsed as it arrives. The part named `imageField` is written
 * into the image's buffer as its bytes come, never copied whole; every other part is a text field, at
 * most ENVELOPE_BYTES with all the part headers. Each part ends at the next delimiter (CRLF, "--" and the
 * boundary), which may be cut by the end of a chunk: its first bytes wait for the next one.
 */
export class MultipartReader {
  readonly #delimiter: Uint8Array;
  #state: State = 'preamble';
  /** Bytes of the last chunk that may begin a delimiter, or an unfinished header block. */
  #pending: Uint8Array;
  #fields = new FieldsBuilder();
  #envelope = 0;
  #part: { name: string; text: Uint8Array[] | undefined } | undefined;

  constructor(
    boundary: string,
    private readonly imageField: string,
    private readonly image: ImageBuffer,
  ) {
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
    // The first delimiter opens the body without a CRLF before it: one is taken as read.
    this.#pending = encoder.encode('\r\n');
  }

  push(chunk: Uint8Array): void {
    const data = this.#pending.length > 0 ? concat([this.#pending, chunk]) : chunk;
    this.#pending = new Uint8Array(0);
    for (let at = 0; at < data.length; ) at = this.#step(data, at);
  }

  end(): Fields {
    if (this.#state !== 'epilogue') throw malformed();
    return this.#fields.fields();
  }

  /** Reads from `at` in the current state; returns where it stopped. */
  #step(data: Uint8Array, at: number): number {
    switch (this.#state) {
      case 'preamble':
      case 'part':
        return this.#untilDelimiter(data, at);
      case 'after-delimiter':
        return this.#afterDelimiter(data, at);
      case 'headers':
        return this.#headers(data, at);
      case 'epilogue':
        return data.length;
    }
  }

  /** Keeps the bytes from `at` for the next chunk (never more than a header block or a delimiter's start). */
  #wait(data: Uint8Array, at: number): number {
    this.#pending = data.slice(at);
    return data.length;
  }

  /** Part bytes up to the next delimiter; bytes that may start one at the chunk's end wait. */
  #untilDelimiter(data: Uint8Array, at: number): number {
    const { index, whole } = findDelimiter(data, at, this.#delimiter);
    this.#take(data.subarray(at, index));
    if (!whole) return this.#wait(data, index);
    this.#endPart();
    this.#state = 'after-delimiter';
    return index + this.#delimiter.length;
  }

  /** After a delimiter: "--" closes the body; else optional spaces and CRLF open a part's headers. */
  #afterDelimiter(data: Uint8Array, at: number): number {
    if (data.length - at < 2) return this.#wait(data, at);
    if (data[at] === 0x2d && data[at + 1] === 0x2d) {
      this.#state = 'epilogue';
      return data.length;
    }
    let i = at;
    while (i < data.length && (data[i] === 0x20 || data[i] === 0x09)) i++;
    if (i - at > 64) throw malformed();
    if (data.length - i < 2) return this.#wait(data, at);
    if (data[i] !== CR || data[i + 1] !== 0x0a) throw malformed();
    this.#state = 'headers';
    return i + 2;
  }

  /** A part's header block, to its empty line; its Content-Disposition names the part. */
  #headers(data: Uint8Array, at: number): number {
    const end = indexOfCrlfCrlf(data, at);
    if (end === -1) {
      if (data.length - at > MAX_PART_HEADER_BYTES) throw malformed();
      return this.#wait(data, at);
    }
    this.#count(end - at);
    const { name, isFile } = disposition(new TextDecoder().decode(data.subarray(at, end)));
    this.#fields.expectNew(name);
    // The image is sent as a file (with a filename), as forms and curl -F name=@path send it.
    if (name === this.imageField && !isFile) throw new ApiError('bad_request', `${name}: expected a file upload`);
    this.#part = { name, text: name === this.imageField ? undefined : [] };
    this.#state = 'part';
    return end + 4;
  }

  #take(bytes: Uint8Array): void {
    if (!this.#part || bytes.length === 0) return;
    if (!this.#part.text) return this.image.write(bytes);
    this.#count(bytes.length);
    this.#part.text.push(bytes.slice());
  }

  #endPart(): void {
    const part = this.#part;
    this.#part = undefined;
    if (!part) return;
    this.#fields.set(part.name, part.text ? new TextDecoder().decode(concat(part.text)) : this.image.finish());
  }

  #count(bytes: number): void {
    this.#envelope += bytes;
    if (this.#envelope > ENVELOPE_BYTES) {
      throw new ApiError('bad_request', `The fields besides the image take more than ${ENVELOPE_BYTES / 1024} KiB.`);
    }
  }
}

/**
 * The first delimiter from `from`: `whole` when all of it is in `data`; otherwise `index` is where a
 * delimiter may begin at the end of `data` (its end when nothing may).
 */
function findDelimiter(data: Uint8Array, from: number, delimiter: Uint8Array): { index: number; whole: boolean } {
  for (let i = data.indexOf(CR, from); i !== -1; i = data.indexOf(CR, i + 1)) {
    const available = Math.min(delimiter.length, data.length - i);
    let matched = 1;
    while (matched < available && data[i + matched] === delimiter[matched]) matched++;
    if (matched === delimiter.length) return { index: i, whole: true };
    if (matched === available) return { index: i, whole: false };
  }
  return { index: data.length, whole: false };
}

/** Where the empty line ending a header block begins; a block without headers has no Content-Disposition. */
function indexOfCrlfCrlf(data: Uint8Array, from: number): number {
  if (data[from] === CR && data[from + 1] === 0x0a) throw malformed();
  for (let i = data.indexOf(CR, from); i !== -1 && i + 3 < data.length; i = data.indexOf(CR, i + 1)) {
    if (data[i + 1] === 0x0a && data[i + 2] === CR && data[i + 3] === 0x0a) return i;
  }
  return -1;
}

/** The part's Content-Disposition: form-data: its name, and whether it is a file (has a filename); malformed without one. */
function disposition(headers: string): { name: string; isFile: boolean } {
  for (const line of headers.split('\r\n')) {
    const match = /^content-disposition\s*:\s*form-data\s*(;.*)?$/i.exec(line);
    if (!match) continue;
    const params = new Map<string, string>();
    for (const param of (match[1] ?? '').matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g)) {
      params.set(param[1]!.toLowerCase(), param[2] !== undefined ? param[2].replace(/\\(.)/g, '$1') : param[3]!);
    }
    const name = params.get('name');
    if (name !== undefined) return { name, isFile: params.has('filename') || params.has('filename*') };
  }
  throw malformed();
}

function malformed(): ApiError {
  return new ApiError('bad_request', 'The multipart/form-data body is malformed.');
}
