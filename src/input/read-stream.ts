import { concat } from '../image/bytes';
import type { ByteClaim } from '../limits/admission';
import { BODY_CHUNK_BYTES } from '../limits/sizes';
import type { PacedRead } from './body-pace';

export interface ChunkReading {
  maxBytes: number;
  tooLarge: () => Error;
  /** The request's claim, where the chunk in hand is counted while the body is read. */
  claim?: ByteClaim;
  /** Wraps each read, given the bytes read before it: in a deadline, or a request body's pace (body-pace.ts). */
  guard?: PacedRead;
}

/**
 * Hands a byte stream to `take` chunk by chunk, to its end, refusing it as soon as it passes `maxBytes` or
 * `take` throws, so an oversized or endless body costs at most one chunk over the limit. A chunk is lent to
 * `take`: its memory is read into again after it returns. A refused stream is left unlocked for its owner:
 * a url body is cancelled (url/read-body.ts), a request body read to its end unkept (drain-body.ts).
 */
export async function forEachChunk(stream: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => void, reading: ChunkReading): Promise<void> {
  const guard = reading.guard ?? ((read) => read);
  reading.claim?.grow(BODY_CHUNK_BYTES);
  const byob = byobReader(stream);
  const reader = byob ?? stream.getReader();
  let buffer = new ArrayBuffer(byob ? BODY_CHUNK_BYTES : 0);
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await guard(byob ? byob.read(new Uint8Array(buffer)) : (reader as ReadableStreamDefaultReader<Uint8Array>).read(), total);
      if (done || !value) return;
      total += value.byteLength;
      if (total > reading.maxBytes) throw reading.tooLarge();
      take(value);
      if (byob) buffer = value.buffer as ArrayBuffer;
    }
  } finally {
    // A body refused as late still has a read pending, which only cancelling ends.
    try {
      reader.releaseLock();
    } catch {
      reader.cancel().catch(() => {});
    }
    reading.claim?.shrink(BODY_CHUNK_BYTES);
  }
}

/** A reader into our own buffer, when the stream is a byte stream. */
function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return undefined;
  }
}

/** A whole small stream (a form) in one buffer, refused past `maxBytes`. */
export async function readStreamCapped(stream: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error, guard?: PacedRead): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await forEachChunk(stream, (chunk) => chunks.push(chunk.slice()), { maxBytes, tooLarge, guard });
  return concat(chunks);
}
