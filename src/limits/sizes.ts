/** Byte limits of the contract and decisions. 1 MB = 1,048,576 bytes. */
export const MB = 1_048_576;

/** Upload or base64 image on /v1/compress, and an image fetched from a url. */
export const COMPRESS_MAX_BYTES = 10 * MB;
/** Upload or base64 image on /v1/demo-compress. */
export const DEMO_MAX_BYTES = 5 * MB;

/** Room for multipart boundaries, part headers and the other fields around the image. */
export const ENVELOPE_BYTES = 64 * 1024;

/**
 * A body is read into one buffer of this size, reused from read to read, where the stream allows it
 * (request and fetched bodies are byte streams): a tenth of the reads of the runtime's 4 KiB chunks,
 * and a third of their CPU time.
 */
export const BODY_CHUNK_BYTES = 64 * 1024;

/** The largest request body worth reading: the image limit as base64 text plus its envelope. */
export function maxBodyBytes(imageLimit: number): number {
  return Math.ceil(imageLimit / 3) * 4 + ENVELOPE_BYTES;
}

/**
 * What the largest request holds of the isolate's bytes while it is read (src/limits/memory.ts): a
 * 10 MB image, the chunk in hand and its envelope. One account or one client network holds at most
 * this at once (decisions.md, "A slow client holds nothing for long").
 */
export const LARGEST_REQUEST_BYTES = COMPRESS_MAX_BYTES + BODY_CHUNK_BYTES + ENVELOPE_BYTES;
