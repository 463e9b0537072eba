import { ApiError } from '../errors/api-error';
import type { ByteClaim } from '../limits/admission';
import { COMPRESS_MAX_BYTES } from '../limits/sizes';
import { compressJsonBody, compressMultipartBody, type CompressOptions } from '../schemas/compress-request';
import { validate } from '../schemas/validate';
import { readFields } from './read-fields';
import { validateUrlSyntax } from './url/validate-url';

/** Where the image of a compress request comes from: bytes in hand, or a URL still to fetch. */
export type CompressSource = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'url'; url: string };

export interface CompressInput {
  source: CompressSource;
  options: CompressOptions;
}

const tooLarge = () =>
  new ApiError('file_too_large', `The image is larger than the limit of ${COMPRESS_MAX_BYTES} bytes (10 MB).`);

/**
 * Everything about the request itself, checked before the quota: fields, sizes, URL syntax and
 * literal blocking (decisions.md "Order of checks"). The body is counted in `claim` from its first byte.
 */
export async function readCompressInput(request: Request, claim: ByteClaim): Promise<CompressInput> {
  const { form, fields } = await readFields(request, { multipartImageField: 'file', maxImageBytes: COMPRESS_MAX_BYTES, tooLarge, claim });
  if (form === 'multipart') {
    const { file, ...options } = validate(compressMultipartBody, fields);
    if (!file) throw missingImage();
    return { source: { kind: 'bytes', bytes: file }, options };
  }
  const { image, url, ...options } = validate(compressJsonBody, fields);
  if (url !== undefined) return { source: { kind: 'url', url: validateUrlSyntax(url).href }, options };
  if (image === undefined) throw missingImage();
  return { source: { kind: 'bytes', bytes: image }, options };
}

function missingImage(): ApiError {
  return new ApiError('bad_request', 'No image: send a multipart "file", or JSON with "image" (base64) or "url".');
}
