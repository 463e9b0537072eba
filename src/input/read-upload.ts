import type { ApiError } from '../errors/api-error';

/** The bytes of an uploaded multipart file, refused when over the limit. */
export async function readUpload(file: File, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (file.size > maxBytes) throw tooLarge();
  return new Uint8Array(await file.arrayBuffer());
}
