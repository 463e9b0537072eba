import { ApiError } from '../errors/api-error';
import type { ByteClaim } from '../limits/admission';
import { BODY_CHUNK_BYTES, ENVELOPE_BYTES, maxBodyBytes } from '../limits/sizes';
import type { Fields } from './fields';
import { bodyPace } from './body-pace';
import { ImageBuffer } from './image-buffer';
import { JsonBodyReader } from './json-body';
import { multipartBoundary, MultipartReader } from './multipart';
import { forEachChunk } from './read-stream';

export interface ParsedBody {
  form: 'json' | 'multipart';
  /** The body's fields; the image's (JSON `image` when a string, the multipart part `multipartImageField`) as its bytes. */
  fields: Fields;
}

export interface BodyRules {
  /** The multipart part that holds the image (JSON's is always `image`). */
  multipartImageField: string;
  maxImageBytes: number;
  tooLarge: () => ApiError;
  /** The request's claim on the isolate's bytes: what the body holds is counted in it as it arrives. */
  claim: ByteClaim;
}

/**
 * Reads and parses a request body by its Content-Type, as it arrives (JSON objects and multipart forms
 * only; anything else is a clear 400), at its pace (body-pace.ts: too slow is 408 request_timeout).
 * Before the first byte is read, the body is refused when its Content-Length is over the limit (413),
 * or when the image it may carry (its Content-Length bounds it) could not be held now (503 at once);
 * room for its other fields is counted. The image is counted as its bytes arrive, never for what was only
 * announced (decisions.md, "A slow client holds nothing for long"). On return the claim holds the image alone.
 */
export async function readFields(request: Request, rules: BodyRules): Promise<ParsedBody> {
  const maxBytes = maxBodyBytes(rules.maxImageBytes);
  const header = request.headers.get('Content-Length');
  const declared = header === null ? undefined : Number(header);
  if (declared !== undefined && declared > maxBytes) throw rules.tooLarge();
  const contentType = request.headers.get('Content-Type') ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const json = type === 'application/json' || type.endsWith('+json');
  if (!json && type !== 'multipart/form-data') {
    throw new ApiError(
      'bad_request',
      `Unsupported Content-Type ${type ? `"${type}"` : '(none)'}: send multipart/form-data or application/json.`,
    );
  }
  const boundary = json ? '' : multipartBoundary(contentType);

  rules.claim.grow(ENVELOPE_BYTES);
  let image: ImageBuffer | undefined;
  try {
    // Base64 text is 4 characters for 3 bytes.
    const expected = declared === undefined ? 0 : json ? Math.floor((declared * 3) / 4) : declared;
    rules.claim.refuseUnlessFits(BODY_CHUNK_BYTES + Math.min(expected, rules.maxImageBytes));
    image = new ImageBuffer(rules.claim, rules.maxImageBytes, rules.tooLarge);
    const imageField = json ? 'image' : rules.multipartImageField;
    const reader = json ? new JsonBodyReader(imageField, image) : new MultipartReader(boundary, imageField, image);
    if (request.body) {
      await forEachChunk(request.body, (chunk) => reader.push(chunk), { maxBytes, tooLarge: rules.tooLarge, claim: rules.claim, guard: bodyPace() });
    }
    const fields = reader.end();
    if (!(fields[imageField] instanceof Uint8Array)) image.discard();
    return { form: json ? 'json' : 'multipart', fields };
  } catch (error) {
    image?.discard();
    throw error;
  } finally {
    rules.claim.shrink(ENVELOPE_BYTES);
  }
}
