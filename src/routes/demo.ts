import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { compressImage } from '../image/pipeline';
import { acceptsWebp } from '../image/steps/choose-formats';
import { readDemoInput } from '../input/read-demo-input';
import { clientBucket } from '../limits/client-ip';
import { rateLimitHeaders, tooManyRequestsDetails, type NamedWindow } from '../limits/rate-limit-headers';
import { hitWindow } from '../limits/sliding-window';
import { DEMO_LIMIT, HOUR_MS } from '../limits/windows';
import { imageResponse } from './image-response';

const DEMO_QUALITY = 80;

/**
 * POST /v1/demo-compress: no key, 5 requests per hour per client IP (IPv6 per /64). Every request
 * counts, refused ones included; a 429 itself does not.
 */
export const demoRoute = new Hono<AppEnv>().post('/v1/demo-compress', async (c) => {
  const nowMs = c.get('nowMs');
  const bucket = clientBucket(c.req.header('CF-Connecting-IP'));
  const hour = await hitWindow(c.env, `demo:${bucket}`, DEMO_LIMIT, HOUR_MS, nowMs);
  const window: NamedWindow = { name: 'hour', quota: DEMO_LIMIT, windowSeconds: HOUR_MS / 1000, ...hour };
  const limitHeaders = rateLimitHeaders([window], nowMs);
  if (!hour.allowed) {
    const details = tooManyRequestsDetails(hour.resetMs, nowMs);
    throw new ApiError('rate_limited', `The demo allows ${DEMO_LIMIT} requests per hour; get an API key for more.`, {
      extra: details.extra,
      headers: { ...details.headers, ...limitHeaders, 'X-Demo-Remaining': '0' },
    });
  }
  const demoHeaders = { ...limitHeaders, 'X-Demo-Remaining': String(hour.remaining) };
  try {
    const input = await readDemoInput(c.req.raw);
    const result = await compressImage(input, {
      quality: DEMO_QUALITY,
      format: 'auto',
      acceptsWebp: acceptsWebp(c.req.header('Accept')),
    });
    return imageResponse({ ...result, originalSize: input.length, varyOnAccept: true, headers: demoHeaders });
  } catch (err) {
    if (err instanceof ApiError) Object.assign(err.headers, demoHeaders);
    throw err;
  }
});
