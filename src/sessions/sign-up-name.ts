import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { PERSON_NAME_MAX } from '../schemas/forms';
import { LINK_LIFETIME_MS } from './sign-in-links';

/**
 * The name a sign-up form was given, kept in the browser that gave it (`__Host-sign-up-name`, for as
 * long as a link lives), so that the confirm page opened there shows it ready to confirm. It never
 * travels with the link: anyone can ask for a link to any address, so only the browser that typed the
 * name may offer it. Elsewhere (the mail opened on a phone) the confirm page asks the name afresh.
 */
const COOKIE = 'sign-up-name';
const OPTIONS = { prefix: 'host', secure: true, path: '/' } as const;

export function keepSignUpName(c: Context<AppEnv>, name: string): void {
  setCookie(c, COOKIE, name, { ...OPTIONS, httpOnly: true, sameSite: 'Lax', maxAge: LINK_LIFETIME_MS / 1000 });
}

/** The name this browser gave at sign-up, if any (the confirm page's field still validates what is sent). */
export function signUpName(c: Context<AppEnv>): string | undefined {
  return getCookie(c, COOKIE, 'host')?.slice(0, PERSON_NAME_MAX);
}

export function forgetSignUpName(c: Context<AppEnv>): void {
  if (getCookie(c, COOKIE, 'host') !== undefined) deleteCookie(c, COOKIE, OPTIONS);
}
