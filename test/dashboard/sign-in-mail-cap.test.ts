import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/env';
import { DEFAULT_MAILS_PER_HOUR } from '../../src/mail/mail-setup';
import { callWith } from '../helpers/api';
import { freshEmail, SAME_ORIGIN } from '../helpers/dashboard';

/**
 * The global hourly cap on sign-in mail (decisions.md, "The dashboard"), in a file of its own: the cap
 * counts every mail the service sends, and each test file has storage of its own.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

let clients = 0;
function signUp(bindings: Partial<Bindings>): Promise<Response> {
  return callWith(bindings, '/signup', {
    method: 'POST',
    redirect: 'manual',
    headers: { ...SAME_ORIGIN, 'CF-Connecting-IP': `10.66.${++clients}.1` },
    body: new URLSearchParams({ name: 'Cap', email: freshEmail() }),
  });
}

describe('the global cap on sign-in mail', () => {
  it('is 1,000 an hour unless MAIL_PER_HOUR says otherwise', () => {
    expect(DEFAULT_MAILS_PER_HOUR).toBe(1000);
  });

  it('past MAIL_PER_HOUR mails in the hour, a request gets a 503 page saying when to come back, and the operator a log line', async () => {
    const warnings = vi.spyOn(console, 'error').mockImplementation(() => {});
    const capped = { MAIL_PER_HOUR: '3' };
    for (let i = 0; i < 3; i++) expect((await signUp(capped)).status).toBe(303);
    const refused = await signUp(capped);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toMatch(/sign-in emails/i);
    expect(html).toMatch(/after \d+ \w{3} \d{4}, \d\d:\d\d UTC/);
    expect(html).not.toMatch(/MAIL_PER_HOUR/);
    expect(warnings.mock.calls.some((call) => call.join(' ').includes('MAIL_PER_HOUR'))).toBe(true);
    // The default is far above what this file sent.
    expect((await signUp({})).status).toBe(303);
  });
});
