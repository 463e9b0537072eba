import { describe, expect, it, vi } from 'vitest';
import { isSqueezeError } from '../src/index';
import { backoffMs } from '../src/retry';
import { apiError, dropConnection, failure, hang, pngBytes, fakeApiPerTest, until } from './fake-api';

const fake = fakeApiPerTest();
const client = fake.client;

describe('retries', () => {
  it('retries 5xx with backoff, then succeeds', async () => {
    fake.api.answer(apiError(500, 'internal_error'), apiError(503, 'service_unavailable'));
    const result = await client().compress(pngBytes());
    expect(result.attempts).toBe(3);
    expect(fake.api.requests).toHaveLength(3);
  });

  it('retries an answer that is not the API JSON (a proxy page) when it is 5xx, and says so when it gives up', async () => {
    const proxy = (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    };
    fake.api.answer(proxy, proxy, proxy);
    const err = await failure(client({ maxRetries: 2 }).compress(pngBytes()));
    expect(err).toMatchObject({ code: 'invalid_response', status: 502, attempts: 3 });
  });

  it('backs off exponentially with jitter', async () => {
    fake.api.answer(apiError(500, 'internal_error'), apiError(500, 'internal_error'));
    await client({ retryBaseDelayMs: 100 }).compress(pngBytes());
    const [a, b, c] = fake.api.requests.map((r) => r.at);
    // 100 ms × [0.5, 1) then 200 ms × [0.5, 1): at least that long (a slow machine only adds to it).
    expect(b! - a!).toBeGreaterThanOrEqual(45);
    expect(c! - b!).toBeGreaterThanOrEqual(95);
  });

  it('a backoff is base × 2^(retry - 1), capped at 10 s, times a jitter in [0.5, 1)', () => {
    const random = vi.spyOn(Math, 'random');
    for (const [retry, full] of [[1, 100], [2, 200], [3, 400], [10, 10_000]] as const) {
      random.mockReturnValue(0);
      expect(backoffMs(retry, 100)).toBe(full / 2);
      random.mockReturnValue(0.999_999);
      expect(backoffMs(retry, 100)).toBeLessThan(full);
      expect(backoffMs(retry, 100)).toBeGreaterThan(0.999 * full);
    }
    random.mockRestore();
  });

  it.each([
    [400, 'bad_request'],
    [400, 'unsupported_image'],
    [400, 'url_blocked'],
    [401, 'unauthorized'],
    [413, 'file_too_large'],
    [429, 'quota_exceeded'],
    [502, 'url_fetch_failed'],
    [504, 'url_timeout'],
  ])('never retries %i %s', async (status, code) => {
    fake.api.answer(apiError(status, code, { retryAfter: 1, resetAt: '2026-12-01T00:00:00.000Z' }));
    const err = await failure(client().compress(pngBytes()));
    expect(err).toMatchObject({ code, status, attempts: 1, local: false });
    expect(err.message).toBe(`fake ${code}`);
    expect(err.rateLimit.minute?.remaining).toBe(59);
    expect(fake.api.requests).toHaveLength(1);
  });

  it('429 rate_limited: waits Retry-After, and every call of the client pauses with it', async () => {
    fake.api.answer(apiError(429, 'rate_limited', { retryAfter: 1, resetAt: new Date(Date.now() + 1000).toISOString() }));
    const squeeze = client();
    const first = squeeze.compress(pngBytes());
    await until(() => squeeze.pausedFor > 0);
    expect(squeeze.pausedFor).toBeLessThanOrEqual(1000);
    // A call started during the pause waits for it too, instead of meeting a 429 of its own.
    const second = squeeze.compress(pngBytes());
    const [a, b] = await Promise.all([first, second]);
    expect(a.attempts).toBe(2);
    expect(b.attempts).toBe(1);
    const [refused, ...after] = fake.api.requests.map((r) => r.at);
    for (const at of after) expect(at - refused!).toBeGreaterThanOrEqual(950);
  });

  it('503 waits for Retry-After', async () => {
    fake.api.answer(apiError(503, 'service_unavailable', { retryAfter: 1 }));
    const started = Date.now();
    const result = await client({ retryBaseDelayMs: 1 }).compress(pngBytes());
    expect(result.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After longer than maxRetryAfterSeconds fails at once', async () => {
    fake.api.answer(apiError(429, 'rate_limited', { retryAfter: 30 }));
    const err = await failure(client({ maxRetryAfterSeconds: 10 }).compress(pngBytes()));
    expect(err).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30, attempts: 1 });
  });

  it('gives up after maxRetries', async () => {
    fake.api.answer(...Array.from({ length: 5 }, () => apiError(500, 'internal_error')));
    const err = await failure(client({ maxRetries: 2 }).compress(pngBytes()));
    expect(err).toMatchObject({ code: 'internal_error', status: 500, attempts: 3 });
    expect(fake.api.requests).toHaveLength(3);
  });

  it('a refused connection is a network_error that says why, after the retries', async () => {
    const closed = fake.api.url;
    await fake.api.close();
    const err = await failure(client({ baseUrl: closed, maxRetries: 1 }).compress(pngBytes()));
    expect(err).toMatchObject({ code: 'network_error', status: 0, attempts: 2 });
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('retries a network error (the connection closed without an answer)', async () => {
    fake.api.answer(dropConnection);
    const result = await client().compress(pngBytes());
    expect(result.attempts).toBe(2);
  });

  it('retries at once when a kept-alive socket that the server had closed is reused', async () => {
    // A backoff would be 5 minutes at least here, far past the test's timeout: only an immediate retry passes.
    const squeeze = client({ retryBaseDelayMs: 600_000 });
    await squeeze.compress(pngBytes());
    // The body has been read, so the connection goes back to the pool, idle, on the next turn.
    await new Promise(setImmediate);
    // The server closed the idle connection just as the client reused it: nothing reached it.
    fake.api.answer(dropConnection);
    const result = await squeeze.compress(pngBytes());
    expect(result.attempts).toBe(2);
    expect(fake.api.requests.map((r) => r.socket)).toEqual([1, 1, 2]);
  });

  it('a file-backed Blob is sent again whole on retry', async () => {
    fake.api.answer(apiError(500, 'internal_error'));
    const bytes = pngBytes({ padding: 5000 });
    await client().compress(new Blob([bytes]));
    expect(fake.api.requests[0]!.body.length).toBe(fake.api.requests[1]!.body.length);
    expect(fake.api.requests[1]!.body.includes(Buffer.from(bytes))).toBe(true);
  });

  it('a stream is sent once: a retryable failure after it was read is thrown', async () => {
    fake.api.answer(apiError(500, 'internal_error'));
    const err = await failure(client().compress(new Blob([pngBytes({ padding: 70_000 })]).stream()));
    expect(err).toMatchObject({ code: 'internal_error', attempts: 1 });
    expect(fake.api.requests).toHaveLength(1);
  });
});

describe('timeouts and abort', () => {
  it('each attempt has its own timeout; a timed-out attempt is retried', async () => {
    // The first attempt never gets an answer; the second is answered from memory, with no network in the
    // way, so its own 300 ms can never run out first on a slow machine.
    let attempts = 0;
    const answered = await fetch(`${fake.api.url}/v1/compress`, { method: 'POST' }).then((r) => r.arrayBuffer().then((body) => ({ body, headers: r.headers })));
    const fetchOnce: typeof fetch = (_input, init) => {
      const signal = init!.signal!;
      if (++attempts === 1) return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      // As fetch does, a signal that has already fired refuses the call.
      return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve(new Response(answered.body, { headers: answered.headers }));
    };
    const result = await client({ timeoutMs: 300, fetch: fetchOnce }).compress(pngBytes());
    expect(result.attempts).toBe(2);
    expect(attempts).toBe(2);
  });

  it('a call whose attempts all time out fails with code timeout', async () => {
    fake.api.answer(hang, hang);
    const err = await failure(client({ maxRetries: 1 }).compress(pngBytes(), { timeoutMs: 200 }));
    expect(err).toMatchObject({ code: 'timeout', status: 0, attempts: 2 });
  });

  it('an AbortSignal stops a request in flight with the signal’s reason', async () => {
    fake.api.answer(hang);
    const controller = new AbortController();
    const call = client().compress(pngBytes(), { signal: controller.signal });
    await until(() => fake.api.requests.length === 1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.api.requests).toHaveLength(1);
  });

  it('an AbortSignal also ends the wait for Retry-After, and usage() takes one', async () => {
    fake.api.answer(apiError(429, 'rate_limited', { retryAfter: 30 }));
    const controller = new AbortController();
    const squeeze = client();
    const call = squeeze.compress(pngBytes(), { signal: AbortSignal.any([controller.signal]) });
    await until(() => squeeze.pausedFor > 0);
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    // Ended by the signal, well before the 30 s pause would have.
    expect(squeeze.pausedFor).toBeGreaterThan(20_000);
    await expect(client().usage({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.api.requests).toHaveLength(1);
  });
});

describe('errors', () => {
  it('are one family, narrowed by code', async () => {
    fake.api.answer(apiError(429, 'quota_exceeded', { retryAfter: 999, resetAt: '2026-12-01T00:00:00.000Z' }));
    const err: unknown = await client().compress(pngBytes()).catch((e: unknown) => e);
    expect(isSqueezeError(err)).toBe(true);
    expect(isSqueezeError(err, 'rate_limited')).toBe(false);
    if (!isSqueezeError(err, 'quota_exceeded')) throw new Error('narrowing failed');
    expect(err.resetAt).toBe('2026-12-01T00:00:00.000Z');
    expect(err.retryAfterSeconds).toBe(999);
    expect(err.name).toBe('SqueezeError');
  });
});
