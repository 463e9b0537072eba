import { ApiError } from '../errors/api-error';

const DATA_URI = /^data:[^,]*;base64,/i;

/** ES2026 `Uint8Array.fromBase64` (in workerd): decodes straight from the string, no intermediate copies. */
type FromBase64 = (text: string, options: { alphabet: 'base64' | 'base64url' }) => Uint8Array;
const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;

/**
 * Decodes a base64 image, with or without a data URI prefix (standard or URL-safe alphabet, not mixed;
 * padding optional, whitespace ignored). Where the runtime has Uint8Array.fromBase64 the text is decoded in
 * place: the prefix is cut off by slicing (V8 shares the characters) and no other string is made, so a
 * request holds its JSON string and the image, nothing more. Elsewhere (Node 20 in the tools) atob.
 */
export function decodeBase64Image(text: string, maxBytes: number, tooLarge: () => ApiError): Uint8Array {
  const prefix = DATA_URI.exec(text.slice(0, 256));
  const payload = prefix ? text.slice(prefix[0].length) : text;
  const urlSafe = /[-_]/.test(payload);
  if (urlSafe && /[+/]/.test(payload)) throw badBase64();
  // The body was capped before parsing, so the decoded bytes are at most that cap's three quarters.
  let bytes: Uint8Array;
  try {
    bytes = fromBase64 ? fromBase64(payload, { alphabet: urlSafe ? 'base64url' : 'base64' }) : decodeWithAtob(payload, urlSafe);
  } catch {
    throw badBase64();
  }
  if (bytes.length > maxBytes) throw tooLarge();
  return bytes;
}

function badBase64(): ApiError {
  return new ApiError('bad_request', 'image: expected base64 data (optionally as a data URI).');
}

function decodeWithAtob(payload: string, urlSafe: boolean): Uint8Array {
  const standard = payload.replace(/\s+/g, '').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/\-_]*$/.test(standard) || standard.length % 4 === 1) throw badBase64();
  const binary = atob(urlSafe ? standard.replace(/-/g, '+').replace(/_/g, '/') : standard);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
