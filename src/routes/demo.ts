import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { inputSettings } from '../image/input-settings';
import { compressImage } from '../image/pipeline';
import { acceptedFormats } from '../image/steps/choose-formats';
import { readDemoInput } from '../input/read-demo-input';
import { admission } from '../limits/admission';
import { giveBackHit } from '../limits/charged-nothing';
import { clientBuckets } from '../limits/client-ip';
import { DEMO_CPU_BUDGET_MS } from '../limits/cpu';
import { rateLimitHeaders, tooManyRequestsDetails, type NamedWindow } from '../limits/rate-limit-headers';
import { hitMemberWindow } from '../limits/sliding-window';
import { DEMO_LIMIT, DEMO_NETWORK_LIMIT, HOUR_MS } from '../limits/windows';
import { isCrossSite } from '../middleware/refuse-cross-site';
import { imageResponse } from './image-response';

const DEMO_QUALITY = 80;

/** The RateLimit fields of both windows, and X-Demo-Remaining: what the tighter of them has left. */
function demoHeaders(windows: NamedWindow[], nowMs: number): Record<string, string> {
  return { ...rateLimitHeaders(windows, nowMs), 'X-Demo-Remaining': String(Math.min(...windows.map((w) => w.remaining))) };
}

/**
 * POST /v1/demo-compress: no key; not for other websites (403); 5 requests per hour per client address
 * (IPv6 per /64) and 30 per network (IPv4 /24, IPv6 /48). Every request counts, refused ones included;
 * a 429 itself does not, nor a 503 of a busy isolate (the hit is given back). What the request holds is
 * counted in its claim on the isolate's bytes from its first byte until its answer is sent, within its
 * network's share of them.
 */
export const demoRoute = new Hono<AppEnv>().post('/v1/demo-compress', async (c) => {
  // Any page can POST a form here with its visitors' browsers and spend their allowance: refused, uncounted.
  if (isCrossSite(c.req.raw)) {
    throw new ApiError('forbidden', 'Cross-site requests are refused: the demo is for this site and for scripts, not for other websites.');
  }
  const nowMs = c.get('nowMs');
  const client = clientBuckets(c.req.header('CF-Connecting-IP'));
  const subject = `demo:${client.network}`;
  const hit = await hitMemberWindow(c.env, subject, client.address, DEMO_LIMIT, DEMO_NETWORK_LIMIT, HOUR_MS, nowMs);
  const windows: NamedWindow[] = [
    { name: 'hour', quota: DEMO_LIMIT, windowSeconds: HOUR_MS / 1000, ...hit.member },
    { name: 'network', quota: DEMO_NETWORK_LIMIT, windowSeconds: HOUR_MS / 1000, ...hit.subject },
  ];
  if (!hit.member.allowed) {
    // Allowed again once every full window has freed a request.
    const details = tooManyRequestsDetails(Math.max(...windows.filter((w) => w.remaining === 0).map((w) => w.resetMs)), nowMs);
    throw new ApiError(
      'rate_limited',
      `The demo allows ${DEMO_LIMIT} requests per hour per client and ${DEMO_NETWORK_LIMIT} per network; get an API key for more.`,
      { extra: details.extra, headers: { ...details.headers, ...demoHeaders(windows, nowMs) } },
    );
  }
  const claim = admission.claim(`network:${client.network}`);
  try {
    const input = await readDemoInput(c.req.raw, claim);
    const accepted = acceptedFormats(c.req.header('Accept'));
    const result = await compressImage(input, {
      quality: DEMO_QUALITY,
      format: 'auto',
      acceptsWebp: accepted.webp,
      acceptsAvif: accepted.avif,
      cpuBudgetMs: DEMO_CPU_BUDGET_MS,
      timing: c.get('timing'),
      inputs: inputSettings(c.env),
    });
    return imageResponse({ ...result, originalSize: input.length, varyOnAccept: true, headers: demoHeaders(windows, nowMs), claim });
  } catch (err) {
    claim.release();
    if (!(err instanceof ApiError)) throw err;
    const refunded = await giveBackHit(c.env, err, subject, hit.hitId);
    const after = refunded ? windows.map((w) => ({ ...w, remaining: w.remaining + 1 })) : windows;
    Object.assign(err.headers, demoHeaders(after, nowMs));
    throw err;
  }
});
