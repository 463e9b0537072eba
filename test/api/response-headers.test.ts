import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createKey, fixture, form } from '../helpers/api';

let netCounter = 0;
const demoIp = () => `198.18.${++netCounter}.9`;

/** One answer of every kind the Worker gives: images, JSON, errors of each family, keyed and not. */
async function answers(): Promise<Array<[string, Response]>> {
  const { key } = await createKey('free');
  const png = await fixture('engine/pngsuite/z00n2c08.png');
  const keyed = { 'X-API-Key': key };
  const out: Array<[string, Response]> = [
    ['health', await call('/health')],
    ['usage', await call('/v1/usage', { headers: keyed })],
    ['compress image', await call('/v1/compress', { method: 'POST', headers: keyed, body: form('file', png) })],
    ['compress 400', await call('/v1/compress', { method: 'POST', headers: keyed, body: form('file', png, { quality: '0' }) })],
    ['compress 401', await call('/v1/compress', { method: 'POST' })],
    ['demo image', await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': demoIp() }, body: form('image', png) })],
    ['demo 403', await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': demoIp(), 'Sec-Fetch-Site': 'cross-site' }, body: form('image', png) })],
    ['demo 400 address', await call('/v1/demo-compress', { method: 'POST', body: form('image', png) })],
    ['404', await call('/nothing-here')],
    ['OPTIONS', await call('/v1/compress', { method: 'OPTIONS' })],
  ];
  for (let i = 0; i < 60; i++) await (await call('/v1/usage', { headers: keyed })).arrayBuffer();
  out.push(['usage 429', await call('/v1/usage', { headers: keyed })]);
  return out;
}

describe('response headers', () => {
  it('every answer of the Worker carries X-Content-Type-Options: nosniff and grants no CORS', async () => {
    for (const [name, response] of await answers()) {
      expect(response.headers.get('X-Content-Type-Options'), name).toBe('nosniff');
      expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-')), name).toEqual([]);
      await response.arrayBuffer();
    }
  });

  it('JSON and image answers carry Cache-Control: no-store, private, authenticated calls and their errors included', async () => {
    for (const [name, response] of await answers()) {
      if (response.status !== 204) expect(response.headers.get('Cache-Control'), name).toBe('no-store, private');
      await response.arrayBuffer();
    }
  });

  it('an answer to a request from another origin grants it nothing either', async () => {
    const { key } = await createKey('free');
    const response = await call('/v1/usage', { headers: { 'X-API-Key': key, Origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('OPTIONS is 204 with the methods of the path in Allow and no CORS grant, so a browser preflight fails; an unknown path is 404', async () => {
    const cases = [
      ['/v1/compress', 'POST, OPTIONS'],
      ['/v1/demo-compress', 'POST, OPTIONS'],
      ['/v1/usage', 'GET, HEAD, OPTIONS'],
      ['/health', 'GET, HEAD, OPTIONS'],
    ] as const;
    for (const [path, allow] of cases) {
      const preflight = await call(path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('Allow'), path).toBe(allow);
      expect(preflight.headers.get('Access-Control-Allow-Origin'), path).toBeNull();
      expect(preflight.headers.get('Access-Control-Allow-Headers'), path).toBeNull();
      expect(await preflight.text(), path).toBe('');
    }
    const unknown = await call('/v1/nothing', { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
  });

  it('the static site (Workers Static Assets, public/_headers) carries nosniff too', async () => {
    for (const path of ['/', '/docs', '/getting-started', '/openapi.json', '/assets/demo.js', '/assets/site.css', '/favicon.svg']) {
      const response = await env.ASSETS.fetch(`http://api.test${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      await response.arrayBuffer();
    }
  });
});
