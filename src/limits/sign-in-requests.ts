import { sha256Hex } from '../crypto/secrets';
import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import { mailboxKey } from '../mail/mailbox';
import { clientBuckets } from './client-ip';
import { tooManyRequestsDetails } from './rate-limit-headers';
import { hitMemberWindow, refundHit } from './sliding-window';
import { HOUR_MS } from './windows';

/**
 * The hourly limits on sign-in links (decisions.md, "The dashboard"), known and unknown addresses alike:
 * requests per client address (IPv6 per /64) and per network (IPv4 /24, IPv6 /48); mail per mailbox
 * (the address as mailboxKey sees it); and mail from the whole service (MAIL_PER_HOUR). None of them
 * refuses an address's own request for being asked too often: links coalesce (sessions/sign-in-links.ts).
 */
export const REQUESTS_PER_CLIENT_PER_HOUR = 20;
export const REQUESTS_PER_NETWORK_PER_HOUR = 50;
export const MAILS_PER_MAILBOX_PER_HOUR = 5;

/** A mail counted against a window, to give back if it is not sent after all. */
export interface Allowance {
  subject: string;
  hitId: number;
}

/** Counts a sign-in request against its client's address and network: a 429 past either. */
export async function countSignInRequest(env: Bindings, clientIp: string | undefined, nowMs: number): Promise<void> {
  const client = clientBuckets(clientIp);
  const hit = await hitMemberWindow(
    env,
    `sign-in-network:${client.network}`,
    client.address,
    REQUESTS_PER_CLIENT_PER_HOUR,
    REQUESTS_PER_NETWORK_PER_HOUR,
    HOUR_MS,
    nowMs,
  );
  if (hit.member.allowed) return;
  const full = [hit.member, hit.subject].filter((w) => w.remaining === 0);
  const scope = hit.member.remaining === 0 ? 'your address' : 'your network';
  throw new ApiError('rate_limited', `Too many sign-in links were requested from ${scope} this hour.`, tooManyRequestsDetails(Math.max(...full.map((w) => w.resetMs)), nowMs));
}

/** One mail from the mailbox's hourly allowance, or null when it has none left. */
export async function takeMailboxAllowance(env: Bindings, email: string, nowMs: number): Promise<Allowance | null> {
  // The mailbox's hash names the window: the limiter's storage holds no addresses.
  const subject = `sign-in-mailbox:${await sha256Hex(mailboxKey(email))}`;
  const hit = await hitMemberWindow(env, subject, '', MAILS_PER_MAILBOX_PER_HOUR, MAILS_PER_MAILBOX_PER_HOUR, HOUR_MS, nowMs);
  return hit.hitId === null ? null : { subject, hitId: hit.hitId };
}

/** One mail from the whole service's hourly allowance: a 503 saying when, past it, and a line for the operator. */
export async function takeServiceAllowance(env: Bindings, mailsPerHour: number, nowMs: number): Promise<Allowance> {
  const subject = 'sign-in-mail:all';
  const hit = await hitMemberWindow(env, subject, '', mailsPerHour, mailsPerHour, HOUR_MS, nowMs);
  if (hit.hitId !== null) return { subject, hitId: hit.hitId };
  const details = tooManyRequestsDetails(hit.subject.resetMs, nowMs);
  console.error(`[mail] The service sent its ${mailsPerHour} sign-in emails this hour (MAIL_PER_HOUR); requests are refused until ${details.extra.resetAt}.`);
  throw new ApiError('service_unavailable', 'This service has sent as many sign-in emails as it may this hour.', details);
}

/** Gives back mail allowances for a mail that was not sent. */
export async function giveBack(env: Bindings, allowances: Allowance[]): Promise<void> {
  await Promise.all(allowances.map((a) => refundHit(env, a.subject, a.hitId)));
}
