import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/crypto/secrets';
import { LINK_LIFETIME_MS } from '../../src/sessions/sign-in-links';
import { freshEmail, get, latestMail, latestToken, observable, post, sessionCookie, signIn } from '../helpers/dashboard';

/** The passwordless flow and the link rules (decisions.md, "The dashboard"). */

async function account(email: string) {
  return env.DB.prepare('SELECT id, email, name, plan FROM accounts WHERE email = ?')
    .bind(email)
    .first<{ id: string; email: string; name: string | null; plan: string }>();
}

describe('sign-up and sign-in pages', () => {
  it('/signup asks for a name and an email, /signin for an email, each posting to itself', async () => {
    const signup = await (await get('/signup')).text();
    expect(signup).toMatch(/<form[^>]+method="post"[^>]+action="\/signup"/);
    expect(signup).toMatch(/name="name"/);
    expect(signup).toMatch(/name="email"[^>]*type="email"|type="email"[^>]*name="email"/);
    const signin = await (await get('/signin')).text();
    expect(signin).toMatch(/action="\/signin"/);
    expect(signin).not.toMatch(/name="name"/);
  });

  it('a request for a link answers 303 to the same "check your email" page, and mails a link to the confirm page', async () => {
    const email = freshEmail();
    const response = await post('/signup', { name: 'Grace', email: `  ${email.toUpperCase()} ` });
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/auth/sent');
    const mail = await latestMail(email);
    expect(mail.to).toBe(email);
    expect(mail.subject).toMatch(/sign-in link/i);
    expect(mail.text).toContain(mail.link);
    expect(mail.link).toMatch(/^http:\/\/127\.0\.0\.1:8787\/auth\/confirm\?token=[A-Za-z0-9_-]{43}$/);
    const sent = await (await get('/auth/sent')).text();
    expect(sent).toContain('Check your email');
    expect(sent).toContain('/dev/outbox');
  });

  it('does not tell whether an email has an account: sign-up and sign-in answer alike for known and unknown addresses', async () => {
    const { email: known } = await signIn();
    const unknown = freshEmail();
    for (const path of ['/signup', '/signin']) {
      const a = await observable(await post(path, { name: 'X', email: known }));
      const b = await observable(await post(path, { name: 'X', email: unknown }));
      expect(a).toEqual(b);
      expect(a.status).toBe(303);
    }
    // Both addresses got a link of the same wording.
    const [mailKnown, mailUnknown] = [await latestMail(known), await latestMail(unknown)];
    expect(mailKnown.text.replace(mailKnown.link, '')).toBe(mailUnknown.text.replace(mailUnknown.link, ''));
  });

  it('a signed-in user is not shown the forms again: /signin and /signup lead to the dashboard', async () => {
    const { cookie } = await signIn();
    for (const path of ['/signin', '/signup']) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(303);
      expect(response.headers.get('Location')).toBe('/dashboard');
    }
    // Signed out (or with a session that ended), the forms are there.
    expect((await get('/signin', '__Host-session=no.such')).status).toBe(200);
  });

  it('an invalid email or a missing name gets the form again with the problem named and the input kept', async () => {
    const response = await post('/signup', { name: '', email: 'not-an-email' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Enter your name.');
    expect(html).toContain('Enter an email address like name@example.com.');
    expect(html).toContain('value="not-an-email"');
    expect((await post('/signin', {})).status).toBe(400);
  });
});

describe('the link', () => {
  it('opens a confirm page that does not use it; only the POST signs in, creating the account on the free plan with the name given there', async () => {
    const email = freshEmail();
    await post('/signup', { name: 'Grace Hopper', email });
    const token = await latestToken(email);
    for (let i = 0; i < 2; i++) {
      const page = await get(`/auth/confirm?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('Referrer-Policy')).toBe('no-referrer');
      const html = await page.text();
      expect(html).toMatch(/<form[^>]+method="post"[^>]+action="\/auth\/confirm"/);
      expect(html).toContain(`name="token" value="${token}"`);
    }
    expect(await account(email)).toBeNull();

    const confirmed = await post('/auth/confirm', { token, name: 'Grace Hopper' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('Location')).toBe('/dashboard');
    expect(confirmed.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(await account(email)).toMatchObject({ email, name: 'Grace Hopper', plan: 'free' });
    const dashboard = await get('/dashboard', sessionCookie(confirmed));
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('Hello, Grace Hopper');
  });

  it('is single-use: a used link shows a page that offers a new one', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const token = await latestToken(email);
    expect((await post('/auth/confirm', { token, name: 'Ada' })).status).toBe(303);
    for (const response of [await post('/auth/confirm', { token }), await get(`/auth/confirm?token=${token}`)]) {
      expect(response.status).toBe(410);
      expect(response.headers.get('Set-Cookie')).toBeNull();
      const html = await response.text();
      expect(html).toContain('This link no longer works');
      expect(html).toMatch(/<form[^>]+action="\/signin"/);
    }
  });

  it('of two concurrent confirmations, exactly one signs in', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const token = await latestToken(email);
    const responses = await Promise.all(Array.from({ length: 8 }, () => post('/auth/confirm', { token, name: 'Ada' })));
    expect(responses.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410, 410, 410, 410]);
    const { sessions } = (await env.DB.prepare('SELECT count(*) AS sessions FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = ?')
      .bind(email)
      .first<{ sessions: number }>())!;
    expect(sessions).toBe(1);
  });

  it('lives 15 minutes', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const token = await latestToken(email);
    const tokenHash = await sha256Hex(token);
    const row = (await env.DB.prepare('SELECT created_ms, expires_ms FROM sign_in_links WHERE token_hash = ?').bind(tokenHash).first<{ created_ms: number; expires_ms: number }>())!;
    expect(row.expires_ms - row.created_ms).toBe(15 * 60_000);
    expect(LINK_LIFETIME_MS).toBe(15 * 60_000);
    await env.DB.prepare('UPDATE sign_in_links SET expires_ms = ? WHERE token_hash = ?').bind(Date.now() - 1, tokenHash).run();
    expect((await get(`/auth/confirm?token=${token}`)).status).toBe(410);
    expect((await post('/auth/confirm', { token })).status).toBe(410);
    expect(await account(email)).toBeNull();
  });

  it('is stored only as a hash', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const token = await latestToken(email);
    const { results } = await env.DB.prepare('SELECT * FROM sign_in_links WHERE email = ?').bind(email).all<Record<string, unknown>>();
    expect(results).toHaveLength(1);
    expect(JSON.stringify(results)).not.toContain(token);
    expect(results[0]!.token_hash).toBe(await sha256Hex(token));
  });

  it('is bound to its email: it signs in the account of the address it was sent to, whoever opens it', async () => {
    const { email: first } = await signIn(freshEmail(), 'First');
    const { email: second, cookie } = await signIn(freshEmail(), 'Second');
    // A browser signed in as `second` opens the link sent to `first`.
    await post('/signin', { email: first });
    const confirmed = await post('/auth/confirm', { token: await latestToken(first) }, cookie);
    const html = await (await get('/dashboard', sessionCookie(confirmed))).text();
    expect(html).toContain(first);
    expect(html).not.toContain(second);
    // Signing in again neither makes a second account nor renames the first.
    expect(await account(first)).toMatchObject({ name: 'First' });
    const { count } = (await env.DB.prepare('SELECT count(*) AS count FROM accounts WHERE email = ?').bind(first).first<{ count: number }>())!;
    expect(count).toBe(1);
  });

  it('a made-up, empty or overlong token shows the same page as a used one', async () => {
    for (const token of ['', 'x', 'A'.repeat(43), 'A'.repeat(500)]) {
      expect((await get(`/auth/confirm?token=${token}`)).status).toBe(410);
      expect((await post('/auth/confirm', { token })).status).toBe(410);
    }
  });

  it('a disabled account cannot sign in', async () => {
    const { email } = await signIn();
    await env.DB.prepare('UPDATE accounts SET disabled_at = ? WHERE email = ?').bind(new Date().toISOString(), email).run();
    await post('/signin', { email });
    const response = await post('/auth/confirm', { token: await latestToken(email) });
    expect(response.status).toBe(403);
    expect(response.headers.get('Set-Cookie')).toBeNull();
    expect(await response.text()).toContain('This account is disabled');
  });

  it("a coalesced sign-up does not let the first requester choose the name: the confirm page asks it, prefilled only in the browser that gave it", async () => {
    const victim = freshEmail('victim');
    // Someone else asks first for the victim's address, with a name of their choosing.
    expect((await post('/signup', { name: 'Mallory was here', email: victim })).status).toBe(303);
    // The victim's own request coalesces: the link in the inbox is the one the first request made.
    const own = await post('/signup', { name: 'Grace', email: victim });
    expect(own.status).toBe(303);
    const token = await latestToken(victim);
    // Opened in the victim's browser: the name it gave, never the first requester's.
    const inOwnBrowser = await (await get(`/auth/confirm?token=${token}`, nameCookie(own))).text();
    expect(inOwnBrowser).toMatch(/name="name"[^>]*value="Grace"|value="Grace"[^>]*name="name"/);
    expect(inOwnBrowser).not.toContain('Mallory');
    // Opened elsewhere (a phone's mail app): the name is asked, empty.
    const elsewhere = await (await get(`/auth/confirm?token=${token}`)).text();
    expect(elsewhere).toMatch(/name="name"/);
    expect(elsewhere).not.toContain('Mallory');
    const confirmed = await post('/auth/confirm', { token, name: 'Grace' });
    expect(confirmed.status).toBe(303);
    expect(await account(victim)).toMatchObject({ email: victim, name: 'Grace' });
  });

  it('creating an account without a name shows the confirm page again with the problem named, and the link still works', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const token = await latestToken(email);
    for (const name of [undefined, '   ', 'x'.repeat(101)]) {
      const refused = await post('/auth/confirm', name === undefined ? { token } : { token, name });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('Set-Cookie')).toBeNull();
      const html = await refused.text();
      expect(html).toMatch(/Enter your name\.|Use at most 100 characters\./);
      expect(html).toContain(`name="token" value="${token}"`);
    }
    expect(await account(email)).toBeNull();
    expect((await post('/auth/confirm', { token, name: 'Grace' })).status).toBe(303);
    expect(await account(email)).toMatchObject({ name: 'Grace' });
  });

  it("signing in to an account asks no name and keeps the account's", async () => {
    const { email } = await signIn(freshEmail(), 'First');
    await post('/signin', { email });
    const token = await latestToken(email);
    expect(await (await get(`/auth/confirm?token=${token}`)).text()).not.toMatch(/name="name"/);
    expect((await post('/auth/confirm', { token, name: 'Renamed' })).status).toBe(303);
    expect(await account(email)).toMatchObject({ name: 'First' });
  });
});

/** The cookie in which a sign-up's answer keeps the name for the confirm page, as a Cookie header value. */
function nameCookie(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('__Host-sign-up-name='))
    .join('; ');
}
