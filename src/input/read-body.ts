import { ApiError } from '../errors/api-error';

/**
 * Reads a request body, refusing it as soon as it is known to exceed `maxBytes`: from Content-Length
 * before reading, else by counting while streaming, so an oversized upload is never held in memory.
 */
export async function readBodyCapped(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  const declared = Number(request.headers.get('Content-Length') ?? NaN);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
