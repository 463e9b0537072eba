import { concat } from '../image/bytes';

/**
 * Reads a byte stream to its end, refusing it (and cancelling it) as soon as it passes `maxBytes`, so
 * an oversized or endless body costs at most one chunk over the limit. `guard` wraps each read, e.g.
 * in a deadline.
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  guard: <T>(read: Promise<T>) => Promise<T> = (read) => read,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await guard(reader.read());
      if (done) return concat(chunks);
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}
