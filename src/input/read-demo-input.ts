import { ApiError } from '../errors/api-error';
import type { ByteClaim } from '../limits/admission';
import { DEMO_MAX_BYTES } from '../limits/sizes';
import { demoJsonBody, demoMultipartBody } from '../schemas/demo-request';
import { validate } from '../schemas/validate';
import { readFields } from './read-fields';

const tooLarge = () =>
  new ApiError('file_too_large', `The demo accepts images up to ${DEMO_MAX_BYTES} bytes (5 MB); use an API key for up to 10 MB.`);

/** The image of a demo request: multipart `image` or JSON base64 `image`, at most 5 MB, counted in `claim` from its first byte. */
export async function readDemoInput(request: Request, claim: ByteClaim): Promise<Uint8Array> {
  const { form, fields } = await readFields(request, { multipartImageField: 'image', maxImageBytes: DEMO_MAX_BYTES, tooLarge, claim });
  return validate(form === 'multipart' ? demoMultipartBody : demoJsonBody, fields).image;
}
