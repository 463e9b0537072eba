import { randomToken, sha256Hex } from '../crypto/secrets';
import { consumeSignInLink, deleteSignInLink, insertSignInLinkUnlessRecent, liveSignInLinkEmail } from '../store/sign-in-links';

/**
 * The sign-in link rules, all here: a 256-bit token, only its SHA-256 stored; bound to the email it was
 * sent to (the stored row says whom it signs in, nothing in the URL does); 15 minutes; single use, and
 * only the confirm page's POST uses it (mail scanners open links with GET). Requests coalesce: while an
 * address has an unused link made in the last 10 minutes, no new one is made, so asking again (or anyone
 * asking for that address) never sends more than one mail in 10 minutes, and the link in the inbox is
 * the one to open, with at least 5 minutes left. A link carries no name: since anyone may ask for a link
 * to any address, and asking again coalesces, a name given with a request could be a stranger's; the
 * confirm page asks the name of an account it creates (sign-up-name.ts).
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const LINK_COALESCE_MS = 10 * 60_000;
export const CONFIRM_PATH = '/auth/confirm';

export interface IssuedLink {
  url: string;
  tokenHash: string;
}

/** Makes a link for `email` at `origin`, or null when the address has an unused one made less than LINK_COALESCE_MS ago. */
export async function issueSignInLink(db: D1Database, origin: string, email: string, nowMs: number): Promise<IssuedLink | null> {
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const stored = await insertSignInLinkUnlessRecent(db, { tokenHash, email, nowMs, expiresMs: nowMs + LINK_LIFETIME_MS }, nowMs - LINK_COALESCE_MS);
  return stored ? { url: `${origin}${CONFIRM_PATH}?token=${token}`, tokenHash } : null;
}

/** Takes back a link that was not sent after all, so that it holds nothing back. */
export function withdrawSignInLink(db: D1Database, link: IssuedLink): Promise<void> {
  return deleteSignInLink(db, link.tokenHash);
}

/** The email the link was sent to, without using it; null if used, expired or unknown. */
export async function signInLinkEmail(db: D1Database, token: string): Promise<string | null> {
  return liveSignInLinkEmail(db, await sha256Hex(token), Date.now());
}

/** Uses the link once: the email it was sent to, or null if used, expired or unknown. */
export async function useSignInLink(db: D1Database, token: string): Promise<string | null> {
  return consumeSignInLink(db, await sha256Hex(token), Date.now());
}
