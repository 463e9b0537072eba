import { sha256Hex } from '../crypto/secrets';
import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import { clientBuckets } from './client-ip';
import { tooManyRequestsDetails } from './rate-limit-headers';
import { hitWindow } from './sliding-window';
import { HOUR_MS } from './windows';

/**
 * How many sign-in links may be asked for in an hour: per email address (so nobody's inbox can be
 * flooded) and per client address (so one client cannot spray many inboxes). Known and unknown
 * addresses count alike, so the limit tells nothing about who has an account.
 */
export const LINKS_PER_EMAIL_PER_HOUR = 5;
export const LINKS_PER_CLIENT_PER_HOUR = 20;

export async function countSignInRequest(env: Bindings, email: string, clientIp: string | undefined, nowMs: number): Promise<void> {
  const byClient = await hitWindow(env, `sign-in-client:${clientBuckets(clientIp).address}`, LINKS_PER_CLIENT_PER_HOUR, HOUR_MS, nowMs);
  if (!byClient.allowed) refuse(byClient.resetMs, nowMs, 'from your address');
  // The email's hash names the window: the limiter's storage holds no addresses.
  const byEmail = await hitWindow(env, `sign-in-email:${await sha256Hex(email)}`, LINKS_PER_EMAIL_PER_HOUR, HOUR_MS, nowMs);
  if (!byEmail.allowed) refuse(byEmail.resetMs, nowMs, 'for this email address');
}

function refuse(resetMs: number, nowMs: number, scope: string): never {
  throw new ApiError('rate_limited', `Too many sign-in links were asked for ${scope} this hour. Try again later.`, tooManyRequestsDetails(resetMs, nowMs));
}
