import { ApiError } from '../errors/api-error';
import { COMPRESS_MAX_BYTES, maxBodyBytes } from '../limits/sizes';
import { compressJsonBody, compressMultipartBody, type CompressOptions } from '../schemas/compress-request';
import { validate } from '../schemas/validate';
import { decodeBase64Image } from './base64';
import { parseFields } from './parse-fields';
import { readBodyCapped } from './read-body';
import { validateUrlSyntax } from './url/validate-url';
import { readUpload } from './read-upload';

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
 * literal blocking (decisions.md "Order of checks").
 */
export async function readCompressInput(request: Request): Promise<CompressInput> {
  const body = await readBodyCapped(request, maxBodyBytes(COMPRESS_MAX_BYTES), tooLarge);
  const { form, fields } = await parseFields(request.headers.get('Content-Type') ?? undefined, body);
  if (form === 'multipart') {
    const { file, ...options } = validate(compressMultipartBody, fields);
    if (!file) throw missingImage();
    return { source: { kind: 'bytes', bytes: await readUpload(file, COMPRESS_MAX_BYTES, tooLarge) }, options };
  }
  const { image, url, ...options } = validate(compressJsonBody, fields);
  if (url !== undefined) return { source: { kind: 'url', url: validateUrlSyntax(url).href }, options };
  if (image === undefined) throw missingImage();
  return { source: { kind: 'bytes', bytes: decodeBase64Image(image, COMPRESS_MAX_BYTES, tooLarge) }, options };
}

function missingImage(): ApiError {
  return new ApiError('bad_request', 'No image: send a multipart "file", or JSON with "image" (base64) or "url".');
}
