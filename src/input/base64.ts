import { ApiError } from '../errors/api-error';

const DATA_URI = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/**
 * Decodes a base64 image, with or without a data URI prefix (standard or URL-safe alphabet, padding
 * optional, whitespace ignored). The decoded size is checked before decoding, so an oversized payload
 * costs no second copy.
 */
export function decodeBase64Image(text: string, maxBytes: number, tooLarge: () => ApiError): Uint8Array {
  const payload = text.replace(DATA_URI, '').replace(/\s+/g, '');
  if (!BASE64.test(payload) || payload.length % 4 === 1) {
    throw new ApiError('bad_request', 'image: expected base64 data (optionally as a data URI).');
  }
  const unpadded = payload.replace(/=+$/, '');
  if (Math.floor((unpadded.length * 3) / 4) > maxBytes) throw tooLarge();
  const binary = atob(unpadded.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
