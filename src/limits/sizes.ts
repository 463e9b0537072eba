/** Byte limits of the contract and decisions. 1 MB = 1,048,576 bytes. */
export const MB = 1_048_576;

/** Upload or base64 image on /v1/compress, and an image fetched from a url. */
export const COMPRESS_MAX_BYTES = 10 * MB;
/** Upload or base64 image on /v1/demo-compress. */
export const DEMO_MAX_BYTES = 5 * MB;

/** Room for multipart boundaries, part headers and the other fields around the image. */
export const ENVELOPE_BYTES = 64 * 1024;

/** The largest request body worth reading: the image limit as base64 text plus its envelope. */
export function maxBodyBytes(imageLimit: number): number {
  return Math.ceil(imageLimit / 3) * 4 + ENVELOPE_BYTES;
}
