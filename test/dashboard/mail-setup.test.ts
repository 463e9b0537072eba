import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Bindings } from '../../src/env';
import { callWith } from '../helpers/api';
import { freshEmail, latestMail, linkRows, LOOPBACK, SAME_ORIGIN } from '../helpers/dashboard';

/**
 * What a deployment that cannot send sign-in mail does (README, "Deploy"): the operator reads what is
 * wrong in the logs, naming the setting; visitors get a neutral page that names nothing internal.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const RESEND = { MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_test', MAIL_FROM: 'Squeeze <login@squeeze.test>', PUBLIC_ORIGIN: 'https://squeeze.test' };
/** Words a visitor must never see: the names of settings, bindings and tools. */
const INTERNAL = /MAIL_|RESEND|PUBLIC_ORIGIN|SUPPORT_EMAIL|binding|send_email|wrangler|transport|Resend answered/i;

let clients = 0;
function signUpWith(bindings: Partial<Bindings>, email = freshEmail()): Promise<Response> {
  return callWith(bindings, '/signup', {
    method: 'POST',
    redirect: 'manual',
    headers: { ...SAME_ORIGIN, 'CF-Connecting-IP': `192.0.2.${++clients}` },
    body: new URLSearchParams({ name: 'Setup', email }),
  });
}

/** The neutral page visitors get instead of the forms: 503, and nothing internal named. */
async function expectNotAvailable(response: Response): Promise<string> {
  expect(response.status).toBe(503);
  const html = await response.text();
  expect(html).toContain('Sign-up is not available');
  expect(html).not.toMatch(INTERNAL);
  return html;
}

/** Whether a console.error line the spy saw matches. */
const logged = (errors: MockInstance<typeof console.error>, line: RegExp) => errors.mock.calls.some((call) => line.test(call.join(' ')));

describe('links carry PUBLIC_ORIGIN', () => {
  it('never the host the request named', async () => {
    const email = freshEmail();
    const response = await exports.default.fetch(
      new Request('http://evil.example/signin', {
        method: 'POST',
        redirect: 'manual',
        headers: { ...SAME_ORIGIN, 'CF-Connecting-IP': '192.0.2.200', Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' },
        body: new URLSearchParams({ email }),
      }),
    );
    expect(response.status).toBe(303);
    const { link } = await latestMail(email);
    expect(link).toMatch(new RegExp(`^${env.PUBLIC_ORIGIN}/auth/confirm\\?token=[A-Za-z0-9_-]{43}$`));
  });

  it('with a provider too: the mail sent holds the configured origin', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"id":"1"}'));
    expect((await signUpWith(RESEND)).status).toBe(303);
    const sent = JSON.parse(String(fetchSpy.mock.calls[0]![1]!.body)) as { text: string };
    expect(sent.text).toMatch(/https:\/\/squeeze\.test\/auth\/confirm\?token=/);
    expect(sent.text).not.toContain('api.test');
  });
});

describe('a mail setup that cannot work', () => {
  const broken: [string, Partial<Bindings>, RegExp][] = [
    ['no transport', { ...RESEND, MAIL_TRANSPORT: undefined }, /MAIL_TRANSPORT is not set/],
    ['an unknown transport', { ...RESEND, MAIL_TRANSPORT: 'smtp' }, /MAIL_TRANSPORT is "smtp"/],
    ['resend without its key', { ...RESEND, RESEND_API_KEY: undefined }, /RESEND_API_KEY/],
    ['no sender', { ...RESEND, MAIL_FROM: undefined }, /MAIL_FROM is not set/],
    ['cloudflare without its binding', { ...RESEND, MAIL_TRANSPORT: 'cloudflare', EMAIL: undefined }, /send_email binding named EMAIL/],
    ['no public origin', { ...RESEND, PUBLIC_ORIGIN: undefined }, /PUBLIC_ORIGIN is not set/],
    ['a public origin that is not an origin', { ...RESEND, PUBLIC_ORIGIN: 'squeeze.test' }, /PUBLIC_ORIGIN .*is not an origin/],
    ['a plain-http public origin', { ...RESEND, PUBLIC_ORIGIN: 'http://squeeze.test' }, /PUBLIC_ORIGIN .*https/],
    ['a mail cap that is not a number', { ...RESEND, MAIL_PER_HOUR: 'lots' }, /MAIL_PER_HOUR/],
  ];

  for (const [label, bindings, why] of broken) {
    it(`${label}: the pages say sign-up is not available, the log says why`, async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      for (const path of ['/signup', '/signin']) {
        const html = await expectNotAvailable(await callWith(bindings, path, { headers: { 'CF-Connecting-IP': '192.0.2.250' } }));
        expect(html).not.toMatch(/<form[^>]+action="\/sign(up|in)"/);
      }
      const email = freshEmail();
      await expectNotAvailable(await signUpWith(bindings, email));
      expect(await linkRows(email)).toBe(0);
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(logged(errors, why)).toBe(true);
    });
  }

  it('the provider refusing the key is the same: not available, and the log has its answer', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"message":"API key is invalid"}', { status: 401 }));
    const email = freshEmail();
    const html = await expectNotAvailable(await signUpWith(RESEND, email));
    expect(html).not.toContain('API key is invalid');
    expect(logged(errors, /Resend answered 401.*API key is invalid/)).toBe(true);
    // Nothing was sent, so nothing holds the next request back.
    expect(await linkRows(email)).toBe(0);
  });

  it('a provider that fails for a moment is a page saying to try again, and the next request sends', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(new Response('busy', { status: 503 }));
    const email = freshEmail();
    const failed = await signUpWith(RESEND, email);
    expect(failed.status).toBe(503);
    const html = await failed.text();
    expect(html).toContain('could not be sent');
    expect(html).not.toMatch(INTERNAL);
    fetchSpy.mockResolvedValue(new Response('{"id":"2"}'));
    expect((await signUpWith(RESEND, email)).status).toBe(303);
    expect(await linkRows(email)).toBe(1);
  });

  it('the local outbox needs a loopback PUBLIC_ORIGIN: with any other, /dev/outbox is a 404 even to a loopback client', async () => {
    const email = freshEmail();
    const local = { MAIL_TRANSPORT: 'outbox' };
    for (const origin of ['http://192.168.1.20:8787', 'http://0.0.0.0:8787', 'https://squeeze.test', 'http://127.0.0.1.evil.example:8787']) {
      for (const path of ['/dev/outbox', `/dev/outbox/latest?to=${email}`]) {
        expect((await callWith({ ...local, PUBLIC_ORIGIN: origin }, path, { headers: LOOPBACK })).status, `${origin} ${path}`).toBe(404);
      }
    }
    // Such a server still works in local mode (its links are printed in its terminal).
    expect((await callWith({ ...local, PUBLIC_ORIGIN: 'http://192.168.1.20:8787' }, '/signup', { headers: LOOPBACK })).status).toBe(200);
    for (const origin of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787']) {
      expect((await callWith({ ...local, PUBLIC_ORIGIN: origin }, '/dev/outbox', { headers: LOOPBACK })).status, origin).toBe(200);
    }
  });
});
