import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { hasKeyShape } from '../../src/keys/key-format';
import { ACCOUNT_STATE_MAX_AGE_MS } from '../../src/durable/account-gate';
import { MAX_LIVE_KEYS } from '../../src/keys/account-keys';
import { callWith, errorBody } from '../helpers/api';
import { namespaceWith } from '../helpers/bindings';
import { freezeClock } from '../helpers/clock';
import { followRedirect, get, post, postWith, signIn } from '../helpers/dashboard';
import { usage } from '../helpers/usage';

/** The key rules of the dashboard (decisions.md, "Keys in the dashboard"). */

const SECRET = /sqz_[A-Za-z0-9_-]{32}/g;

/**
 * Creates a key through the form as a browser does (POST, then the page its redirect leads to); returns
 * the POST's answer, the page that shows the key and the secret on it.
 */
async function createKey(cookie: string, name: string) {
  const response = await post('/dashboard/keys', { name }, cookie);
  const page = response.status === 303 ? await followRedirect(response, cookie) : response;
  const html = await page.text();
  const secret = html.match(SECRET)?.[0];
  return { response, page, html, secret };
}

/** Rolls a key through its form, following the redirect; returns the POST's answer and the new secret. */
async function rollKey(cookie: string, id: string, ends: string) {
  const response = await post(`/dashboard/keys/${id}/roll`, { ends }, cookie);
  const secret = response.status === 303 ? (await (await followRedirect(response, cookie)).text()).match(SECRET)?.[0] : undefined;
  return { response, secret };
}

/** The account objects' namespace with every reload() failing before it reaches the object, as a reset object fails it. */
const reloadFails = () =>
  namespaceWith(env.ACCOUNT_GATE, (method, call) => (method === 'reload' ? Promise.reject(new Error('Durable Object reset because its code was updated.')) : call()));

async function keyRows(accountOf: string) {
  const { results } = await env.DB.prepare(
    'SELECT k.id, k.name, k.prefix, k.revoked_at, k.expires_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ? ORDER BY k.created_at',
  )
    .bind(accountOf)
    .all<{ id: string; name: string; prefix: string; revoked_at: string | null; expires_at: string | null }>();
  return results;
}

describe('creating a key', () => {
  it('shows the new key once, on a page that is never cached, with a copy button; the key works at once', async () => {
    const { cookie } = await signIn();
    const { page, html, secret } = await createKey(cookie, 'my website');
    expect(page.status).toBe(200);
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    expect(hasKeyShape(secret!)).toBe(true);
    expect(html).toContain('data-copy="new-key"');
    expect(html).toContain('src="/assets/dashboard.js"');
    expect(html).toContain('my website');
    expect((await usage(secret!)).status).toBe(200);
    // Nowhere else: the list and the overview show the prefix only.
    for (const path of ['/dashboard/keys', '/dashboard']) {
      const page = await (await get(path, cookie)).text();
      expect(page).toContain(`${secret!.slice(0, 12)}…`);
      expect(page).not.toContain(secret);
    }
  });

  it('answers the POST with a redirect: the key is on the page it leads to, once; a reload shows it no more and creates none', async () => {
    const logged = [vi.spyOn(console, 'log'), vi.spyOn(console, 'info'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')];
    const { cookie, email } = await signIn();
    const posted = await post('/dashboard/keys', { name: 'reloaded' }, cookie);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('Location')).toBe('/dashboard/keys/new');
    const shown = await followRedirect(posted, cookie);
    expect(shown.status).toBe(200);
    const secret = (await shown.text()).match(SECRET)![0];
    expect((await usage(secret)).status).toBe(200);
    // The page tells the browser to forget what carried the key.
    const carrier = posted.headers.getSetCookie().find((c) => c.includes('Path=/dashboard/keys/new'))!;
    expect(carrier).toMatch(/HttpOnly/);
    expect(carrier).toMatch(/SameSite=Strict/);
    expect(carrier).not.toContain(secret);
    expect(carrier).not.toContain(secret.slice(4));
    const carrierName = carrier.split('=')[0]!;
    expect(shown.headers.getSetCookie().some((c) => c.startsWith(`${carrierName}=;`) && /Max-Age=0/.test(c))).toBe(true);

    // A reload (the browser no longer sends the carrier), a second session, or a fresh GET: no key, no new key.
    const other = await signIn(email);
    for (const reload of [await get('/dashboard/keys/new', cookie), await followRedirect(posted, other.cookie)]) {
      expect(reload.status).toBe(200);
      const html = await reload.text();
      expect(html).not.toMatch(SECRET);
      expect(html).toContain('shown once');
    }
    expect(await keyRows(email)).toHaveLength(1);
    // Never in a URL, never in a log.
    expect(posted.headers.get('Location')).not.toContain(secret);
    for (const spy of logged) expect(JSON.stringify(spy.mock.calls)).not.toContain(secret);
    vi.restoreAllMocks();
  });

  it('lists each key with name, prefix, created, last used and status', async () => {
    const { cookie } = await signIn();
    const { secret } = await createKey(cookie, 'worker');
    let page = await (await get('/dashboard/keys', cookie)).text();
    expect(page).toMatch(/<th scope="row">worker<\/th><td[^>]*><code>sqz_\S{8}…<\/code><\/td><td[^>]*>\d+ \w{3} \d{4}<\/td><td[^>]*>Never<\/td><td[^>]*><span class="status active">Active<\/span>/);
    // "Last used" is written in the background (waitUntil), at most once an hour: callWith waits for it.
    await (await callWith({}, '/v1/usage', { headers: { 'X-API-Key': secret! } })).arrayBuffer();
    page = await (await get('/dashboard/keys', cookie)).text();
    expect(page).toMatch(/<th scope="row">worker<\/th><td[^>]*><code>sqz_\S{8}…<\/code><\/td><td[^>]*>\d+ \w{3} \d{4}<\/td><td[^>]*>\d+ \w{3} \d{4}, \d\d:\d\d UTC<\/td>/);
  });

  it('needs a name of at most 50 characters', async () => {
    const { cookie, email } = await signIn();
    for (const name of ['', '   ', 'x'.repeat(51)]) {
      const { response, html, secret } = await createKey(cookie, name);
      expect(response.status).toBe(400);
      expect(secret).toBeUndefined();
      expect(html).toMatch(/Give the key a name|at most 50 characters/);
    }
    expect(await keyRows(email)).toEqual([]);
    const { page } = await createKey(cookie, 'y'.repeat(50));
    expect(page.status).toBe(200);
    expect((await keyRows(email))[0]!.name).toBe('y'.repeat(50));
  });

  it(`allows at most ${MAX_LIVE_KEYS} working keys, even when created all at once; revoked ones do not count`, async () => {
    const { cookie, email } = await signIn();
    const responses = await Promise.all(Array.from({ length: MAX_LIVE_KEYS + 3 }, (_, i) => post('/dashboard/keys', { name: `k${i}` }, cookie)));
    expect(responses.filter((r) => r.status === 303)).toHaveLength(MAX_LIVE_KEYS);
    const refused = responses.find((r) => r.status === 400)!;
    expect(await refused.text()).toContain('You already have 10 working keys');
    expect(await keyRows(email)).toHaveLength(MAX_LIVE_KEYS);

    await post(`/dashboard/keys/${(await keyRows(email))[0]!.id}/revoke`, {}, cookie);
    expect((await createKey(cookie, 'one more')).response.status).toBe(303);
    expect((await createKey(cookie, 'too many')).response.status).toBe(400);
  });
});

describe('revoking and rolling', () => {
  it('revoke is immediate: the key gets 401 on its next request', async () => {
    const { cookie, email } = await signIn();
    const { secret } = await createKey(cookie, 'ci');
    expect((await usage(secret!)).status).toBe(200);
    const response = await post(`/dashboard/keys/${(await keyRows(email))[0]!.id}/revoke`, {}, cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/dashboard/keys');
    const refused = await usage(secret!);
    expect(refused.status).toBe(401);
    expect((await errorBody(refused)).message).toMatch(/revoked/);
    expect(await (await get('/dashboard/keys', cookie)).text()).toMatch(/Revoked \d+ \w{3} \d{4}/);
  });

  it("revoke while the call to the account's object fails: the page says so and offers to revoke again; the key ends within the bound anyway", async () => {
    const clockMs = freezeClock();
    const { cookie, email } = await signIn();
    const { secret } = await createKey(cookie, 'ci');
    expect((await usage(secret!)).status).toBe(200);
    const { id } = (await keyRows(email))[0]!;
    const page = await postWith({ ACCOUNT_GATE: reloadFails() }, `/dashboard/keys/${id}/revoke`, {}, cookie);
    expect(page.status).toBe(503);
    const html = await page.text();
    expect(html).toContain(`action="/dashboard/keys/${id}/revoke"`);
    expect(html).toContain('Revoke again');
    expect(html).toMatch(/could not confirm[^<]*up to 30 seconds/);
    expect((await keyRows(email))[0]!.revoked_at).not.toBeNull();
    // The object was not told, so it still has the key working: what the bound is for.
    expect((await usage(secret!)).status).toBe(200);
    vi.setSystemTime(clockMs + ACCOUNT_STATE_MAX_AGE_MS);
    const refused = await usage(secret!);
    expect(refused.status).toBe(401);
    expect((await errorBody(refused)).message).toMatch(/revoked/);
  });

  it("revoke again after a failed call to the account's object: the key is 401 at once", async () => {
    freezeClock();
    const { cookie, email } = await signIn();
    const { secret } = await createKey(cookie, 'ci');
    expect((await usage(secret!)).status).toBe(200);
    const { id } = (await keyRows(email))[0]!;
    expect((await postWith({ ACCOUNT_GATE: reloadFails() }, `/dashboard/keys/${id}/revoke`, {}, cookie)).status).toBe(503);
    expect((await usage(secret!)).status).toBe(200);
    const again = await post(`/dashboard/keys/${id}/revoke`, {}, cookie);
    expect(again.status).toBe(303);
    expect((await usage(secret!)).status).toBe(401);
  });

  it("roll with \"now\" while the call to the account's object fails: the new key is still shown once, and the page says the old one may work up to 30 seconds", async () => {
    const clockMs = freezeClock();
    const { cookie, email } = await signIn();
    const { secret: old } = await createKey(cookie, 'server');
    expect((await usage(old!)).status).toBe(200);
    const posted = await postWith({ ACCOUNT_GATE: reloadFails() }, `/dashboard/keys/${(await keyRows(email))[0]!.id}/roll`, { ends: 'now' }, cookie);
    expect(posted.status).toBe(303);
    const html = await (await followRedirect(posted, cookie)).text();
    const secret = html.match(SECRET)![0];
    expect(html).toMatch(/could not confirm[^<]*up to 30 seconds/);
    // The old key first: the new key's first request would have the object read the account again.
    vi.setSystemTime(clockMs + ACCOUNT_STATE_MAX_AGE_MS);
    expect((await usage(old!)).status).toBe(401);
    expect((await usage(secret)).status).toBe(200);
  });

  it('roll with "now": a new secret with the same name; the old one is 401 at once', async () => {
    const { cookie, email } = await signIn();
    const { secret: old } = await createKey(cookie, 'server');
    const rolled = await rollKey(cookie, (await keyRows(email))[0]!.id, 'now');
    expect(rolled.response.status).toBe(303);
    const secret = rolled.secret!;
    expect(secret).not.toBe(old);
    expect((await usage(old!)).status).toBe(401);
    const body = (await (await usage(secret)).json()) as { key: { name: string } };
    expect(body.key.name).toBe('server');
    const rows = await keyRows(email);
    expect(rows.map((r) => r.name)).toEqual(['server', 'server']);
  });

  it('roll with "24h": the old key works until its grace ends, then is 401', async () => {
    const { cookie, email } = await signIn();
    const { secret: old } = await createKey(cookie, 'phone app');
    const { id } = (await keyRows(email))[0]!;
    const rolled = await rollKey(cookie, id, '24h');
    expect(rolled.response.status).toBe(303);
    const secret = rolled.secret!;
    expect((await usage(old!)).status).toBe(200);
    expect((await usage(secret)).status).toBe(200);
    const { expires_at } = (await env.DB.prepare('SELECT expires_at FROM api_keys WHERE id = ?').bind(id).first<{ expires_at: string }>())!;
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(await (await get('/dashboard/keys', cookie)).text()).toMatch(/Ends \d+ \w{3} \d{4}, \d\d:\d\d UTC/);
    // The audit log writes the end like every other date, not as a raw ISO time.
    const security = await (await get('/dashboard/security', cookie)).text();
    expect(security).toMatch(/the old key ends \d+ \w{3} \d{4}, \d\d:\d\d UTC/);
    expect(security).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // A key that is already ending cannot be rolled again.
    expect((await post(`/dashboard/keys/${id}/roll`, { ends: 'now' }, cookie)).status).toBe(400);

    // The grace ends: the account's object knows when, from the roll.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(expires_at) + 1000);
      const refused = await usage(old!);
      expect(refused.status).toBe(401);
      expect((await errorBody(refused)).message).toMatch(/rolled/);
      expect((await usage(secret)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a 24-hour grace needs room for both keys; ending the old one now always has room', async () => {
    const { cookie, email } = await signIn();
    for (let i = 0; i < MAX_LIVE_KEYS; i++) await createKey(cookie, `k${i}`);
    const { id } = (await keyRows(email))[0]!;
    const refused = await post(`/dashboard/keys/${id}/roll`, { ends: '24h' }, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('would make 11 working keys');
    expect((await post(`/dashboard/keys/${id}/roll`, { ends: 'now' }, cookie)).status).toBe(303);
    expect((await keyRows(email)).filter((k) => !k.revoked_at)).toHaveLength(MAX_LIVE_KEYS);
  });

  it('a roll needs a choice of when the old key ends', async () => {
    const { cookie, email } = await signIn();
    await createKey(cookie, 'k');
    const { id } = (await keyRows(email))[0]!;
    expect((await post(`/dashboard/keys/${id}/roll`, { ends: 'never' }, cookie)).status).toBe(400);
    expect(await keyRows(email)).toHaveLength(1);
  });

  it("another account's key id is a 404 for revoke and roll, and the key keeps working", async () => {
    const mine = await signIn();
    const theirs = await signIn();
    const { secret } = await createKey(theirs.cookie, 'theirs');
    const { id } = (await keyRows(theirs.email))[0]!;
    for (const action of ['revoke', 'roll']) {
      const response = await post(`/dashboard/keys/${id}/${action}`, { ends: 'now' }, mine.cookie);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('not_found');
    }
    expect((await usage(secret!)).status).toBe(200);
    expect(await keyRows(theirs.email)).toHaveLength(1);
    expect(await keyRows(mine.email)).toHaveLength(0);
  });
});
