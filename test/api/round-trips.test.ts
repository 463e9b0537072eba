import { afterEach, describe, expect, it, vi } from 'vitest';
import { queueLength, runExclusive } from '../../src/image/job-queue';
import { QUEUED_CPU_MS } from '../../src/limits/admission';
import { call, createKey, fixture, form } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { compressionsThisMonth } from '../helpers/usage';
import { callCounting, serverTimingNames, serverTimingTrips, type BindingCall } from '../helpers/round-trips';
import { until } from '../helpers/wait';
import { fakeNetwork, PUBLIC_IPV4 } from '../url/fake-network';

/**
 * One round trip to shared state before the work, none after (decisions.md "Edge latency"), counted
 * twice: at the bindings (every D1 statement, every Durable Object call) and in the Server-Timing
 * header the answer carries.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const compressInit = async (key: string): Promise<RequestInit> => ({
  method: 'POST',
  headers: { 'X-API-Key': key },
  body: form('file', await fixture('engine/pngsuite/z00n2c08.png')),
});

/** The calls the answer waited for, and those still going when it left. */
const waited = (calls: BindingCall[]) => calls.filter((c) => c.settled).map((c) => `${c.kind} ${c.what.split(' ')[0]}`);
const inFlight = (calls: BindingCall[]) => calls.filter((c) => !c.settled).map((c) => `${c.kind} ${c.what}`);

describe('round trips per request', () => {
  it('a keyed compression makes one round trip before its answer once the key is warm, none to D1; the commit leaves with the answer', async () => {
    const { key } = await createKey('free');
    // The isolate's first request with the key looks its account up in D1, once.
    const cold = await callCounting('/v1/compress', await compressInit(key));
    expect(cold.response.status).toBe(200);
    expect(waited(cold.beforeAnswer)).toEqual(['d1 prepare', 'do admit']);

    const warm = await callCounting('/v1/compress', await compressInit(key));
    expect(warm.response.status).toBe(200);
    expect(waited(warm.beforeAnswer)).toEqual(['do admit']);
    // Nothing waits for the commit: it is sent as the answer leaves, and lands after it.
    expect(inFlight(warm.beforeAnswer)).toEqual(['do commit']);
    expect(warm.all.map((c) => `${c.kind} ${c.what}`)).toEqual(['do admit', 'do commit']);

    // The key's lookup is listed either way (the Server-Timing tests below); warm, it was not made.
    expect(warm.response.headers.get('Server-Timing')).toMatch(/^d1;dur=0;desc="SELECT api_keys", do;dur=[\d.]+;desc="ACCOUNT_GATE.admit", /);
    expect(serverTimingNames(warm.response.headers.get('Server-Timing'))).toEqual(['d1', 'do', 'auth', 'limits', 'queue', 'engine', 'total']);
    expect(serverTimingTrips(cold.response.headers.get('Server-Timing'))).toEqual([
      { kind: 'd1', desc: 'SELECT api_keys' },
      { kind: 'do', desc: 'ACCOUNT_GATE.admit' },
    ]);
  });

  it('GET /v1/usage makes one round trip once the key is warm, none to D1, and nothing after its answer', async () => {
    const { key } = await createKey('pro');
    await (await call('/v1/usage', { headers: { 'X-API-Key': key } })).arrayBuffer();
    const usage = await callCounting('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(usage.response.status).toBe(200);
    expect(usage.all).toEqual([{ kind: 'do', what: 'admit', settled: true }]);
    expect(serverTimingTrips(usage.response.headers.get('Server-Timing'))).toEqual([
      { kind: 'd1', desc: 'SELECT api_keys' },
      { kind: 'do', desc: 'ACCOUNT_GATE.admit' },
    ]);
    expect(serverTimingNames(usage.response.headers.get('Server-Timing'))).toEqual(['d1', 'do', 'auth', 'limits', 'total']);
  });

  it('a malformed key makes no round trip at all', async () => {
    for (const key of ['sqz_short', `sqz_${'A'.repeat(31)}=`, 'k'.repeat(4096)]) {
      const refused = await callCounting('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key } });
      expect(refused.response.status).toBe(401);
      expect(refused.all).toEqual([]);
      expect(serverTimingNames(refused.response.headers.get('Server-Timing'))).toEqual(['total']);
    }
  });

  it('the demo makes one round trip', async () => {
    const demo = await callCounting('/v1/demo-compress', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': '203.0.113.41' },
      body: form('image', await fixture('engine/pngsuite/z00n2c08.png')),
    });
    expect(demo.response.status).toBe(200);
    expect(demo.all).toEqual([{ kind: 'do', what: 'hitMember', settled: true }]);
    expect(serverTimingTrips(demo.response.headers.get('Server-Timing'))).toEqual([{ kind: 'do', desc: 'RATE_LIMITER.hitMember' }]);
    expect(serverTimingNames(demo.response.headers.get('Server-Timing'))).toEqual(['do', 'queue', 'engine', 'total']);
  });

  it('a compression that fails gives its quota slot back before its answer: the one more trip is in the header', async () => {
    const { key } = await createKey('free');
    await (await call('/v1/usage', { headers: { 'X-API-Key': key } })).arrayBuffer();
    const failed = await callCounting('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', new TextEncoder().encode('not an image')) });
    expect(failed.response.status).toBe(400);
    expect(failed.all).toEqual([
      { kind: 'do', what: 'admit', settled: true },
      { kind: 'do', what: 'release', settled: true },
    ]);
    expect(serverTimingTrips(failed.response.headers.get('Server-Timing'))).toEqual([
      { kind: 'd1', desc: 'SELECT api_keys' },
      { kind: 'do', desc: 'ACCOUNT_GATE.admit' },
      { kind: 'do', desc: 'ACCOUNT_GATE.release' },
    ]);
  });

  it('a compression the busy engine turns away (503) is charged nothing: one more trip gives back its slot and its minute hit', async () => {
    freezeClock();
    const { key } = await createKey('free');
    const before = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(before.headers.get('RateLimit-Remaining')).toBe('59');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // A job in the engine predicted to fill its whole queue: no other job gets in behind it.
    const running = runExclusive(QUEUED_CPU_MS, () => gate);
    try {
      const busy = await callCounting('/v1/compress', await compressInit(key));
      expect(busy.response.status).toBe(503);
      expect(busy.all).toEqual([
        { kind: 'do', what: 'admit', settled: true },
        { kind: 'do', what: 'release', settled: true },
      ]);
      // The answer says so (the window as the usage request left it), and the next request finds it so.
      expect(busy.response.headers.get('RateLimit-Remaining')).toBe('59');
      expect(busy.response.headers.get('RateLimit')).toMatch(/"month";r=500;/);
    } finally {
      open();
      await running;
    }
    const after = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(after.headers.get('RateLimit-Remaining')).toBe('58');
    expect(await compressionsThisMonth(key)).toBe(0);
  });
});

describe('Server-Timing', () => {
  it('is on every API answer, errors included, with dur on every entry and total last', async () => {
    const { key } = await createKey('free');
    const answers = [
      await call('/health'),
      await call('/v1/usage'),
      await call('/v1/usage', { headers: { 'X-API-Key': key } }),
      await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key } }),
      await call('/v1/no-such-endpoint'),
      await call('/v1/demo-compress', { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site', 'CF-Connecting-IP': '203.0.113.42' } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 200, 400, 404, 403]);
    for (const answer of answers) {
      const header = answer.headers.get('Server-Timing');
      expect(header, String(answer.status)).toMatch(/(^|, )total;dur=\d+(\.\d)?$/);
      for (const entry of header!.split(', ')) expect(entry).toMatch(/^[a-z0-9]+;dur=\d+(\.\d)?(;desc="[^"]+")?$/);
    }
  });

  it('a compression of a URL has its fetch stage', async () => {
    fakeNetwork({
      dns: { 'images.example.com': { A: [PUBLIC_IPV4] } },
      sites: { 'https://images.example.com/a.png': async () => new Response(await fixture('engine/pngsuite/z00n2c08.png')) },
    });
    const { key } = await createKey('free');
    const response = await call('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://images.example.com/a.png' }),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(serverTimingNames(response.headers.get('Server-Timing'))).toEqual(['d1', 'do', 'auth', 'limits', 'fetch', 'queue', 'engine', 'total']);
  });

  it('names the same entries whether or not the isolate has seen the key: the key lookup is always listed', async () => {
    const { key } = await createKey('free');
    const cold = await callCounting('/v1/compress', await compressInit(key));
    const warm = await callCounting('/v1/compress', await compressInit(key));
    expect(waited(cold.beforeAnswer)).toEqual(['d1 prepare', 'do admit']);
    expect(waited(warm.beforeAnswer)).toEqual(['do admit']);
    const names = ['d1', 'do', 'auth', 'limits', 'queue', 'engine', 'total'];
    expect(serverTimingNames(cold.response.headers.get('Server-Timing'))).toEqual(names);
    expect(serverTimingNames(warm.response.headers.get('Server-Timing'))).toEqual(names);
    expect(serverTimingTrips(warm.response.headers.get('Server-Timing'))).toEqual(serverTimingTrips(cold.response.headers.get('Server-Timing')));
    // A well-shaped key D1 does not know: looked up once, then remembered as a miss; the header is the same.
    const unknown = `sqz_${'Q'.repeat(32)}`;
    const first = await callCounting('/v1/usage', { headers: { 'X-API-Key': unknown } });
    const again = await callCounting('/v1/usage', { headers: { 'X-API-Key': unknown } });
    expect([first.response.status, again.response.status]).toEqual([401, 401]);
    expect(again.all).toEqual([]);
    expect(serverTimingTrips(again.response.headers.get('Server-Timing'))).toEqual([{ kind: 'd1', desc: 'SELECT api_keys' }]);
    expect(serverTimingNames(again.response.headers.get('Server-Timing'))).toEqual(serverTimingNames(first.response.headers.get('Server-Timing')));
  });

  it("shows the wait behind other tenants' jobs in coarse steps only, and total counts it as shown", async () => {
    const { key } = await createKey('free');
    await (await call('/v1/usage', { headers: { 'X-API-Key': key } })).arrayBuffer();
    // The runtime's clock moves only when the test moves it: every stage of the request reads 0 but the wait.
    let nowMs = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => nowMs);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Another tenant's job, running in the engine for 137 ms while the compression waits behind it.
    const running = runExclusive(1, () => gate);
    const answer = call('/v1/compress', await compressInit(key));
    await until(() => queueLength() === 2);
    nowMs += 137;
    open();
    await running;
    const response = await answer;
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const header = response.headers.get('Server-Timing')!;
    expect(header).toMatch(/(^|, )queue;dur=100(, |$)/);
    expect(header).toMatch(/(^|, )total;dur=100$/);
  });
});
