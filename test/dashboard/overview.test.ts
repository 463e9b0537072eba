import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { callWith, compress as compressImage, fixture } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { followRedirect, get, post, signIn } from '../helpers/dashboard';

/** The overview, the plan page, and what every page the Worker draws carries. */

async function newKey(cookie: string, name: string): Promise<string> {
  const page = await followRedirect(await post('/dashboard/keys', { name }, cookie), cookie);
  return (await page.text()).match(/sqz_[A-Za-z0-9_-]{32}/)![0];
}

async function compress(key: string): Promise<{ bytesIn: number; bytesOut: number }> {
  const response = await compressImage(await fixture('engine/pngsuite/z00n2c08.png'), {}, { 'X-API-Key': key });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return { bytesIn: Number(response.headers.get('X-Original-Size')), bytesOut: Number(response.headers.get('X-Compressed-Size')) };
}

const today = () => new Date().toISOString().slice(0, 10);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the overview', () => {
  it('for a new account: the plan, nothing used yet, and an empty state that leads to the first key', async () => {
    const { cookie } = await signIn();
    const html = await (await get('/dashboard', cookie)).text();
    const words = text(html);
    expect(words).toContain('0 of 500 compressions');
    expect(words).toContain('Free');
    expect(words).toContain('60 requests a minute');
    expect(words).toContain('You have no API key yet');
    expect(html).toMatch(/<form[^>]+method="post"[^>]+action="\/dashboard\/keys"/);
  });

  it('the month against the limit with its reset date, bytes saved, a 30-day chart and the same numbers in a table, keys at a glance', async () => {
    // Today's bar and this month's count are read back after the compressions: the clock holds still.
    freezeClock();
    const { cookie } = await signIn();
    const web = await newKey(cookie, 'web');
    const batch = await newKey(cookie, 'batch');
    const sizes = [await compress(web), await compress(batch), await compress(batch)];
    const bytesIn = sizes.reduce((s, x) => s + x.bytesIn, 0);
    const bytesOut = sizes.reduce((s, x) => s + x.bytesOut, 0);

    const html = await (await get('/dashboard', cookie)).text();
    const words = text(html);
    expect(words).toContain('3 of 500 compressions');
    const now = new Date();
    const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const month = reset.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
    expect(words).toContain(`Resets 1 ${month} ${reset.getUTCFullYear()}, 00:00 UTC`);
    expect(html).toMatch(/<meter min="0" max="500" value="3"/);
    expect(words).toContain(`${Math.round((100 * (bytesIn - bytesOut)) / bytesIn)}% less than`);
    // Sizes are 1024-based, labelled KB and MB everywhere, and the page says so.
    expect(words).toMatch(/Saved this month [\d.]+ (bytes|KB|MB)/);
    expect(words).toContain('1 KB = 1,024 bytes');

    // The chart: 30 bars drawn on the server, today's the tallest, each with its number.
    const bars = [...html.matchAll(/<rect class="bar[^"]*"[^>]*height="([\d.]+)"[^>]*><title>([^<]+)<\/title>/g)];
    expect(bars).toHaveLength(30);
    expect(bars.at(-1)![2]).toMatch(/: 3 compressions$/);
    expect(bars.slice(0, -1).every((b) => b[1] === '0' && / 0 compressions$/.test(b[2]!))).toBe(true);
    expect(html).toMatch(/<svg[^>]+role="img"/);
    // The table says the same.
    const rows = [...html.matchAll(/<tr><th scope="row">(\d{4}-\d\d-\d\d)<\/th><td>([\d,]+)<\/td>/g)];
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)!.slice(1)).toEqual([today(), '3']);

    // Keys at a glance, each with its share of the month.
    expect(html).toMatch(/<th scope="row">web<\/th>.*?<td data-label="This month">1<\/td><\/tr>/);
    expect(html).toMatch(/<th scope="row">batch<\/th>.*?<td data-label="This month">2<\/td><\/tr>/);
    expect(html).not.toContain('You have no API key yet');
  });

  it('the chart is the account\'s alone', async () => {
    const mine = await signIn();
    const theirs = await signIn();
    await compress(await newKey(theirs.cookie, 'theirs'));
    expect(text(await (await get('/dashboard', mine.cookie)).text())).toContain('0 of 500 compressions');
  });
});

describe('sizes on the pages', () => {
  it('the demo page says what its MB is, and nothing is labelled kB, KiB or MiB', async () => {
    const home = await (await env.ASSETS.fetch('http://api.test/')).text();
    expect(home).toContain('up to 5 MB each (1 MB = 1,048,576 bytes)');
    const { cookie } = await signIn();
    for (const html of [home, await (await get('/dashboard', cookie)).text()]) expect(html).not.toMatch(/\d\s*(kB|KiB|MiB)\b/);
  });
});

describe('the plan page', () => {
  it('lists the plans from the plans table, marks the account\'s, and says how to ask for an upgrade', async () => {
    const { cookie, email } = await signIn();
    await env.DB.prepare("UPDATE accounts SET plan = 'pro' WHERE email = ?").bind(email).run();
    const words = text(await (await get('/dashboard/plan', cookie)).text());
    expect(words).toContain('You are on the Pro plan');
    expect(words).toMatch(/Free 60 500 .*Pro Your plan 60 5,000 .*Business 600 100,000/);
    expect(words).toContain('changes plans by hand');
  });

  it('always names somewhere to write: SUPPORT_EMAIL, else the address sign-in mail comes from, else (local mode) the command', async () => {
    const { cookie, email } = await signIn();
    const planPage = async (bindings: Partial<Bindings>) => (await callWith(bindings, '/dashboard/plan', { headers: { Cookie: cookie } })).text();
    const deployed = { MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_x', MAIL_FROM: 'Squeeze <login@squeeze.test>', PUBLIC_ORIGIN: 'https://squeeze.test' };
    expect(await planPage({ ...deployed, SUPPORT_EMAIL: 'help@squeeze.test' })).toContain('href="mailto:help@squeeze.test?subject=Plan%20upgrade"');
    expect(await planPage(deployed)).toContain('href="mailto:login@squeeze.test?subject=Plan%20upgrade"');
    const local = text(await (await get('/dashboard/plan', cookie)).text());
    expect(local).toContain(`npm run account -- plan ${email} pro`);
    for (const html of [await planPage(deployed), await (await get('/dashboard/plan', cookie)).text()]) {
      expect(text(html)).not.toMatch(/write to the operator of this service from/);
    }
  });
});

describe('every page the Worker draws', () => {
  const STATIC_SITE_CSP =
    "default-src 'self'; img-src 'self' blob:; script-src 'self'; style-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
  const directives = (csp: string) => new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).sort()]));

  it('has a CSP at least as strict as the static site\'s, frame-ancestors none, HSTS for a year and no-store', async () => {
    const { cookie } = await signIn();
    const pages = [
      await get('/signup'),
      await get('/signin'),
      await get('/auth/sent'),
      await get('/auth/confirm?token=none'),
      await get('/dashboard', cookie),
      await get('/dashboard/keys', cookie),
      await get('/dashboard/security', cookie),
      await get('/dashboard/plan', cookie),
      await get('/dashboard/no-such-page', cookie),
      await post('/dashboard/keys', { name: 'k' }, cookie),
      await get('/dashboard'),
    ];
    const ours = directives(pages[0]!.headers.get('Content-Security-Policy')!);
    for (const [name, sources] of directives(STATIC_SITE_CSP)) {
      // Every directive of the static site is there, allowing no source it does not allow.
      expect(ours.get(name)?.every((s) => sources.includes(s)), name).toBe(true);
    }
    for (const response of pages) {
      expect(response.headers.get('Content-Security-Policy')).toBe(pages[0]!.headers.get('Content-Security-Policy'));
      expect(response.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('Strict-Transport-Security')).toMatch(/^max-age=31536000\b/);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    }
  });

  it('has no inline script or style (the CSP would block them) and, signed in, a sign-out button', async () => {
    const { cookie } = await signIn();
    await post('/dashboard/keys', { name: 'k' }, cookie);
    for (const path of ['/signup', '/signin', '/auth/sent', '/dashboard', '/dashboard/keys', '/dashboard/security', '/dashboard/plan']) {
      const html = await (await get(path, cookie)).text();
      expect(html, path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html, path).not.toMatch(/\sstyle=/);
      expect(html, path).not.toMatch(/\son[a-z]+=/);
      if (path.startsWith('/dashboard')) expect(html, path).toMatch(/<form class="sign-out" method="post" action="\/auth\/signout">/);
    }
  });
});
