import { ApiError } from '../../errors/api-error';
import { concat } from '../bytes';

/** The generic byte helpers live in ../bytes; the container walkers take them from here with the rest. */
export { ascii, asciiBytes, concat, startsWith, u16be, u16le, u32be, u32le } from '../bytes';

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
