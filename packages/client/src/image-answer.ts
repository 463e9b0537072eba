import { sniffFormat } from './precheck.js';
import { BodyProblem, readBody } from './read-body.js';
import type { ImageFormat } from './types.js';

const FORMATS: readonly string[] = ['jpeg', 'png', 'webp', 'avif', 'gif'] satisfies ImageFormat[];

/**
 * No answer of the API can be larger: the service makes every image inside one 128 MB Workers isolate.
 * An X-Compressed-Size or Content-Length over it is refused before reading a byte.
 */
export const MAX_IMAGE_ANSWER_BYTES = 128 * 1_048_576;

export interface ImageAnswer {
  image: Uint8Array;
  format: ImageFormat;
  originalSize: number;
  compressedSize: number;
}

function sizeHeader(headers: Headers, name: string): number {
  const value = headers.get(name);
  if (value === null || !/^\d+$/.test(value.trim())) throw new BodyProblem(`The answer lacks a valid ${name} header.`);
  return Number(value);
}

/**
 * The image of a 200 from /v1/compress, believed only when it is what the headers say: read up to the
 * length in X-Compressed-Size (never past it), exactly that long, and an image of the format in
 * X-Output-Format by its magic bytes. Anything else is a BodyProblem, before the caller sees a byte.
 */
export async function readImageAnswer(response: Response): Promise<ImageAnswer> {
  const headers = response.headers;
  const format = headers.get('X-Output-Format') ?? '';
  if (!FORMATS.includes(format)) throw new BodyProblem(`The answer's X-Output-Format ${JSON.stringify(format)} is not one the API makes.`);
  const originalSize = sizeHeader(headers, 'X-Original-Size');
  const compressedSize = sizeHeader(headers, 'X-Compressed-Size');
  if (compressedSize > MAX_IMAGE_ANSWER_BYTES) {
    throw new BodyProblem(`The answer's X-Compressed-Size declares ${compressedSize} bytes, more than the ${MAX_IMAGE_ANSWER_BYTES} bytes of the largest possible answer.`);
  }
  const image = await readBody(response, compressedSize, 'X-Compressed-Size');
  if (image.length !== compressedSize) throw new BodyProblem(`The answer ended after ${image.length} of the ${compressedSize} bytes of X-Compressed-Size.`);
  if (sniffFormat(image) !== format) throw new BodyProblem(`The answer's bytes are not a ${format.toUpperCase()} image, as X-Output-Format says.`);
  return { image, format: format as ImageFormat, originalSize, compressedSize };
}
