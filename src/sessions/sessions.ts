import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomToken, sameDigest, sha256Hex } from '../crypto/secrets';
import type { AppEnv } from '../env';
import { auditStatement } from '../store/audit';
import type { PlanName } from '../store/keys';
import {
  endOtherSessionsStatement,
  endSessionStatement,
  findSession,
  insertSessionStatement,
  listLiveSessions,
  touchSession,
  type ListedSession,
} from '../store/sessions';

/**
 * The session rules of the dashboard, all here: a `__Host-` cookie (HttpOnly, Secure, SameSite=Lax,
 * Path=/) holding `id.secret`, only the secret's SHA-256 stored and compared in constant time; a new
 * session at every sign-in; 7 days idle and 30 days at most; sign-out and "end" act on the server.
 */
export const SESSION_IDLE_MS = 7 * 86_400_000;
export const SESSION_MAX_MS = 30 * 86_400_000;
/** How stale `last_seen` may get before a request writes it again (idle expiry is 7 days: minutes do not matter). */
const TOUCH_AFTER_MS = 5 * 60_000;
/** Sent as `__Host-session`: the prefix makes the browser refuse it unless Secure, Path=/ and host-only. */
const COOKIE = 'session';
/**
 * `__Host-signed-in=1`, beside the session: no secret, readable by the static site's script, which then
 * links its header to the dashboard (public/assets/site-nav.js). A hint only: the session decides.
 */
const HINT = 'signed-in';
const USER_AGENT_MAX = 200;

export interface Session {
  id: string;
  accountId: string;
  email: string | null;
  name: string | null;
  plan: PlanName;
}

/**
 * Starts a new session for the account, ending the one this browser held (if any), and sets its
 * cookie. `also` runs in the same batch (the audit of how the user got here).
 */
export async function startSession(c: Context<AppEnv>, accountId: string, also: D1PreparedStatement[] = []): Promise<void> {
  const db = c.env.DB;
  const previous = await readSession(c);
  const id = randomToken(16);
  const secret = randomToken(32);
  const nowMs = Date.now();
  const userAgent = c.req.header('User-Agent')?.slice(0, USER_AGENT_MAX) ?? null;
  await db.batch([
    ...(previous ? [endSessionStatement(db, previous.accountId, previous.id, nowMs)] : []),
    insertSessionStatement(db, { id, accountId, secretHash: await sha256Hex(secret), nowMs, userAgent }),
    ...also,
    auditStatement(db, accountId, 'signed_in', `session ${id.slice(0, 8)}`, { at: new Date(nowMs).toISOString() }),
  ]);
  const cookie = { prefix: 'host', secure: true, sameSite: 'Lax', path: '/', maxAge: SESSION_MAX_MS / 1000 } as const;
  setCookie(c, COOKIE, `${id}.${secret}`, { ...cookie, httpOnly: true });
  setCookie(c, HINT, '1', cookie);
}

/** Clears the header hint of a browser that sent one without a live session. */
export function clearSignedInHint(c: Context<AppEnv>): void {
  if (getCookie(c, HINT, 'host')) deleteCookie(c, HINT, { prefix: 'host', path: '/', secure: true });
}

/** The id and secret this request's session cookie holds, unchecked. */
function cookieParts(c: Context<AppEnv>): string[] {
  return (getCookie(c, COOKIE, 'host') ?? '').split('.');
}

/**
 * The secret half of this request's session cookie, to derive keys from (sealed-cookie.ts). Only after
 * requireSession checked it against the stored hash.
 */
export function sessionSecret(c: Context<AppEnv>): string | null {
  return c.var.session ? (cookieParts(c)[1] ?? null) : null;
}

/** The live session this request's cookie names, or null: unknown, ended, expired, wrong secret, disabled account. */
export async function readSession(c: Context<AppEnv>): Promise<Session | null> {
  const [id, secret, extra] = cookieParts(c);
  if (!id || !secret || extra !== undefined || id.length > 64 || secret.length > 64) return null;
  const record = await findSession(c.env.DB, id);
  if (!record || record.ended || record.accountDisabled) return null;
  if (!sameDigest(record.secretHash, await sha256Hex(secret))) return null;
  const nowMs = Date.now();
  if (nowMs - record.lastSeenMs >= SESSION_IDLE_MS || nowMs - record.createdMs >= SESSION_MAX_MS) return null;
  if (nowMs - record.lastSeenMs > TOUCH_AFTER_MS) await touchSession(c.env.DB, id, nowMs);
  return { id, accountId: record.accountId, email: record.email, name: record.name, plan: record.plan };
}

/** Sign-out: the session ends on the server and the cookie is cleared. */
export async function signOut(c: Context<AppEnv>, session: Session): Promise<void> {
  await endSessions(c.env.DB, session, 'signed out', endSessionStatement(c.env.DB, session.accountId, session.id, Date.now()));
  for (const name of [COOKIE, HINT]) deleteCookie(c, name, { prefix: 'host', path: '/', secure: true });
}

/** Ends one of the account's sessions; false when the account has no such live session. */
export async function endSession(db: D1Database, session: Session, id: string): Promise<boolean> {
  return (await endSessions(db, session, `session ${id.slice(0, 8)} ended`, endSessionStatement(db, session.accountId, id, Date.now()))) > 0;
}

/** Ends every session of the account but the current one. */
export function endOtherSessions(db: D1Database, session: Session): Promise<number> {
  return endSessions(db, session, 'all other sessions ended', endOtherSessionsStatement(db, session.accountId, session.id, Date.now()));
}

async function endSessions(db: D1Database, session: Session, detail: string, end: D1PreparedStatement): Promise<number> {
  const [ended] = await db.batch([end, auditStatement(db, session.accountId, 'session_ended', detail, { ifChanged: true })]);
  return ended?.meta.changes ?? 0;
}

/** The account's sessions that still work, newest activity first. */
export function liveSessions(db: D1Database, accountId: string): Promise<ListedSession[]> {
  const nowMs = Date.now();
  return listLiveSessions(db, accountId, { idleSinceMs: nowMs - SESSION_IDLE_MS, createdSinceMs: nowMs - SESSION_MAX_MS });
}
