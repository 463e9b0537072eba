import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { ACCOUNT_STATE_MAX_AGE_MS } from '../../src/durable/account-gate';
import { namespaceWith } from '../helpers/bindings';
import { followRedirect, post, postWith, signIn } from '../helpers/dashboard';
import { usage } from '../helpers/usage';

/**
 * `npm run bench:revoke` (SUITE=revoke): a key in use is revoked on the dashboard while the call that tells
 * its account's object fails (at the binding, as a reset object fails it), on the real clock. Measured: how
 * long after the revoke's page the last request answered 200 was sent, when the first 401 came, and how
 * many 200s the key got meanwhile. The key is revoked right after its object read the account, the worst
 * case of the bound. Prints one REVOKE line.
 */
const ROUNDS = 2;
const POLL_MS = 250;

const reloadFails = () =>
  namespaceWith(env.ACCOUNT_GATE, (method, call) => (method === 'reload' ? Promise.reject(new Error('Durable Object reset because its code was updated.')) : call()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a revoke whose reload failed: the key answers 401 within the bound', async () => {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { cookie, email } = await signIn();
    // Business limits, so that polling four times a second stays inside the minute window.
    await env.DB.prepare("UPDATE accounts SET plan = 'business' WHERE email = ?").bind(email).run();
    const created = await post('/dashboard/keys', { name: 'in use' }, cookie);
    const secret = (await (await followRedirect(created, cookie)).text()).match(/sqz_[A-Za-z0-9_-]{32}/)![0];
    const { id } = (await env.DB.prepare('SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ?').bind(email).first<{ id: string }>())!;
    // The key's first request has the object read the account: the revoke comes right after that read.
    expect((await usage(secret)).status).toBe(200);
    const page = await postWith({ ACCOUNT_GATE: reloadFails() }, `/dashboard/keys/${id}/revoke`, {}, cookie);
    expect(page.status).toBe(503);
    const revokedAt = performance.now();
    let answered200 = 0;
    let lastAcceptedAfterMs = 0;
    for (;;) {
      const sentAfterMs = performance.now() - revokedAt;
      const response = await usage(secret);
      await response.arrayBuffer();
      if (response.status === 401) break;
      expect(response.status).toBe(200);
      answered200++;
      lastAcceptedAfterMs = Math.round(sentAfterMs);
      await sleep(POLL_MS);
    }
    rounds.push({ lastAcceptedAfterMs, firstRefusalAfterMs: Math.round(performance.now() - revokedAt), answered200 });
  }
  console.log(`REVOKE ${JSON.stringify({ boundMs: ACCOUNT_STATE_MAX_AGE_MS, pollMs: POLL_MS, rounds })}`);
  // The bound runs from the object's last read, which came before the revoke: no request sent after it is accepted.
  for (const r of rounds) expect(r.lastAcceptedAfterMs).toBeLessThan(ACCOUNT_STATE_MAX_AGE_MS);
});
