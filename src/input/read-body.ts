import type { ApiError } from '../errors/api-error';
import { bodyPace } from './body-pace';
import { readStreamCapped } from './read-stream';

/**
 * Reads a request body, refusing it as soon as it is known to exceed `maxBytes`: from Content-Length
 * before reading, else by counting while streaming, so an oversized upload is never held in memory;
 * and at its pace (body-pace.ts): a body that comes too slowly is 408 request_timeout.
 */
export async function readBodyCapped(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (Number(request.headers.get('Content-Length') ?? NaN) > maxBytes) throw tooLarge();
  return request.body ? readStreamCapped(request.body, maxBytes, tooLarge, bodyPace()) : new Uint8Array(0);
}
