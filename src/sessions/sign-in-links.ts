import { randomToken, sha256Hex } from '../crypto/secrets';
import { consumeSignInLink, insertSignInLink, signInLinkIsLive } from '../store/sign-in-links';

/**
 * The sign-in link rules, all here: a 256-bit token, only its SHA-256 stored; bound to the email it was
 * sent to (the stored row says whom it signs in, nothing in the URL does); 15 minutes; single use, and
 * only the confirm page's POST uses it (mail scanners open links with GET).
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const CONFIRM_PATH = '/auth/confirm';

/** Makes a link for `email` (and the name given at sign-up) and returns its URL. */
export async function issueSignInLink(db: D1Database, origin: string, email: string, name: string | null): Promise<string> {
  const token = randomToken(32);
  const nowMs = Date.now();
  await insertSignInLink(db, { tokenHash: await sha256Hex(token), email, name, nowMs, expiresMs: nowMs + LINK_LIFETIME_MS });
  return `${origin}${CONFIRM_PATH}?token=${token}`;
}

export async function signInLinkWorks(db: D1Database, token: string): Promise<boolean> {
  return signInLinkIsLive(db, await sha256Hex(token), Date.now());
}

/** Uses the link once: the email it was sent to (and the sign-up name), or null if used, expired or unknown. */
export async function useSignInLink(db: D1Database, token: string): Promise<{ email: string; name: string | null } | null> {
  return consumeSignInLink(db, await sha256Hex(token), Date.now());
}
