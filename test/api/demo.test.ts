import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { encoderQuality } from '../../src/image/quality-scale';
import type { OutputFormat } from '../../src/image/types';
import { wasmEngine } from '../../src/image/wasm';
import { admission } from '../../src/limits/admission';
import { DEMO_CPU_BUDGET_MS } from '../../src/limits/cpu';
import { REQUEST_BYTES_BUDGET } from '../../src/limits/memory';
import { freshEngine } from '../engine/helpers';
import { syntheticPng } from '../helpers/png';
import { call, createKey, errorBody, fixture, form, toBase64 } from '../helpers/api';
import { responseImage } from '../helpers/images';

/**
 * CF-Connecting-IP is the client address Cloudflare's edge sets (overwriting whatever the client sent);
 * these tests set it as the edge would. `wrangler dev` passes a client-sent one through unchanged, which
 * is what the browser and restart tests rely on; production never does.
 */
let netCounter = 0;
/** A client address in a /24 of its own: the limits are per address and per network, and storage lives for the whole file. */
function freshIp(): string {
  return `198.18.${++netCounter}.1`;
}

function demo(ip: string, body: FormData | string, headers: Record<string, string> = {}): Promise<Response> {
  const json: Record<string, string> = typeof body === 'string' ? { 'Content-Type': 'application/json' } : {};
  return call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': ip, ...json, ...headers }, body });
}

describe('POST /v1/demo-compress', () => {
  it('compresses a multipart image with the size headers and X-Demo-Remaining', async () => {
    const input = await fixture('api/chelsea.png');
    const response = await demo(freshIp(), form('image', input));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^image\//);
    expect(response.headers.get('X-Demo-Remaining')).toBe('4');
    expect(Number(response.headers.get('X-Original-Size'))).toBe(input.length);
    expect(response.headers.get('X-Output-Format')).toBe('png');
    expect(response.headers.get('RateLimit-Policy')).toBe('"hour";q=5;w=3600, "network";q=30;w=3600');
    // The older fields, for the client's own hour.
    expect(response.headers.get('RateLimit-Limit')).toBe('5');
    expect(response.headers.get('RateLimit-Remaining')).toBe('4');
    expect(Number(response.headers.get('RateLimit-Reset'))).toBeGreaterThan(3500);
    expect(Number(response.headers.get('RateLimit-Reset'))).toBeLessThanOrEqual(3600);
    const { bytes } = await responseImage(response);
    expect(Number(response.headers.get('X-Compressed-Size'))).toBe(bytes.length);
    expect(bytes.length).toBeLessThan(input.length);
  });

  it("offers AVIF when the browser accepts it, and skips it where it does not fit the demo's CPU budget (decisions: never an error)", async () => {
    const accept = { Accept: 'image/avif,*/*' };
    const small = await demo(freshIp(), form('image', syntheticPng(600, 400, false)), accept);
    expect(small.headers.get('X-Output-Format')).toBe('avif');

    // The smallest 3:2 JPEG photo whose AVIF does not fit beside its JPEG in the demo's budget (the CPU model's costs).
    const cost = (width: number, format: OutputFormat) => {
      const height = (width * 2) / 3;
      const header = { ...readHeader(syntheticPng(16, 16, false)), format: 'jpeg' as const, width, height };
      return wasmEngine.estimateCpuMs(header, { format, quality: encoderQuality(format, 80), width, height, orientation: 1, iccBytes: 0 });
    };
    let width = 600;
    while (cost(width, 'jpeg') + cost(width, 'avif') <= DEMO_CPU_BUDGET_MS) width += 150;
    const png = syntheticPng(width, (width * 2) / 3, false);
    const input = await freshEngine().transcode(png, readHeader(png), { format: 'jpeg', quality: 90, width, height: (width * 2) / 3 });
    const before = wasmEngine.jobsStarted();
    const large = await demo(freshIp(), form('image', input), accept);
    expect(large.status).toBe(200);
    expect(large.headers.get('X-Output-Format')).toBe('jpeg');
    // The JPEG ran; the AVIF never started.
    expect(wasmEngine.jobsStarted() - before).toBe(1);
  });

  it("auto follows the API's one look across formats at the demo's quality, 80 (decisions.md): the same answer and notes", async () => {
    const { key } = await createKey('business');
    // testorig saved at 75: neither WebP nor AVIF is made, the JPEG says why; grey.jpg saved at 90, 10 above: no WebP, AVIF raised to its look.
    for (const name of ['engine/testorig.jpg', 'engine/grey.jpg']) {
      const input = await fixture(name);
      for (const accept of ['image/webp,*/*', 'image/avif,image/webp,*/*']) {
        const shown = await demo(freshIp(), form('image', input), { Accept: accept });
        const api = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key, Accept: accept }, body: form('file', input, { quality: '80' }) });
        expect(shown.status).toBe(200);
        const notes = shown.headers.get('X-Compression-Notes');
        expect([shown.headers.get('X-Output-Format'), notes]).toEqual([api.headers.get('X-Output-Format'), api.headers.get('X-Compression-Notes')]);
        if (name === 'engine/testorig.jpg') expect(notes).toContain('format-kept-for-look');
        expect(new Uint8Array(await shown.arrayBuffer())).toEqual(new Uint8Array(await api.arrayBuffer()));
      }
    }
  });

  it('compresses a JSON base64 image', async () => {
    const input = await fixture('engine/testorig.jpg');
    const response = await demo(freshIp(), JSON.stringify({ image: `data:image/jpeg;base64,${toBase64(input)}` }));
    expect(response.status).toBe(200);
    expect((await responseImage(response)).header.format).toBe('jpeg');
  });

  it('refuses a file over 5 MB with 413 file_too_large', async () => {
    const big = new Uint8Array(5 * 1_048_576 + 1);
    big.set(await fixture('engine/pngsuite/z00n2c08.png'));
    const response = await demo(freshIp(), form('image', big));
    expect(response.status).toBe(413);
    const body = await errorBody(response);
    expect(body.error).toBe('file_too_large');
    expect(body.message).toContain('5242880 bytes (5 MB)');
  });

  it('refuses a missing image, or any option, with 400 bad_request', async () => {
    const ip = freshIp();
    for (const body of [JSON.stringify({}), JSON.stringify({ image: 'AAAA', quality: 50 }), new FormData()]) {
      const response = await demo(ip, body);
      expect(response.status).toBe(400);
      expect((await errorBody(response)).error).toBe('bad_request');
    }
  });

  it('allows 5 requests an hour per IP, refused ones counting, then 429 with resetAt', async () => {
    const ip = freshIp();
    const started = Date.now();
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = i === 2 ? await demo(ip, JSON.stringify({})) : await demo(ip, form('image', png));
      remaining.push(response.headers.get('X-Demo-Remaining')!);
      await response.arrayBuffer();
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await demo(ip, form('image', png));
    expect(refused.status).toBe(429);
    const body = await errorBody(refused);
    expect(body.error).toBe('rate_limited');
    const resetAt = Date.parse(body.resetAt!);
    expect(resetAt).toBeGreaterThanOrEqual(started + 3_600_000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3500);
    // The 429 itself does not count: the window is still full, not over-full.
    const again = await demo(ip, form('image', png));
    expect((await errorBody(again)).resetAt).toBe(body.resetAt);
  });

  it('lets at most 5 of 50 concurrent requests from one IP through', async () => {
    const ip = freshIp();
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const responses = await Promise.all(Array.from({ length: 50 }, () => demo(ip, form('image', png))));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(45);
  });

  it('counts different IPs independently', async () => {
    const [a, b] = [freshIp(), freshIp()];
    for (let i = 0; i < 5; i++) await (await demo(a, JSON.stringify({}))).arrayBuffer();
    expect((await demo(a, JSON.stringify({}))).status).toBe(429);
    expect((await demo(b, JSON.stringify({}))).status).toBe(400);
  });

  it('counts IPv6 clients per /64', async () => {
    const first = '2001:db8:1234:5678::1';
    const sameNet = '2001:db8:1234:5678:ffff:eeee:dddd:cccc';
    const otherNet = '2001:db8:1234:5679::1';
    for (let i = 0; i < 5; i++) await (await demo(i % 2 ? first : sameNet, JSON.stringify({}))).arrayBuffer();
    expect((await demo(sameNet, JSON.stringify({}))).status).toBe(429);
    expect((await demo(first, JSON.stringify({}))).status).toBe(429);
    expect((await demo(otherNet, JSON.stringify({}))).status).toBe(400);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, each mapped address on its own', async () => {
    const ipv4 = freshIp();
    for (let i = 0; i < 5; i++) await (await demo(`::ffff:${ipv4}`, JSON.stringify({}))).arrayBuffer();
    expect((await demo(ipv4, JSON.stringify({}))).status).toBe(429);
    expect((await demo(`0:0:0:0:0:ffff:${ipv4}`, JSON.stringify({}))).status).toBe(429);
    const other = freshIp();
    expect((await demo(`::ffff:${other}`, JSON.stringify({}))).status).toBe(400);
  });

  it('refuses a missing or unparsable client address with 400 bad_request: never a shared or fresh bucket', async () => {
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    for (const ip of [undefined, '', 'unknown', '198.18.0', '198.18.0.1.2', '198.18.0.256', '2001:db8::1::2', 'fe80::1%eth0', '198.18.0.1, 10.0.0.1']) {
      const headers: Record<string, string> = ip === undefined ? {} : { 'CF-Connecting-IP': ip };
      const response = await call('/v1/demo-compress', { method: 'POST', headers, body: form('image', png) });
      expect(response.status, String(ip)).toBe(400);
      const body = await errorBody(response);
      expect(body.error).toBe('bad_request');
      expect(body.message).toMatch(/CF-Connecting-IP/);
    }
  });

  it('refuses cross-site browser requests with 403 forbidden, without spending the allowance', async () => {
    const ip = freshIp();
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const crossSite: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: 'http://api.test:8080' },
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://api.test' },
    ];
    for (const headers of crossSite) {
      const response = await demo(ip, form('image', png), headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await errorBody(response)).error).toBe('forbidden');
    }
    const ok = await demo(ip, form('image', png));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Demo-Remaining')).toBe('4');
  });

  it("keeps working for the site's own page and for scripts without those headers", async () => {
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const own: Record<string, string>[] = [{}, { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://api.test' }, { 'Sec-Fetch-Site': 'same-origin' }, { Origin: 'http://api.test' }];
    for (const headers of own) {
      const response = await demo(freshIp(), form('image', png), headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      await response.arrayBuffer();
    }
  });

  it('allows at most 30 an hour per IPv4 /24, beside 5 per address', async () => {
    const network = `198.18.${++netCounter}`;
    for (let host = 1; host <= 6; host++) {
      for (let i = 0; i < 5; i++) expect((await demo(`${network}.${host}`, JSON.stringify({}))).status).toBe(400);
    }
    const refused = await demo(`${network}.7`, JSON.stringify({}));
    expect(refused.status).toBe(429);
    const body = await errorBody(refused);
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(/30/);
    expect(refused.headers.get('X-Demo-Remaining')).toBe('0');
    expect(refused.headers.get('RateLimit-Policy')).toBe('"hour";q=5;w=3600, "network";q=30;w=3600');
    expect(refused.headers.get('RateLimit')).toMatch(/^"hour";r=5;t=\d+, "network";r=0;t=\d+$/);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3500);
    // Another /24 is not affected.
    expect((await demo(freshIp(), JSON.stringify({}))).status).toBe(400);
  });

  it('allows at most 30 an hour per IPv6 /48, beside 5 per /64', async () => {
    const network = `2001:db8:${(++netCounter).toString(16)}`;
    for (let subnet = 1; subnet <= 6; subnet++) {
      for (let i = 0; i < 5; i++) expect((await demo(`${network}:${subnet}::${i + 1}`, JSON.stringify({}))).status).toBe(400);
    }
    expect((await demo(`${network}:7::1`, JSON.stringify({}))).status).toBe(429);
    expect((await demo(`${network}:ffff:1:2:3:4`, JSON.stringify({}))).status).toBe(429);
    expect((await demo(`2001:db8:${(++netCounter).toString(16)}:7::1`, JSON.stringify({}))).status).toBe(400);
  });

  it('does not count a request answered 503 because the isolate is busy (decisions: a 503 is charged nothing)', async () => {
    // Requests already hold most of the isolate's bytes: a 3.6 MB upload does not fit beside them.
    const held = admission.claim();
    held.grow(REQUEST_BYTES_BUDGET - 2 * 1_048_576);
    const ip = freshIp();
    const busy = await demo(ip, form('image', syntheticPng(1200, 1000, false))); // 3.6 MB, stored
    held.release();
    expect(busy.status).toBe(503);
    expect((await errorBody(busy)).error).toBe('service_unavailable');
    expect(busy.headers.get('Retry-After')).toBe('1');
    expect(busy.headers.get('X-Demo-Remaining')).toBe('5');
    const next = await demo(ip, form('image', await fixture('api/chelsea.png')));
    expect(next.status).toBe(200);
    expect(next.headers.get('X-Demo-Remaining')).toBe('4');
  });
});
