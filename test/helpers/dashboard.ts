import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Bindings } from '../../src/env';
import { call, callWith } from './api';

/** What a browser sends with a form posted from the site's own page. */
export const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };
/** The outbox answers loopback clients only; wrangler dev reports them in CF-Connecting-IP. */
export const LOOPBACK = { 'CF-Connecting-IP': '127.0.0.1' };

let clients = 0;
/** A client address in a /24 of its own, so the limits on sign-in requests never mix tests. */
export const freshClient = () => ({ 'CF-Connecting-IP': `10.${++clients >> 8}.${clients & 255}.9` });

/** A page as a browser gets it, redirects not followed. */
export function get(path: string, cookie?: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { redirect: 'manual', headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
}

/** A form POST as the site's own page sends it (same-origin), redirects not followed. */
export function post(path: string, fields: Record<string, string> = {}, cookie?: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, formPost(fields, cookie, headers));
}

/** The same POST with some of the platform's bindings swapped (test/helpers/bindings.ts). */
export function postWith(bindings: Partial<Bindings>, path: string, fields: Record<string, string>, cookie: string): Promise<Response> {
  return callWith(bindings, path, formPost(fields, cookie));
}

function formPost(fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    redirect: 'manual',
    headers: { ...SAME_ORIGIN, ...freshClient(), ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body: new URLSearchParams(fields),
  };
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  link: string;
}

export async function latestMail(email: string): Promise<OutboxMessage> {
  const response = await get(`/dev/outbox/latest?to=${encodeURIComponent(email)}`, undefined, LOOPBACK);
  expect(response.status).toBe(200);
  return (await response.json()) as OutboxMessage;
}

/** The token of the newest sign-in link sent to `email`. */
export async function latestToken(email: string): Promise<string> {
  return new URL((await latestMail(email)).link).searchParams.get('token')!;
}

/** The session cookie a response sets, as a Cookie header value. */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('__Host-session='));
  expect(cookie).toBeDefined();
  return cookie!.split(';')[0]!;
}

/**
 * Follows a dashboard POST's redirect as a browser does, with the session and the cookies the POST set
 * (the new key travels in one, never in the URL).
 */
export async function followRedirect(posted: Response, cookie: string): Promise<Response> {
  expect(posted.status).toBe(303);
  const set = posted.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return get(posted.headers.get('Location')!, [cookie, ...set].join('; '));
}

let emails = 0;
export const freshEmail = (tag = 'user') => `${tag}-${++emails}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Signs up (or in) through the whole flow: form, mail, confirm (with the name, asked there of a new account). Returns the session cookie. */
export async function signIn(email = freshEmail(), name = 'Ada'): Promise<{ email: string; cookie: string }> {
  expect((await post('/signup', { name, email })).status).toBe(303);
  const confirmed = await post('/auth/confirm', { token: await latestToken(email), name });
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.get('Location')).toBe('/dashboard');
  return { email, cookie: sessionCookie(confirmed) };
}

/** What a client can observe of an answer: status, headers but the date, body. */
export async function observable(response: Response): Promise<{ status: number; headers: string[][]; body: string }> {
  const headers = [...response.headers].filter(([name]) => name !== 'date');
  return { status: response.status, headers, body: await response.text() };
}

/** How many sign-in links D1 holds for `email`. */
export async function linkRows(email: string): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM sign_in_links WHERE email = ?').bind(email).first<{ n: number }>())!.n;
}
