import { ApiError } from '../../errors/api-error';
import { MB } from '../../limits/sizes';
import { readStreamCapped } from '../read-stream';
import type { Deadline } from './deadline';

/**
 * Reads a response body of at most `maxBytes`. A larger Content-Length is refused before reading;
 * otherwise the stream is read chunk by chunk and cancelled as soon as it passes the limit, so a
 * server that lies about, or omits, its length costs us at most one chunk over the limit.
 */
export async function readBodyWithLimit(response: Response, maxBytes: number, deadline: Deadline): Promise<Uint8Array> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    discardBody(response);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  return readStreamCapped(response.body, maxBytes, () => tooLarge(maxBytes), (read) => deadline.race(read));
}

/** Releases a body we will not read, without waiting on a server that may never finish it. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('url_too_large', `The image at the url exceeds ${maxBytes / MB} MB.`);
}
