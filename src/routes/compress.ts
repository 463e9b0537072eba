import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { compressImage } from '../image/pipeline';
import { acceptsWebp } from '../image/steps/choose-formats';
import { readCompressInput, type CompressSource } from '../input/read-compress-input';
import { fetchImageFromUrl } from '../input/url/fetch-image';
import { quotaSlot } from '../limits/monthly-quota';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import type { ServerTiming } from '../timing/server-timing';
import { imageResponse } from './image-response';

/** POST /v1/compress: key, per-minute limit, request checks, quota, then the image work. */
export const compressRoute = new Hono<AppEnv>().post('/v1/compress', authenticate({ holdQuotaSlot: true }), limitPerMinute(), async (c) => {
  const { source, options } = await readCompressInput(c.req.raw);
  // Held by the request's one call; a slot not committed is released after the answer (authenticate).
  const slot = quotaSlot(c);
  const timing = c.get('timing');
  const input = await loadSource(source, timing);
  const result = await compressImage(input, { ...options, acceptsWebp: acceptsWebp(c.req.header('Accept')), timing }).catch((err: unknown) => {
    // A URL that answered with something that is not a usable image is the URL's fault.
    if (source.kind === 'url' && err instanceof ApiError && err.code === 'unsupported_image') {
      throw new ApiError('url_invalid_content', `The url did not return a supported image: ${err.message}`);
    }
    throw err;
  });
  // Counted after the answer: nothing after the work is on the critical path.
  slot.commit(input.length, result.bytes.length);
  return imageResponse({
    ...result,
    originalSize: input.length,
    varyOnAccept: options.format === 'auto',
  });
});

function loadSource(source: CompressSource, timing: ServerTiming): Promise<Uint8Array> {
  return source.kind === 'url' ? timing.stage('fetch', () => fetchImageFromUrl(source.url)) : Promise.resolve(source.bytes);
}
