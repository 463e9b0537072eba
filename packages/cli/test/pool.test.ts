import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, fakeApiPerTest, image, pngBytes, TEST_KEY, type Handler } from '../../client/test/fake-api';
import { squeeze, tree } from './run';

const fake = fakeApiPerTest();
let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

const env = () => ({ SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: fake.api.url });
const images = (n: number) => tree(Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}.png`, pngBytes({ padding: i + 1 })])));
/** Answers with `handler` after `ms`. */
const later =
  (ms: number, handler: Handler): Handler =>
  (req, res, body) =>
    new Promise<void>((resolve) => setTimeout(() => resolve(handler(req, res, body)), ms));

describe('the upload pool', () => {
  it('pauses as a whole on 429: no request reaches the API until Retry-After has passed', async () => {
    dir = await images(6);
    let refusedAt = 0;
    const slow = later(300, image({ bytes: pngBytes() }));
    fake.api.answer(
      later(100, (req, res, body) => {
        refusedAt = Date.now();
        apiError(429, 'rate_limited', { retryAfter: 1 })(req, res, body);
      }),
      slow,
      slow,
    );
    const run = await squeeze(['.', '--concurrency', '3', '--json'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.json().summary.compressed).toBe(6);
    const after = fake.api.requests.slice(3);
    expect(after).toHaveLength(4); // the refused one again, and the three not yet started
    for (const request of after) expect(request.at - refusedAt).toBeGreaterThanOrEqual(950);
  });

  it('paces itself from the RateLimit header: with no request left in the minute, the next waits for the window', async () => {
    dir = await images(3);
    // The first answer that says so starts the wait (the second may come later on a loaded machine).
    let firstAnsweredAt = 0;
    const exhausted: Handler = (req, res, body) => {
      firstAnsweredAt ||= Date.now();
      image({ bytes: pngBytes(), headers: { RateLimit: '"minute";r=0;t=1, "month";r=400;t=9999' } })(req, res, body);
    };
    fake.api.answer(exhausted, exhausted);
    const run = await squeeze(['.', '--concurrency', '2'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(fake.api.requests).toHaveLength(3);
    expect(fake.api.requests[2]!.at - firstAnsweredAt).toBeGreaterThanOrEqual(900);
  });

  it('keeps at most --concurrency uploads in flight', async () => {
    dir = await images(6);
    let inFlight = 0;
    let most = 0;
    const counted: Handler = (req, res, body) => {
      most = Math.max(most, ++inFlight);
      return later(100, (q, s, b) => {
        inFlight--;
        image({ bytes: pngBytes() })(q, s, b);
      })(req, res, body);
    };
    fake.api.answer(...Array.from({ length: 6 }, () => counted));
    expect((await squeeze(['.', '-c', '2'], { cwd: dir, env: env() })).code).toBe(0);
    expect(most).toBe(2);
  });
});
