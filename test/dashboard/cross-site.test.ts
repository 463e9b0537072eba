import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { freshEmail, latestToken, signIn } from '../helpers/dashboard';
import { call } from '../helpers/api';

/** Every state change of the dashboard is a POST checked against cross-site requests (CSRF). */

/**
 * Every POST the app serves that is not the API or the operator's (a bearer token, no cookie): new
 * dashboard actions are covered as they are added.
 */
const pagePosts = [...new Set(app.routes.filter((r) => r.method === 'POST' && !/^\/(v1|operator)\//.test(r.path)).map((r) => r.path))];

const CROSS_SITE: Record<string, Record<string, string>> = {
  'Sec-Fetch-Site: cross-site': { 'Sec-Fetch-Site': 'cross-site' },
  'Sec-Fetch-Site: same-site': { 'Sec-Fetch-Site': 'same-site' },
  'Sec-Fetch-Site: none': { 'Sec-Fetch-Site': 'none' },
  'a foreign Origin': { 'Sec-Fetch-Site': '', Origin: 'https://evil.example' },
  'Origin: null': { 'Sec-Fetch-Site': '', Origin: 'null' },
  'a same-origin claim with a foreign Origin does not matter: Sec-Fetch-Site decides': { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://api.test' },
};

/** Headers with an empty value are left out, so a case can drop the helper's default Sec-Fetch-Site. */
function postAs(path: string, headers: Record<string, string>, cookie?: string, fields: Record<string, string> = {}) {
  const sent = Object.fromEntries(Object.entries({ 'CF-Connecting-IP': '192.0.2.9', ...headers, ...(cookie ? { Cookie: cookie } : {}) }).filter(([, v]) => v));
  return call(path, { method: 'POST', redirect: 'manual', headers: sent, body: new URLSearchParams(fields) });
}

describe('cross-site POSTs are refused', () => {
  it('the app has the POST routes this test expects', () => {
    expect(pagePosts).toEqual(
      expect.arrayContaining(['/signup', '/signin', '/auth/confirm', '/auth/signout', '/dashboard/keys', '/dashboard/keys/:id/revoke', '/dashboard/keys/:id/roll']),
    );
  });

  it('on every dashboard and sign-in POST, with 403 forbidden as a page', async () => {
    const { cookie } = await signIn();
    for (const route of pagePosts) {
      const path = route.replace(':id', 'some-id');
      for (const [label, headers] of Object.entries(CROSS_SITE)) {
        const response = await postAs(path, headers, cookie);
        expect(response.status, `${path} with ${label}`).toBe(403);
        expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
        expect(await response.text()).toContain('<code>forbidden</code>');
      }
    }
  });

  it('and change nothing: no link sent, no session started or ended, no key made', async () => {
    const { cookie, email } = await signIn();
    const before = await env.DB.prepare('SELECT (SELECT count(*) FROM sign_in_links) AS links, (SELECT count(*) FROM sessions WHERE ended_ms IS NULL) AS sessions, (SELECT count(*) FROM api_keys) AS keys').first();
    const evil = CROSS_SITE['Sec-Fetch-Site: cross-site']!;
    await postAs('/signin', evil, undefined, { email });
    await postAs('/dashboard/keys', evil, cookie, { name: 'planted' });
    await postAs('/auth/signout', evil, cookie);
    const after = await env.DB.prepare('SELECT (SELECT count(*) FROM sign_in_links) AS links, (SELECT count(*) FROM sessions WHERE ended_ms IS NULL) AS sessions, (SELECT count(*) FROM api_keys) AS keys').first();
    expect(after).toEqual(before);
  });

  it('the site\'s own forms pass: same-origin, also with the Origin: null that Chromium sends from a no-referrer page', async () => {
    const email = freshEmail();
    expect((await postAs('/signin', { 'Sec-Fetch-Site': 'same-origin' }, undefined, { email })).status).toBe(303);
    const confirmed = await postAs('/auth/confirm', { 'Sec-Fetch-Site': 'same-origin', Origin: 'null' }, undefined, { token: await latestToken(email), name: 'Ada' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('Location')).toBe('/dashboard');
  });

  it('a request from no browser (neither header; a script with no one\'s cookies) and one with our own Origin pass', async () => {
    expect((await postAs('/signin', { 'Sec-Fetch-Site': '' }, undefined, { email: freshEmail() })).status).toBe(303);
    expect((await postAs('/signin', { 'Sec-Fetch-Site': '', Origin: 'http://api.test' }, undefined, { email: freshEmail() })).status).toBe(303);
  });

  it('GET pages are not affected', async () => {
    expect((await call('/signin', { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(200);
  });
});

