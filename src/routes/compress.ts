import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { compressImage } from '../image/pipeline';
import { acceptsWebp } from '../image/steps/choose-formats';
import { readCompressInput, type CompressSource } from '../input/read-compress-input';
import { fetchImageFromUrl } from '../input/url/fetch-image';
import { admission, type ByteClaim } from '../limits/admission';
import { reserveQuota } from '../limits/monthly-quota';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import { imageResponse } from './image-response';

/**
 * POST /v1/compress: key, per-minute limit, request checks, quota, then the image work. What the request
 * holds (its body as it is parsed, a url body as it arrives, the image until it is answered) is counted
 * in its claim on the isolate's bytes; a 503 when they are full gives the quota slot and the minute back.
 */
export const compressRoute = new Hono<AppEnv>().post('/v1/compress', authenticate(), limitPerMinute(), async (c) => {
  const claim = admission.claim();
  try {
    const { source, options } = await readCompressInput(c.req.raw, claim);
    const key = c.get('apiKey');
    const slot = await reserveQuota(c.env, key, c.get('nowMs'));
    try {
      const input = await loadSource(source, claim);
      const result = await compressImage(input, { ...options, acceptsWebp: acceptsWebp(c.req.header('Accept')) }).catch(
        (err: unknown) => {
          // A URL that answered with something that is not a usable image is the URL's fault.
          if (source.kind === 'url' && err instanceof ApiError && err.code === 'unsupported_image') {
            throw new ApiError('url_invalid_content', `The url did not return a supported image: ${err.message}`);
          }
          throw err;
        },
      );
      await slot.commit(input.length, result.bytes.length);
      key.monthRequests += 1;
      return imageResponse({
        ...result,
        originalSize: input.length,
        varyOnAccept: options.format === 'auto',
      });
    } catch (err) {
      await slot.release();
      throw err;
    }
  } finally {
    claim.release();
  }
});

function loadSource(source: CompressSource, claim: ByteClaim): Promise<Uint8Array> {
  return source.kind === 'url' ? fetchImageFromUrl(source.url, { claim }) : Promise.resolve(source.bytes);
}
