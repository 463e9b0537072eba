import { BODY_CHUNK_BYTES, COMPRESS_MAX_BYTES, maxBodyBytes } from '../limits/sizes';
import { bodyPace } from './body-pace';

/** The most of a refused body read to let its client hear the answer: the largest body any route takes. */
const MAX_DRAINED_BYTES = maxBodyBytes(COMPRESS_MAX_BYTES);

/**
 * Reads what is left of a request body refused before its end, keeping none of it, so its client receives
 * the answer: under workerd an answer given while the client is still sending is lost to a reset connection
 * (and through wrangler dev's proxy becomes a 500). At the body's pace (body-pace.ts) and up to the largest
 * body a route takes, in one reused chunk; not for a body refused as late or too large, which is cut off.
 */
export async function drainBody(request: Request, status: number): Promise<void> {
  const body = request.body;
  if (!body || body.locked || status === 408 || status === 413) return;
  const pace = bodyPace();
  let reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array> | undefined;
  let total = 0;
  try {
    const byob = body.getReader({ mode: 'byob' });
    reader = byob;
    let buffer = new ArrayBuffer(BODY_CHUNK_BYTES);
    for (;;) {
      const { done, value } = await pace(byob.read(new Uint8Array(buffer)), total);
      if (done || !value) return;
      total += value.byteLength;
      if (total > MAX_DRAINED_BYTES) break;
      buffer = value.buffer as ArrayBuffer;
    }
  } catch {
    // Late, broken or not a byte stream: the client is cut off, as it would have been.
  }
  (reader ?? body).cancel().catch(() => {});
}
