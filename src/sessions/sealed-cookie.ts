import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { decodeBase64Url, encodeBase64Url } from 'hono/utils/encode';
import type { AppEnv } from '../env';
import { sessionSecret } from './sessions';

/**
 * A value carried across one redirect (POST, 303, GET) in a cookie sealed to the session: AES-GCM under a
 * key derived from the session's secret, which only the browser holds (the server keeps its hash), with
 * the session id as associated data. The cookie is HttpOnly, Secure, SameSite=Strict, sent to one path
 * only, for 5 minutes, and opening it deletes it. So the value is in no URL, no log and no storage, and
 * no other session can open it.
 */
const LIFETIME_S = 300;
const IV_BYTES = 12;

async function sealingKey(c: Context<AppEnv>, name: string): Promise<CryptoKey | null> {
  const secret = sessionSecret(c);
  if (!secret) return null;
  const encode = (text: string) => new TextEncoder().encode(text);
  const base = await crypto.subtle.importKey('raw', encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: encode(c.var.session.id), info: encode(name) }, base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** Seals `value` into the cookie `name`, sent back only to `path`. Needs the session (requireSession). */
export async function sealForRedirect(c: Context<AppEnv>, name: string, path: string, value: string): Promise<void> {
  const key = await sealingKey(c, name);
  if (!key) throw new Error('sealForRedirect needs a session');
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(c.var.session.id) }, key, new TextEncoder().encode(value)));
  const cookie = new Uint8Array(IV_BYTES + sealed.byteLength);
  cookie.set(iv);
  cookie.set(sealed, IV_BYTES);
  setCookie(c, name, encodeBase64Url(cookie.buffer), { prefix: 'secure', secure: true, httpOnly: true, sameSite: 'Strict', path, maxAge: LIFETIME_S });
}

/**
 * The value sealed into `name` for this session, once: the cookie is deleted whatever it held. Null when
 * there is none (a reload), it is not this session's, or it was tampered with.
 */
export async function openAfterRedirect(c: Context<AppEnv>, name: string, path: string): Promise<string | null> {
  const cookie = getCookie(c, name, 'secure');
  if (!cookie) return null;
  deleteCookie(c, name, { prefix: 'secure', secure: true, path });
  const key = await sealingKey(c, name);
  if (!key) return null;
  try {
    const bytes = decodeBase64Url(cookie);
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: new TextEncoder().encode(c.var.session.id) },
      key,
      bytes.subarray(IV_BYTES),
    );
    return new TextDecoder().decode(opened);
  } catch {
    return null;
  }
}
