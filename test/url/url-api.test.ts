import { afterEach, describe, expect, it, vi } from 'vitest';
import { compress, createKey, errorBody } from '../helpers/api';
import { fixture } from '../helpers/fixtures';
import { URL_FETCH_DEADLINE_MS } from '../../src/input/url/fetch-image';
import { MB } from '../../src/limits/sizes';
import { compressionsThisMonth } from '../helpers/usage';
import { countingStream, fakeNetwork, publicHost } from './fake-network';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const IMAGE = 'https://images.example.com/photo.png';

/** A JSON request with these fields, with `key` or a fresh business key. */
const compressUrl = (fields: Record<string, unknown>, key?: string) => compress(JSON.stringify(fields), {}, key ? { 'X-API-Key': key } : {});

describe('POST /v1/compress with a url', () => {
  it('compresses the fetched image; X-Original-Size is the fetched size', async () => {
    const png = await fixture('engine/pngsuite/basn2c08.png');
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(png) } });
    const response = await compressUrl({ url: IMAGE, format: 'png' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Original-Size')).toBe(String(png.length));
    expect(response.headers.get('X-Output-Format')).toBe('png');
  });

  it('prefers url over image when both are given', async () => {
    const png = await fixture('engine/pngsuite/basn2c08.png');
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(png) } });
    const response = await compressUrl({ url: IMAGE, image: 'bm90IGFuIGltYWdl' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Original-Size')).toBe(String(png.length));
    expect(network.requests).toHaveLength(1);
  });

  it.each([
    [400, 'url_invalid', 'http://images.example.com/photo.png'],
    [400, 'url_invalid', 'https://user:pass@images.example.com/photo.png'],
    [400, 'url_blocked', 'https://127.1/photo.png'],
    [400, 'url_blocked', 'https://[::ffff:169.254.169.254]/latest/meta-data/'],
    [400, 'url_blocked', 'https://metadata.google.internal/'],
    [400, 'url_blocked', 'https://images.example.com:8443/photo.png'],
    [400, 'url_blocked', 'https://images.example.com:22/photo.png'],
    [400, 'url_blocked', 'https://images.example.com:80/photo.png'],
    [400, 'url_blocked', 'https://images.example.com:6379/photo.png'],
  ])('answers %i %s for %s, before any network access', async (status, code, url) => {
    const network = fakeNetwork({});
    const response = await compressUrl({ url });
    expect(response.status).toBe(status);
    expect((await errorBody(response)).error).toBe(code);
    expect(network.dnsQueries).toHaveLength(0);
    expect(network.requests).toHaveLength(0);
  });

  it('fetches port 443 only: an explicit :443 is the same url, a redirect to another port is 400 url_blocked and not fetched', async () => {
    const png = await fixture('engine/pngsuite/basn2c08.png');
    const elsewhere = 'https://images.example.com:8080/photo.png';
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => new Response(png), 'https://images.example.com/moved.png': () => new Response(null, { status: 302, headers: { Location: elsewhere } }) },
    });
    const ok = await compressUrl({ url: 'https://images.example.com:443/photo.png' });
    expect(ok.status).toBe(200);
    const moved = await compressUrl({ url: 'https://images.example.com/moved.png' });
    expect(moved.status).toBe(400);
    const error = await errorBody(moved);
    expect(error.error).toBe('url_blocked');
    expect(error.message).toMatch(/redirected/);
    expect(network.urls()).not.toContain(elsewhere);
  });

  it('answers 400 url_blocked for a name that resolves to a private address, without fetching it', async () => {
    const network = fakeNetwork({
      dns: { 'images.example.com': { A: ['10.0.0.1'] } },
      sites: { [IMAGE]: () => new Response('') },
    });
    const response = await compressUrl({ url: IMAGE });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('url_blocked');
    expect(network.requests).toHaveLength(0);
  });

  it('answers 400 url_invalid_content for HTML served as image/png', async () => {
    fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => new Response('<html><body>login</body></html>', { headers: { 'Content-Type': 'image/png' } }) },
    });
    const response = await compressUrl({ url: IMAGE });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('url_invalid_content');
  });

  it.each(['heif/photo.heic'])('answers 400 url_invalid_content for %s, as before it was recognised: walked, and named as not decoded yet', async (name) => {
    const bytes = await fixture(name);
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(bytes) } });
    const response = await compressUrl({ url: IMAGE });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ error: 'url_invalid_content', message: expect.stringMatching(/which is recognised but not decoded yet/) });
  });

  it('decodes an AVIF (issue 38): 200, its size kept', async () => {
    const bytes = await fixture('heif/photo.avif');
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(bytes) } });
    const response = await compressUrl({ url: IMAGE, format: 'png' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/png');
  });

  it('answers 413 url_too_large for an 11 MB body', async () => {
    const body = countingStream(11 * MB);
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(body.stream) } });
    const response = await compressUrl({ url: IMAGE });
    expect(response.status).toBe(413);
    const error = await errorBody(response);
    expect(error.error).toBe('url_too_large');
    expect(error.message).toContain('10 MB');
  });

  it('answers 502 url_fetch_failed after 3 failed attempts, and charges nothing', async () => {
    // Real backoff pauses (100 + 300 ms) against the real 5000 ms deadline: timers made inside a request
    // of the Worker can only fire in it, so the test cannot move them; their timing is pinned with fake
    // timers in fetch-image.test.ts.
    const { key } = await createKey('free');
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => new Response('down', { status: 503 }) },
    });
    const response = await compressUrl({ url: IMAGE }, key);
    expect(response.status).toBe(502);
    expect((await errorBody(response)).error).toBe('url_fetch_failed');
    expect(network.requests).toHaveLength(3);
    expect(await compressionsThisMonth(key)).toBe(0);
  });

  it('answers 504 url_timeout when the server never answers, once the 5000 ms deadline has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The server moves the clock while the Worker waits for it: a timer made inside a request of the
    // Worker must fire in that request (workerd), so the test cannot move it from outside.
    let abortedBeforeDeadline: boolean | undefined;
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: {
        [IMAGE]: (request) => {
          vi.advanceTimersByTime(URL_FETCH_DEADLINE_MS - 1);
          abortedBeforeDeadline = request.signal.aborted;
          vi.advanceTimersByTime(1);
          return new Promise<Response>(() => {});
        },
      },
    });
    const response = await compressUrl({ url: IMAGE });
    expect(response.status).toBe(504);
    expect((await errorBody(response)).error).toBe('url_timeout');
    expect(abortedBeforeDeadline).toBe(false);
    expect(network.requests[0]!.signal.aborted).toBe(true);
  });
});
