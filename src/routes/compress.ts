import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { inputSettings } from '../image/input-settings';
import { compressImage } from '../image/pipeline';
import { acceptedFormats } from '../image/steps/choose-formats';
import { readCompressInput, type CompressSource } from '../input/read-compress-input';
import { fetchImageFromUrl } from '../input/url/fetch-image';
import { admission, type ByteClaim } from '../limits/admission';
import { quotaSlot } from '../limits/monthly-quota';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import type { ServerTiming } from '../timing/server-timing';
import { imageResponse } from './image-response';

/**
 * POST /v1/compress: key, per-minute limit, request checks, quota, then the image work. What the request
 * holds (its body as it is parsed, a url body as it arrives, the image until it is answered, the answer
 * until it is sent) is counted in its claim on the isolate's bytes, within the account's share of them; a 503 when they are full
 * gives the quota slot and the minute back (limit-per-minute.ts).
 */
export const compressRoute = new Hono<AppEnv>().post('/v1/compress', authenticate({ holdQuotaSlot: true }), limitPerMinute(), async (c) => {
  const claim = admission.claim(`account:${c.get('admission').key.accountId}`);
  try {
    const { source, options } = await readCompressInput(c.req.raw, claim);
    // Held by the request's one call; a slot not committed is released before the answer (limit-per-minute.ts).
    const slot = quotaSlot(c);
    const timing = c.get('timing');
    const input = await loadSource(source, claim, timing);
    const accepted = acceptedFormats(c.req.header('Accept'));
    const result = await compressImage(input, { ...options, acceptsWebp: accepted.webp, acceptsAvif: accepted.avif, timing, inputs: inputSettings(c.env) }).catch((err: unknown) => {
      // A URL that answered with something that is not a usable image is the URL's fault.
      if (source.kind === 'url' && err instanceof ApiError && err.code === 'unsupported_image') {
        throw new ApiError('url_invalid_content', `The url did not return a supported image: ${err.message}`);
      }
      throw err;
    });
    // Counted as the answer leaves: nothing after the work is on the critical path.
    slot.commit(input.length, result.bytes.length);
    const { crop, ...image } = result;
    return imageResponse({
      ...image,
      originalSize: input.length,
      varyOnAccept: options.format === 'auto',
      ...(crop ? { headers: { 'X-Crop': `${crop.left},${crop.top},${crop.width},${crop.height}` } } : {}),
      claim,
    });
  } catch (error) {
    claim.release();
    throw error;
  }
});

function loadSource(source: CompressSource, claim: ByteClaim, timing: ServerTiming): Promise<Uint8Array> {
  return source.kind === 'url' ? timing.stage('fetch', () => fetchImageFromUrl(source.url, { claim })) : Promise.resolve(source.bytes);
}
