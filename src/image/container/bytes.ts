import { ApiError } from '../../errors/api-error';

/**
 * The byte helpers every container walker shares. Readers return numbers without bounds checks:
 * each walker checks the range it is about to read first, so one check covers several reads.
 */

export function u16be(b: Uint8Array, at: number): number {
  return (b[at]! << 8) | b[at + 1]!;
}

export function u32be(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

export function u16le(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

export function u32le(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** Four-character codes and signatures are ASCII; latin1 keeps any stray byte one character. */
export function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length));
}

export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function startsWith(b: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (at + prefix.length > b.length) return false;
  return prefix.every((byte, i) => b[at + i] === byte);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The one way this folder reports bad input: the API's 400 for undecodable images. */
export function unsupported(message: string): ApiError {
  return new ApiError('unsupported_image', message);
}

/**
 * Runs bytes through a Compression Streams transform (available in Workers and Node 22).
 * Returns null when the stream is corrupt or its output would exceed `limit` bytes, so a
 * zlib bomb in an ancillary chunk costs at most `limit` bytes of memory.
 */
export async function runStream(
  data: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  limit: number,
): Promise<Uint8Array | null> {
  const writer = stream.writable.getWriter();
  // Errors surface on the readable side; these promises only need to not go unhandled.
  writer.write(data).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return concat(parts);
      total += value.length;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      parts.push(value);
    }
  } catch {
    return null;
  }
}
