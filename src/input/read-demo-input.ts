import { ApiError } from '../errors/api-error';
import { DEMO_MAX_BYTES, maxBodyBytes } from '../limits/sizes';
import { demoJsonBody, demoMultipartBody } from '../schemas/demo-request';
import { validate } from '../schemas/validate';
import { decodeBase64Image } from './base64';
import { parseFields } from './parse-fields';
import { readBodyCapped } from './read-body';
import { readUpload } from './read-upload';

const tooLarge = () =>
  new ApiError('file_too_large', `The demo accepts images up to ${DEMO_MAX_BYTES} bytes (5 MB); use an API key for up to 10 MB.`);

/** The image of a demo request: multipart `image` or JSON base64 `image`, at most 5 MB. */
export async function readDemoInput(request: Request): Promise<Uint8Array> {
  const body = await readBodyCapped(request, maxBodyBytes(DEMO_MAX_BYTES), tooLarge);
  const { form, fields } = await parseFields(request.headers.get('Content-Type') ?? undefined, body);
  if (form === 'multipart') return readUpload(validate(demoMultipartBody, fields).image, DEMO_MAX_BYTES, tooLarge);
  return decodeBase64Image(validate(demoJsonBody, fields).image, DEMO_MAX_BYTES, tooLarge);
}
