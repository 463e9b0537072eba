import { ApiError } from '../../errors/api-error';
import type { ByteClaim } from '../../limits/admission';
import { BODY_CHUNK_BYTES, MB } from '../../limits/sizes';
import { ImageBuffer } from '../image-buffer';
import { forEachChunk } from '../read-stream';
import type { Deadline } from './deadline';

/**
 * Reads a response body of at most `maxBytes` into one buffer, counted in the request's claim as it
 * arrives. A larger Content-Length is refused before reading, and a body the isolate cannot hold now
 * (503); otherwise the stream is read chunk by chunk and cancelled as soon as it passes the limit, so a
 * server that lies about, or omits, its length costs us at most one chunk over the limit.
 */
export async function readBodyWithLimit(response: Response, maxBytes: number, deadline: Deadline, claim: ByteClaim): Promise<Uint8Array> {
  const header = response.headers.get('content-length');
  const declared = header === null ? undefined : Number(header);
  if (declared !== undefined && declared > maxBytes) {
    discardBody(response);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  let image: ImageBuffer | undefined;
  try {
    claim.refuseUnlessFits(BODY_CHUNK_BYTES + (declared ?? 0));
    image = new ImageBuffer(claim, maxBytes, () => tooLarge(maxBytes));
    const buffer = image;
    await forEachChunk(response.body, (chunk) => buffer.write(chunk), { maxBytes, tooLarge: () => tooLarge(maxBytes), claim, guard: (read) => deadline.race(read) });
    return image.finish();
  } catch (error) {
    image?.discard();
    discardBody(response);
    throw error;
  }
}

/** Releases a body we will not read, without waiting on a server that may never finish it. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('url_too_large', `The image at the url exceeds ${maxBytes / MB} MB.`);
}
