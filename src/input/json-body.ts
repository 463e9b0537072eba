import { ApiError } from '../errors/api-error';
import { ENVELOPE_BYTES } from '../limits/sizes';
import { Base64Decoder } from './base64';
import type { ImageBuffer } from './image-buffer';
import { FieldsBuilder, type Fields } from './fields';

const BOM = [0xef, 0xbb, 0xbf];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Bytes as characters one for one (ASCII is all base64 needs; any other byte fails to decode). */
const latin1 = new TextDecoder('latin1');
/** Raw control characters are not allowed in a JSON string (escaped ones are resolved before this test). */
const CONTROL = /[\x00-\x1f]/;
const SIMPLE_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

type State = 'start' | 'first-member' | 'member' | 'key' | 'colon' | 'value' | 'raw' | 'image' | 'after-value' | 'done';

/**
 * A JSON request body, parsed as it arrives: one object whose `imageField` member, when it is a string, is
 * base64-decoded straight into the image's buffer (its escapes resolved on the way) and never held as
 * text; every other member's key and value are kept as their JSON text, at most ENVELOPE_BYTES in all, and
 * read by JSON.parse. This walker only finds where each member starts and ends.
 */
export class JsonBodyReader {
  #state: State = 'start';
  #fields = new FieldsBuilder();
  /** Bytes of a byte order mark read so far; -1 once the text has begun. */
  #bom = 0;
  /** The JSON text of the key or value being read. */
  #text: number[] = [];
  #key = '';
  #envelope = 0;
  /** The token's shape: a number or literal, the depth of its brackets, inside a string, after a backslash. */
  #scalar = false;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** An escape of the image string cut by the end of a chunk. */
  #pendingEscape = '';
  #decoder: Base64Decoder | undefined;

  constructor(
    private readonly imageField: string,
    private readonly image: ImageBuffer,
  ) {}

  push(chunk: Uint8Array): void {
    let at = 0;
    // As TextDecoder reads it, a UTF-8 byte order mark is not part of the text.
    for (; this.#bom >= 0 && at < chunk.length; at++) {
      if (chunk[at] !== BOM[this.#bom]) {
        if (this.#bom > 0) throw invalidJson();
        this.#bom = -1;
        break;
      }
      if (++this.#bom === BOM.length) this.#bom = -1;
    }
    while (at < chunk.length) {
      if (this.#state === 'image') at = this.#imageText(chunk, at);
      else if (this.#state === 'raw' || this.#state === 'key') at = this.#token(chunk, at);
      else at = this.#structure(chunk[at]!, at);
    }
  }

  end(): Fields {
    if (this.#state !== 'done') throw invalidJson();
    return this.#fields.fields();
  }

  /** One byte between tokens. */
  #structure(byte: number, at: number): number {
    if (isWhitespace(byte)) return at + 1;
    switch (this.#state) {
      case 'start':
        if (byte !== 0x7b) throw new ApiError('bad_request', 'The JSON body must be an object.');
        this.#state = 'first-member';
        return at + 1;
      case 'first-member':
        if (byte === 0x7d) {
          this.#state = 'done';
          return at + 1;
        }
      // falls through: a key
      case 'member':
        if (byte !== QUOTE) throw invalidJson();
        this.#state = 'key';
        return at;
      case 'colon':
        if (byte !== 0x3a) throw invalidJson();
        this.#state = 'value';
        return at + 1;
      case 'value':
        if (byte === QUOTE && this.#key === this.imageField) {
          this.#fields.expectNew(this.#key);
          this.#decoder = new Base64Decoder(this.image);
          this.#state = 'image';
          return at + 1;
        }
        this.#state = 'raw';
        return at;
      case 'after-value':
        if (byte === 0x2c) this.#state = 'member';
        else if (byte === 0x7d) this.#state = 'done';
        else throw invalidJson();
        return at + 1;
      default:
        throw invalidJson();
    }
  }

  /**
   * The bytes of a key (from its opening quote) or of a raw value, kept as JSON text until the token ends:
   * a string at its closing quote, an array or object at its closing bracket, a number or literal before
   * the byte that ends it (whitespace, a comma, the object's end).
   */
  #token(chunk: Uint8Array, at: number): number {
    for (let i = at; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.#text.length === 0) this.#scalar = byte !== QUOTE && byte !== 0x5b && byte !== 0x7b;
      if (this.#scalar && (isWhitespace(byte) || byte === 0x2c || byte === 0x7d)) {
        this.#tokenEnded();
        return i;
      }
      this.#keep(byte);
      if (!this.#scalar && this.#closes(byte)) {
        this.#tokenEnded();
        return i + 1;
      }
    }
    return chunk.length;
  }

  /** Follows the strings and brackets of a token; true when `byte` closes it. */
  #closes(byte: number): boolean {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) {
        this.#inString = false;
        return this.#depth === 0;
      }
      return false;
    }
    if (byte === QUOTE) this.#inString = true;
    else if (byte === 0x5b || byte === 0x7b) this.#depth++;
    else if (byte === 0x5d || byte === 0x7d) return --this.#depth === 0;
    return false;
  }

  #keep(byte: number): void {
    if (++this.#envelope > ENVELOPE_BYTES) {
      throw new ApiError('bad_request', `The fields besides the image take more than ${ENVELOPE_BYTES / 1024} KiB.`);
    }
    this.#text.push(byte);
  }

  #tokenEnded(): void {
    const value = parseJson(Uint8Array.from(this.#text));
    this.#text = [];
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
    if (this.#state === 'key') {
      this.#key = value as string;
      this.#state = 'colon';
    } else {
      this.#fields.set(this.#key, value);
      this.#state = 'after-value';
    }
  }

  /** The image string's characters, escapes resolved, fed to the base64 decoder; its closing quote ends it. */
  #imageText(chunk: Uint8Array, at: number): number {
    let text = '';
    let quote = chunk.indexOf(QUOTE, at);
    for (let i = at; i < chunk.length; ) {
      if (this.#pendingEscape) {
        // An escaped quote ends nothing: the string goes on to the next one.
        if (i === quote) quote = chunk.indexOf(QUOTE, i + 1);
        this.#pendingEscape += String.fromCharCode(chunk[i++]!);
        const resolved = resolveEscape(this.#pendingEscape);
        if (resolved !== undefined) {
          text += resolved;
          this.#pendingEscape = '';
        }
        continue;
      }
      if (i === quote) {
        this.#decoder!.push(text);
        this.#decoder!.end();
        this.#fields.set(this.#key, this.image.finish());
        this.#state = 'after-value';
        return i + 1;
      }
      const end = quote === -1 ? chunk.length : quote;
      const backslash = chunk.indexOf(BACKSLASH, i);
      const runEnd = backslash === -1 || backslash > end ? end : backslash;
      // Plain characters: anything but ASCII is no base64 (the decoder refuses it); a control character no JSON.
      const run = latin1.decode(chunk.subarray(i, runEnd));
      if (CONTROL.test(run)) throw invalidJson();
      text += run;
      i = runEnd;
      if (i === backslash) {
        this.#pendingEscape = '\\';
        i++;
      }
    }
    this.#decoder!.push(text);
    return chunk.length;
  }
}

/** The character an escape (from its backslash) stands for; undefined while it is incomplete. */
function resolveEscape(escape: string): string | undefined {
  if (escape.length < 2) return undefined;
  if (escape[1] !== 'u') {
    const simple = SIMPLE_ESCAPES[escape.charCodeAt(1)];
    if (simple === undefined) throw invalidJson();
    return simple;
  }
  if (escape.length < 6) return undefined;
  if (!/^\\u[0-9a-fA-F]{4}$/.test(escape)) throw invalidJson();
  return String.fromCharCode(parseInt(escape.slice(2), 16));
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    throw invalidJson();
  }
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function invalidJson(): ApiError {
  return new ApiError('bad_request', 'The body is not valid UTF-8 JSON.');
}
