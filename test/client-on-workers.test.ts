// The official client (packages/client) runs inside workerd as it is: only web APIs. Here it calls the
// Worker's fetch handler directly, with real D1 and Durable Objects behind it.
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Squeeze, SqueezeError } from '../packages/client/src/index';
import { createKey, fixture } from './helpers/api';

const client = (apiKey: string) =>
  new Squeeze({ apiKey, baseUrl: 'https://api.test', fetch: (input, init) => exports.default.fetch(new Request(input, init)) });

describe('the client package on Workers', () => {
  it('compresses and reads usage through the Worker', async () => {
    const { key } = await createKey('free');
    const squeeze = client(key);
    const input = await fixture('api/chelsea.png');
    const result = await squeeze.compress(input, { maxWidth: 100 });
    expect(result).toMatchObject({ format: 'png', originalSize: input.length, notes: ['resized'] });
    expect(result.rateLimit.month).toMatchObject({ limit: 500, remaining: 499 });
    expect((await squeeze.usage()).usage.current).toBe(1);
  });

  it('turns the Worker’s errors into SqueezeErrors', async () => {
    const err = await client(`sqz_${'A'.repeat(32)}`).usage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqueezeError);
    expect(err).toMatchObject({ code: 'unauthorized', status: 401, attempts: 1 });
  });
});
