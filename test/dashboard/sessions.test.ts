import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/crypto/secrets';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../src/sessions/sessions';
import { followRedirect, freshEmail, get, latestToken, post, sessionCookie, signIn } from '../helpers/dashboard';

/** The session rules (decisions.md, "Sessions"), through the fetch handler. */

const sessionId = (cookie: string) => cookie.split('=')[1]!.split('.')[0]!;

async function session(id: string) {
  return env.DB.prepare('SELECT * FROM sessions WHERE id = ?').bind(id).first<Record<string, unknown>>();
}

async function signedIn(cookie: string): Promise<boolean> {
  const response = await get('/dashboard', cookie);
  if (response.status === 303) expect(response.headers.get('Location')).toBe('/signin');
  else expect(response.status).toBe(200);
  return response.status === 200;
}

describe('the session cookie', () => {
  it('is __Host-, HttpOnly, Secure, SameSite=Lax, Path=/, host-only, for at most 30 days', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const confirmed = await post('/auth/confirm', { token: await latestToken(email), name: 'Ada' });
    const [cookie] = confirmed.headers.getSetCookie();
    const [pair, ...attributes] = cookie!.split(/;\s*/);
    expect(pair).toMatch(/^__Host-session=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(attributes.map((a) => a.toLowerCase()).sort()).toEqual(['httponly', 'max-age=2592000', 'path=/', 'samesite=lax', 'secure']);
  });

  it('comes with a hint for the static site\'s header, readable by its script and holding no secret; sign-out clears both', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const confirmed = await post('/auth/confirm', { token: await latestToken(email), name: 'Ada' });
    const hint = confirmed.headers.getSetCookie().find((c) => c.startsWith('__Host-signed-in='))!;
    const [pair, ...attributes] = hint.split(/;\s*/);
    expect(pair).toBe('__Host-signed-in=1');
    expect(attributes.map((a) => a.toLowerCase()).sort()).toEqual(['max-age=2592000', 'path=/', 'samesite=lax', 'secure']);
    const signedOut = await post('/auth/signout', {}, sessionCookie(confirmed));
    expect(signedOut.headers.getSetCookie().join()).toMatch(/__Host-signed-in=;.*Max-Age=0/);
    // A hint that outlived its session is cleared where the dashboard sends the browser to sign in.
    const stale = await get('/dashboard', '__Host-signed-in=1');
    expect(stale.headers.get('Location')).toBe('/signin');
    expect(stale.headers.getSetCookie().join()).toMatch(/__Host-signed-in=;.*Max-Age=0/);
  });

  it('holds a secret of which only the SHA-256 is stored', async () => {
    const { cookie } = await signIn();
    const [id, secret] = cookie.split('=')[1]!.split('.');
    const row = (await session(id!))!;
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secret_hash).toBe(await sha256Hex(secret!));
  });

  it('with the right id and a wrong secret is no session', async () => {
    const { cookie } = await signIn();
    expect(await signedIn(cookie)).toBe(true);
    expect(await signedIn(`${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(await signedIn(`__Host-session=${sessionId(cookie)}`)).toBe(false);
    expect(await signedIn('session=whatever')).toBe(false);
  });
});

describe('session lifetime', () => {
  it('a new session at every sign-in; the one the browser held before ends', async () => {
    const { email, cookie: first } = await signIn();
    await post('/signin', { email });
    const confirmed = await post('/auth/confirm', { token: await latestToken(email), name: 'Ada' }, first);
    const second = sessionCookie(confirmed);
    expect(sessionId(second)).not.toBe(sessionId(first));
    expect(await signedIn(second)).toBe(true);
    expect(await signedIn(first)).toBe(false);
  });

  it('sign-out ends the session on the server, not just in the browser', async () => {
    const { cookie } = await signIn();
    const response = await post('/auth/signout', {}, cookie);
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie().join()).toMatch(/__Host-session=;.*Max-Age=0/);
    expect((await session(sessionId(cookie)))!.ended_ms).not.toBeNull();
    // The old cookie, replayed, no longer works.
    expect(await signedIn(cookie)).toBe(false);
  });

  it(`ends after ${SESSION_IDLE_MS / 86_400_000} days without use`, async () => {
    const { cookie } = await signIn();
    const id = sessionId(cookie);
    await env.DB.prepare('UPDATE sessions SET last_seen_ms = ? WHERE id = ?').bind(Date.now() - SESSION_IDLE_MS + 60_000, id).run();
    expect(await signedIn(cookie)).toBe(true);
    // That request counted as use.
    expect(Number((await session(id))!.last_seen_ms)).toBeGreaterThan(Date.now() - 60_000);
    await env.DB.prepare('UPDATE sessions SET last_seen_ms = ? WHERE id = ?').bind(Date.now() - SESSION_IDLE_MS - 1, id).run();
    expect(await signedIn(cookie)).toBe(false);
  });

  it(`ends ${SESSION_MAX_MS / 86_400_000} days after sign-in even when used every day`, async () => {
    const { cookie } = await signIn();
    const id = sessionId(cookie);
    await env.DB.prepare('UPDATE sessions SET created_ms = ? WHERE id = ?').bind(Date.now() - SESSION_MAX_MS + 60_000, id).run();
    expect(await signedIn(cookie)).toBe(true);
    await env.DB.prepare('UPDATE sessions SET created_ms = ? WHERE id = ?').bind(Date.now() - SESSION_MAX_MS - 1, id).run();
    expect(await signedIn(cookie)).toBe(false);
  });

  it('without a session, every dashboard page and action sends the browser to sign in, and changes nothing', async () => {
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/security', '/dashboard/plan']) {
      const response = await get(path);
      expect(response.status).toBe(303);
      expect(response.headers.get('Location')).toBe('/signin');
    }
    const { count: before } = (await env.DB.prepare('SELECT count(*) AS count FROM api_keys').first<{ count: number }>())!;
    const create = await post('/dashboard/keys', { name: 'sneaky' });
    expect(create.status).toBe(303);
    expect(create.headers.get('Location')).toBe('/signin');
    const { count: after } = (await env.DB.prepare('SELECT count(*) AS count FROM api_keys').first<{ count: number }>())!;
    expect(after).toBe(before);
  });
});

describe('the security page', () => {
  it('lists the live sessions, marks this one, and ends another one or all the others', async () => {
    const { email, cookie: a } = await signIn();
    const others: string[] = [];
    for (let i = 0; i < 2; i++) {
      await post('/signin', { email });
      others.push(sessionCookie(await post('/auth/confirm', { token: await latestToken(email), name: 'Ada' }, undefined, { 'User-Agent': `Browser ${i}` })));
    }
    const [b, c] = others as [string, string];
    const page = await (await get('/dashboard/security', a)).text();
    expect(page).toContain('This browser');
    for (const other of [b, c]) expect(page).toContain(`/dashboard/sessions/${sessionId(other)}/end`);

    expect((await post(`/dashboard/sessions/${sessionId(b)}/end`, {}, a)).status).toBe(303);
    expect(await signedIn(b)).toBe(false);
    expect(await signedIn(c)).toBe(true);

    await post('/signin', { email });
    const d = sessionCookie(await post('/auth/confirm', { token: await latestToken(email), name: 'Ada' }));
    expect((await post('/dashboard/sessions/end-others', {}, a)).status).toBe(303);
    expect(await signedIn(c)).toBe(false);
    expect(await signedIn(d)).toBe(false);
    expect(await signedIn(a)).toBe(true);
  });

  it("another account's session id is a 404, and that session lives on", async () => {
    const mine = await signIn();
    const theirs = await signIn();
    const response = await post(`/dashboard/sessions/${sessionId(theirs.cookie)}/end`, {}, mine.cookie);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('not_found');
    expect(await signedIn(theirs.cookie)).toBe(true);
  });

  it('shows the recent audit events: sign-ins, sessions ended, keys created, revoked and rolled, plan changes', async () => {
    const { cookie, email } = await signIn();
    const created = await (await followRedirect(await post('/dashboard/keys', { name: 'audit me' }, cookie), cookie)).text();
    expect(created).toContain('sqz_');
    const { id } = (await env.DB.prepare('SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ?').bind(email).first<{ id: string }>())!;
    await post(`/dashboard/keys/${id}/roll`, { ends: 'now' }, cookie);
    const { id: rolled } = (await env.DB.prepare(
      'SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ? AND k.revoked_at IS NULL',
    )
      .bind(email)
      .first<{ id: string }>())!;
    await post(`/dashboard/keys/${rolled}/revoke`, {}, cookie);
    // The operator's plan change, as `npm run account -- plan` records it.
    const accountId = (await env.DB.prepare('SELECT id FROM accounts WHERE email = ?').bind(email).first<{ id: string }>())!.id;
    await env.DB.prepare("INSERT INTO audit_events (account_id, at, actor, event, detail) VALUES (?, ?, 'operator', 'plan_changed', 'free → pro')")
      .bind(accountId, new Date().toISOString())
      .run();
    await post('/dashboard/sessions/end-others', {}, cookie);

    const page = await (await get('/dashboard/security', cookie)).text();
    for (const text of ['Account created', 'Signed in', 'Key created', 'Key rolled', 'Key revoked', 'Plan changed', 'free → pro', 'Operator']) {
      expect(page).toContain(text);
    }
    // Ending no other session (there was none) records nothing.
    expect(page).not.toContain('Session ended');
  });
});
