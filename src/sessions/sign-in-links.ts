import { randomToken, sha256Hex } from '../crypto/secrets';
import { consumeSignInLink, deleteSignInLink, insertSignInLinkUnlessRecent, signInLinkIsLive } from '../store/sign-in-links';

/**
 * The sign-in link rules, all here: a 256-bit token, only its SHA-256 stored; bound to the email it was
 * sent to (the stored row says whom it signs in, nothing in the URL does); 15 minutes; single use, and
 * only the confirm page's POST uses it (mail scanners open links with GET). Requests coalesce: while an
 * address has an unused link made in the last 10 minutes, no new one is made, so asking again (or anyone
 * asking for that address) never sends more than one mail in 10 minutes, and the link in the inbox is
 * the one to open, with at least 5 minutes left.
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const LINK_COALESCE_MS = 10 * 60_000;
export const CONFIRM_PATH = '/auth/confirm';

export interface IssuedLink {
  url: string;
  tokenHash: string;
}

/**
 * Makes a link for `email` (and the name given at sign-up) at `origin`, or null when the address has an
 * unused one made less than LINK_COALESCE_MS ago.
 */
export async function issueSignInLink(db: D1Database, origin: string, email: string, name: string | null, nowMs: number): Promise<IssuedLink | null> {
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const stored = await insertSignInLinkUnlessRecent(db, { tokenHash, email, name, nowMs, expiresMs: nowMs + LINK_LIFETIME_MS }, nowMs - LINK_COALESCE_MS);
  return stored ? { url: `${origin}${CONFIRM_PATH}?token=${token}`, tokenHash } : null;
}

/** Takes back a link that was not sent after all, so that it holds nothing back. */
export function withdrawSignInLink(db: D1Database, link: IssuedLink): Promise<void> {
  return deleteSignInLink(db, link.tokenHash);
}

export async function signInLinkWorks(db: D1Database, token: string): Promise<boolean> {
  return signInLinkIsLive(db, await sha256Hex(token), Date.now());
}

/** Uses the link once: the email it was sent to (and the sign-up name), or null if used, expired or unknown. */
export async function useSignInLink(db: D1Database, token: string): Promise<{ email: string; name: string | null } | null> {
  return consumeSignInLink(db, await sha256Hex(token), Date.now());
}
