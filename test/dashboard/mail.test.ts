import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/env';
import { callWith } from '../helpers/api';
import { freshEmail, get, latestToken, LOOPBACK, post, SAME_ORIGIN } from '../helpers/dashboard';

/** Local mode's outbox, and production mail chosen by MAIL_TRANSPORT. */

afterEach(() => {
  vi.restoreAllMocks();
});

/** A sign-up through the fetch handler with the mail configuration swapped. */
function signUpWith(bindings: Partial<Bindings>, email: string): Promise<Response> {
  return callWith(bindings, '/signup', {
    method: 'POST',
    redirect: 'manual',
    headers: { ...SAME_ORIGIN, 'CF-Connecting-IP': '192.0.2.44' },
    body: new URLSearchParams({ name: 'Mail Test', email }),
  });
}

describe('the local outbox', () => {
  it('lists the messages at /dev/outbox and gives the newest for an address as JSON, printing the link too', async () => {
    const log = vi.spyOn(console, 'log');
    const email = freshEmail();
    await post('/signup', { name: 'Outbox', email });
    await post('/auth/confirm', { token: await latestToken(email), name: 'Outbox' });
    await post('/signin', { email });
    const latest = await get(`/dev/outbox/latest?to=${encodeURIComponent(email.toUpperCase())}`, undefined, LOOPBACK);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('Cache-Control')).toBe('no-store');
    const body = (await latest.json()) as Record<string, string>;
    expect(Object.keys(body)).toEqual(['to', 'subject', 'text', 'link']);
    expect(body.to).toBe(email);
    const printed = log.mock.calls.map((c) => String(c[0])).filter((line) => line.includes(email));
    expect(printed).toHaveLength(2);
    expect(printed[1]).toContain(body.link);

    const list = await get('/dev/outbox', undefined, LOOPBACK);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain(email);
    expect(html).toContain(`href="${body.link}"`);
    expect(list.headers.get('Cache-Control')).toBe('no-store');
  });

  it('is a 404 like any unknown path to a client that is not on loopback, and for an address with no mail', async () => {
    const email = freshEmail();
    await post('/signin', { email });
    const unknownPath = await (await get('/no-such-path')).json();
    for (const client of [{} as Record<string, string>, { 'CF-Connecting-IP': '203.0.113.5' }, { 'CF-Connecting-IP': '::ffff:10.0.0.1' }, { 'CF-Connecting-IP': '127.0.0.1.evil' }]) {
      for (const path of ['/dev/outbox', `/dev/outbox/latest?to=${email}`]) {
        const response = await get(path, undefined, client);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual(unknownPath);
      }
    }
    for (const loopback of ['127.0.0.1', '::1', '127.8.9.10']) {
      expect((await get(`/dev/outbox/latest?to=${email}`, undefined, { 'CF-Connecting-IP': loopback })).status).toBe(200);
    }
    expect((await get(`/dev/outbox/latest?to=${freshEmail()}`, undefined, LOOPBACK)).status).toBe(404);
  });

  it('exists only in local mode: with another transport it is a 404, even from loopback', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"id":"1"}'));
    const email = freshEmail();
    await signUpWith({ MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_test', MAIL_FROM: 'login@squeeze.test' }, email);
    expect(fetchSpy).toHaveBeenCalledOnce();
    for (const transport of ['resend', 'cloudflare', undefined]) {
      for (const path of ['/dev/outbox', `/dev/outbox/latest?to=${email}`]) {
        expect((await callWith({ MAIL_TRANSPORT: transport }, path, { headers: LOOPBACK })).status).toBe(404);
      }
    }
    // Nothing went to the outbox either.
    expect((await get(`/dev/outbox/latest?to=${email}`, undefined, LOOPBACK)).status).toBe(404);
  });
});

describe('production mail', () => {
  it('MAIL_TRANSPORT=resend posts the message to Resend over HTTPS with the API key', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"id":"1"}'));
    const email = freshEmail();
    const response = await signUpWith({ MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_secret', MAIL_FROM: 'Squeeze <login@squeeze.test>' }, email);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/auth/sent');
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(String(url)).toBe('https://api.resend.com/emails');
    expect(new Headers(init!.headers).get('Authorization')).toBe('Bearer re_secret');
    const sent = JSON.parse(String(init!.body)) as { from: string; to: string[]; subject: string; text: string };
    expect(sent).toMatchObject({ from: 'Squeeze <login@squeeze.test>', to: [email], subject: 'Your Squeeze sign-in link' });
    expect(sent.text).toMatch(/http:\/\/127\.0\.0\.1:8787\/auth\/confirm\?token=[A-Za-z0-9_-]{43}/);
  });

  it('MAIL_TRANSPORT=cloudflare sends through the send_email binding (wrangler\'s simulation: its allow-list sees the recipient)', async () => {
    const config = { MAIL_TRANSPORT: 'cloudflare', MAIL_FROM: 'login@squeeze.test', EMAIL: env.EMAIL };
    expect((await signUpWith(config, 'allowed@example.com')).status).toBe(303);
    // The binding refuses a recipient outside its allow-list: the message really went through it.
    expect((await signUpWith(config, freshEmail())).status).toBe(503);
    // Without its first link, which would coalesce this request: a sender outside the list is refused too.
    await env.DB.prepare("DELETE FROM sign_in_links WHERE email = 'allowed@example.com'").run();
    expect((await signUpWith({ ...config, MAIL_FROM: 'other@squeeze.test' }, 'allowed@example.com')).status).toBe(503);
  });
});
