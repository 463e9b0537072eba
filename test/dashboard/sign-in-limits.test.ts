import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { mailboxKey } from '../../src/mail/mailbox';
import { MAILS_PER_MAILBOX_PER_HOUR, REQUESTS_PER_CLIENT_PER_HOUR, REQUESTS_PER_NETWORK_PER_HOUR } from '../../src/limits/sign-in-requests';
import { LINK_COALESCE_MS } from '../../src/sessions/sign-in-links';
import { freshEmail, get, linkRows, LOOPBACK, observable, post, signIn } from '../helpers/dashboard';

/**
 * The limits on sign-in links (decisions.md, "Sign-in links never lock their owner out"): the owner's own
 * request always leaves a working link in their inbox, mail per mailbox and per client network is capped,
 * and no answer tells whether an address has an account.
 */

let unique = 0;
/** A client address of its own in a /24 and a /48 of its own. */
const client = () => ({ 'CF-Connecting-IP': `10.77.${++unique}.1` });

/** Every message the outbox holds for `email` (newest first), as the outbox page lists them. */
async function mailsTo(email: string): Promise<number> {
  const html = await (await get('/dev/outbox', undefined, LOOPBACK)).text();
  return html.split(`</strong> to ${email}</p>`).length - 1;
}

/** The newest link mailed to `email` signs in (the confirm page's POST answers 303 to the dashboard). */
async function newestLinkSignsIn(email: string): Promise<boolean> {
  const response = await get(`/dev/outbox/latest?to=${encodeURIComponent(email)}`, undefined, LOOPBACK);
  if (response.status !== 200) return false;
  const token = new URL(((await response.json()) as { link: string }).link).searchParams.get('token')!;
  const confirmed = await post('/auth/confirm', { token, name: 'Ada' });
  return confirmed.status === 303 && confirmed.headers.get('Location') === '/dashboard';
}

describe('the mailbox key (for the limiter only)', () => {
  it('lowercases, drops a +tag everywhere and dots at gmail.com and googlemail.com (one mailbox)', () => {
    expect(mailboxKey('Erin+news@Example.COM')).toBe('erin@example.com');
    expect(mailboxKey('erin+a+b@example.com')).toBe('erin@example.com');
    expect(mailboxKey('e.r.i.n@example.com')).toBe('e.r.i.n@example.com');
    expect(mailboxKey('E.R.I.N+1@gmail.com')).toBe('erin@gmail.com');
    expect(mailboxKey('e.rin+x@GoogleMail.com')).toBe('erin@gmail.com');
    expect(mailboxKey('erin@gmail.com.evil.example')).toBe('erin@gmail.com.evil.example');
  });

  it('is not the address mail goes to: a +tag address gets its mail and its link signs in that address', async () => {
    const email = `tagged-${crypto.randomUUID().slice(0, 8)}+squeeze@example.com`;
    expect((await post('/signup', { name: 'Tag', email }, undefined, client())).status).toBe(303);
    expect(await mailsTo(email)).toBe(1);
    expect(await newestLinkSignsIn(email)).toBe(true);
    const account = await env.DB.prepare('SELECT email FROM accounts WHERE email = ?').bind(email).first();
    expect(account).toEqual({ email });
  });
});

describe('the owner is never locked out', () => {
  it('after many requests for their address from many clients, their own request leaves a working link', async () => {
    const { email } = await signIn();
    for (let i = 0; i < 12; i++) expect((await post('/signin', { email }, undefined, client())).status).toBe(303);
    const own = await post('/signin', { email }, undefined, client());
    expect(own.status).toBe(303);
    expect(own.headers.get('Location')).toBe('/auth/sent');
    expect(await newestLinkSignsIn(email)).toBe(true);
  });

  it('+tag and dot spellings of their gmail address fill the mailbox cap, and the owner still gets a link', async () => {
    const local = `erin${crypto.randomUUID().slice(0, 8)}`;
    const owner = `${local}@gmail.com`;
    await signIn(owner, 'Erin');
    const spellings = Array.from({ length: 10 }, (_, i) => (i % 2 ? `${local.slice(0, 3)}.${local.slice(3)}+${i}@googlemail.com` : `${local}+${i}@gmail.com`));
    for (const email of spellings) expect((await post('/signup', { name: 'X', email }, undefined, client())).status).toBe(303);
    let reached = 0;
    for (const email of spellings) reached += await mailsTo(email);
    // The owner's sign-up mail counted too: at most 5 in the hour for the mailbox, whatever the spelling.
    expect(reached).toBe(MAILS_PER_MAILBOX_PER_HOUR - 1);
    expect((await post('/signin', { email: owner }, undefined, client())).status).toBe(303);
    expect(await newestLinkSignsIn(owner)).toBe(true);
  });
});

describe('coalescing', () => {
  it(`requests within ${LINK_COALESCE_MS / 60_000} minutes of a link still unused send no second mail; the answers are identical`, async () => {
    const email = freshEmail();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await observable(await post('/signin', { email }, undefined, client())));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(303);
    expect(await mailsTo(email)).toBe(1);
    expect(await linkRows(email)).toBe(1);
    // The page says so, for everyone: the link already sent is the one to open.
    expect(await (await get('/auth/sent')).text()).toContain(`${LINK_COALESCE_MS / 60_000} minutes`);
  });

  it(`a link older than ${LINK_COALESCE_MS / 60_000} minutes, or used, no longer holds back a new one`, async () => {
    const email = freshEmail();
    await post('/signin', { email }, undefined, client());
    await env.DB.prepare('UPDATE sign_in_links SET created_ms = created_ms - ? WHERE email = ?').bind(LINK_COALESCE_MS, email).run();
    await post('/signin', { email }, undefined, client());
    expect(await mailsTo(email)).toBe(2);
    expect(await newestLinkSignsIn(email)).toBe(true);
    await post('/signin', { email }, undefined, client());
    expect(await mailsTo(email)).toBe(3);
  });

  it('of concurrent requests for one address, one sends a mail', async () => {
    const email = freshEmail();
    const responses = await Promise.all(Array.from({ length: 8 }, () => post('/signin', { email }, undefined, client())));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(303));
    expect(await mailsTo(email)).toBe(1);
  });
});

describe(`the mailbox cap: ${MAILS_PER_MAILBOX_PER_HOUR} an hour`, () => {
  it('counts every spelling of an address that has no account, and past it answers the same page, sending nothing', async () => {
    const local = `cap${crypto.randomUUID().slice(0, 8)}`;
    const spellings = Array.from({ length: 8 }, (_, i) => `${i % 2 ? local.toUpperCase() : local}+${i}@example.com`);
    const answers = [];
    for (const email of spellings) answers.push(await observable(await post('/signup', { name: 'Y', email }, undefined, client())));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    let reached = 0;
    for (const email of spellings) reached += await mailsTo(email.toLowerCase());
    expect(reached).toBe(MAILS_PER_MAILBOX_PER_HOUR);
  });

  it('answers alike for known and unknown addresses once their mailboxes are full', async () => {
    const [known, unknown] = ['known', 'unknown'].map((tag) => `${tag}${crypto.randomUUID().slice(0, 8)}@example.com`) as [string, string];
    await signIn(known);
    for (let i = 0; i < MAILS_PER_MAILBOX_PER_HOUR; i++) {
      for (const email of [known, unknown]) await post('/signup', { name: 'Z', email: email.replace('@', `+${i}@`) }, undefined, client());
    }
    for (const path of ['/signup', '/signin']) {
      const a = await observable(await post(path, { name: 'Z', email: known }, undefined, client()));
      const b = await observable(await post(path, { name: 'Z', email: unknown }, undefined, client()));
      expect(a).toEqual(b);
      expect(a.status).toBe(303);
    }
  });
});

describe('limits per client', () => {
  const requests = (n: number, ip: () => string) =>
    Promise.all(Array.from({ length: n }, () => post('/signin', { email: freshEmail() }, undefined, { 'CF-Connecting-IP': ip() })));

  it(`${REQUESTS_PER_CLIENT_PER_HOUR} an hour per address, whatever the emails; then a 429 page that says when`, async () => {
    const ip = '198.51.100.77';
    const allowed = await requests(REQUESTS_PER_CLIENT_PER_HOUR, () => ip);
    expect(allowed.map((r) => r.status)).toEqual(Array(REQUESTS_PER_CLIENT_PER_HOUR).fill(303));
    const refused = await post('/signup', { name: 'Y', email: freshEmail() }, undefined, { 'CF-Connecting-IP': ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toContain('rate_limited');
    expect(html).not.toMatch(/for for/);
    // The next address is not held back.
    expect((await post('/signin', { email: freshEmail() }, undefined, { 'CF-Connecting-IP': '198.51.100.78' })).status).toBe(303);
  });

  it('an IPv6 /64 is one address', async () => {
    let n = 0;
    const allowed = await requests(REQUESTS_PER_CLIENT_PER_HOUR, () => `2001:db8:7:1::${(++n).toString(16)}`);
    expect(allowed.every((r) => r.status === 303)).toBe(true);
    expect((await post('/signin', { email: freshEmail() }, undefined, { 'CF-Connecting-IP': '2001:db8:7:1:ffff::1' })).status).toBe(429);
  });

  it(`${REQUESTS_PER_NETWORK_PER_HOUR} an hour per IPv4 /24 and per IPv6 /48, however many addresses`, async () => {
    for (const address of [(i: number) => `203.0.113.${i}`, (i: number) => `2001:db8:8:${i.toString(16)}::1`]) {
      let n = 0;
      const allowed = await requests(REQUESTS_PER_NETWORK_PER_HOUR, () => address(1 + (n++ % 10)));
      expect(allowed.map((r) => r.status)).toEqual(Array(REQUESTS_PER_NETWORK_PER_HOUR).fill(303));
      expect((await post('/signin', { email: freshEmail() }, undefined, { 'CF-Connecting-IP': address(200) })).status).toBe(429);
    }
    // An IPv4-mapped IPv6 address is its IPv4 address.
    expect((await post('/signin', { email: freshEmail() }, undefined, { 'CF-Connecting-IP': '::ffff:203.0.113.201' })).status).toBe(429);
  });
});
