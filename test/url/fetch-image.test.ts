import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchImageFromUrl, URL_FETCH_DEADLINE_MS } from '../../src/input/url/fetch-image';
import { backoffMs, MAX_ATTEMPTS } from '../../src/input/url/with-retries';
import { COMPRESS_MAX_BYTES, MB } from '../../src/limits/sizes';
import { apiErrorOf } from '../helpers/errors';
import { nextTurn } from '../helpers/wait';
import {
  countingStream,
  fakeNetwork,
  JPEG,
  ok,
  PNG,
  PUBLIC_IPV4,
  publicHost,
  redirect,
  WEBP,
} from './fake-network';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const IMAGE = 'https://images.example.com/cat.jpg';
const never = () => new Promise<Response>(() => {});
/** For tests of retries, whose real backoff pauses must never meet the deadline on a slow machine. */
const UNHURRIED = { deadlineMs: 600_000 };
/** The timers of the deadline and the backoff, moved by the test (vi.advanceTimersByTimeAsync). */
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

describe('a good image', () => {
  it('is returned as fetched, with the service named and nothing private sent', async () => {
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(JPEG) } });

    expect([...(await fetchImageFromUrl(IMAGE))]).toEqual([...JPEG]);

    const [request] = network.requests;
    expect(network.requests).toHaveLength(1);
    expect(request?.method).toBe('GET');
    expect(request?.redirect).toBe('manual');
    expect(request?.headers.get('User-Agent')).toBe('SqueezeEdge/1.0 (image compression API)');
    expect(request?.headers.get('Accept')).toBe('image/*');
    expect(request?.headers.has('Cookie')).toBe(false);
    expect(request?.headers.has('Authorization')).toBe(false);
  });

  it('is checked over DNS-over-HTTPS for both A and AAAA first', async () => {
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(JPEG) } });
    await fetchImageFromUrl(IMAGE);
    expect(network.dnsQueries.map((q) => q.url).sort()).toEqual([
      'https://cloudflare-dns.com/dns-query?name=images.example.com&type=A',
      'https://cloudflare-dns.com/dns-query?name=images.example.com&type=AAAA',
    ]);
    for (const query of network.dnsQueries) expect(query.headers.get('Accept')).toBe('application/dns-json');
  });

  it.each([
    ['PNG', PNG],
    ['WebP', WEBP],
  ])('may be a %s, whatever its Content-Type says', async (_format, bytes) => {
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(bytes, 'application/octet-stream') } });
    expect([...(await fetchImageFromUrl(IMAGE))]).toEqual([...bytes]);
  });

  it('may be exactly 10 MB', async () => {
    const body = countingStream(COMPRESS_MAX_BYTES);
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(body.stream) } });
    expect((await fetchImageFromUrl(IMAGE)).byteLength).toBe(10_485_760);
  });

  it('may come from a name that is a CNAME for a public host', async () => {
    fakeNetwork({
      dns: { 'images.example.com': { CNAME: 'cdn.example.net', A: [PUBLIC_IPV4] } },
      sites: { [IMAGE]: () => ok(JPEG) },
    });
    expect((await fetchImageFromUrl(IMAGE)).byteLength).toBe(JPEG.byteLength);
  });
});

describe('DNS blocking: url_blocked, and the image host is never fetched', () => {
  it('refuses a public-looking name that resolves to 10.0.0.1', async () => {
    const network = fakeNetwork({ dns: { 'images.example.com': { A: ['10.0.0.1'] } }, sites: { [IMAGE]: () => ok(JPEG) } });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([400, 'url_blocked']);
    expect(network.requests).toHaveLength(0);
  });

  it('refuses a name with one private address among public ones', async () => {
    const network = fakeNetwork({
      dns: { 'images.example.com': { A: [PUBLIC_IPV4], AAAA: ['fd00::1'] } },
      sites: { [IMAGE]: () => ok(JPEG) },
    });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE))).code).toBe('url_blocked');
    expect(network.requests).toHaveLength(0);
  });

  it('refuses a CNAME chain that ends at loopback', async () => {
    const network = fakeNetwork({
      dns: { 'images.example.com': { CNAME: 'lb.attacker.example', A: ['127.0.0.1'] } },
      sites: { [IMAGE]: () => ok(JPEG) },
    });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE))).code).toBe('url_blocked');
    expect(network.requests).toHaveLength(0);
  });

  it('fails a name that does not resolve with 502, without fetching', async () => {
    const network = fakeNetwork({ sites: { [IMAGE]: () => ok(JPEG) } });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(network.requests).toHaveLength(0);
  });
});

describe('redirects: followed by hand, each hop checked before it is fetched', () => {
  it('refuses a redirect to the cloud metadata address, which is never fetched', async () => {
    const metadata = 'https://169.254.169.254/latest/meta-data/iam/security-credentials/';
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => redirect(metadata), [metadata]: () => ok('secret') },
    });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([400, 'url_blocked']);
    expect(error.message).toContain('redirected');
    expect(network.urls()).toEqual([IMAGE]);
  });

  it('refuses a redirect to a name that resolves to a private address', async () => {
    const internal = 'https://admin.attacker.example/';
    const network = fakeNetwork({
      dns: { ...publicHost('images.example.com'), 'admin.attacker.example': { A: ['192.168.0.10'] } },
      sites: { [IMAGE]: () => redirect(internal, 307), [internal]: () => ok(JPEG) },
    });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE))).code).toBe('url_blocked');
    expect(network.urls()).toEqual([IMAGE]);
  });

  it('refuses a redirect to plain http with url_invalid', async () => {
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => redirect('http://images.example.com/cat.jpg', 301) },
    });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE))).code).toBe('url_invalid');
    expect(network.requests).toHaveLength(1);
  });

  const chain = (redirects: number) => {
    const hop = (i: number) => `https://images.example.com/hop/${i}`;
    const sites: Record<string, () => Response> = { [hop(redirects)]: () => ok(JPEG) };
    for (let i = 0; i < redirects; i++) sites[hop(i)] = () => redirect(`/hop/${i + 1}`, [301, 302, 303, 307, 308][i % 5]);
    return { start: hop(0), sites };
  };

  it('follows a chain of 5 relative redirects', async () => {
    const { start, sites } = chain(5);
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites });
    expect((await fetchImageFromUrl(start)).byteLength).toBe(JPEG.byteLength);
    expect(network.requests).toHaveLength(6);
  });

  it('refuses a chain of 6 redirects with 502, never fetching the 7th url', async () => {
    const { start, sites } = chain(6);
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites });
    const error = await apiErrorOf(fetchImageFromUrl(start));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(error.message).toMatch(/redirected more than 5 times/);
    expect(network.requests).toHaveLength(6);
    expect(network.urls()).not.toContain('https://images.example.com/hop/6');
  });

  it('fails a redirect without a Location with 502', async () => {
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => new Response(null, { status: 302 }) } });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE))).code).toBe('url_fetch_failed');
  });
});

describe('retries: network errors, 5xx and 429, 3 attempts in all', () => {
  it('3 attempts in all (the interface), pausing 100 ms then 300 ms', () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect([backoffMs(1), backoffMs(2)]).toEqual([100, 300]);
  });

  it('succeeds on attempt 3 after two failures, with exactly 3 calls', async () => {
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: {
        [IMAGE]: (_request, attempt) => {
          if (attempt === 1) throw new TypeError('connection reset');
          if (attempt === 2) return new Response('busy', { status: 503 });
          return ok(JPEG);
        },
      },
    });
    expect((await fetchImageFromUrl(IMAGE, UNHURRIED)).byteLength).toBe(JPEG.byteLength);
    expect(network.requests).toHaveLength(3);
  });

  it.each([
    ['HTTP 500', () => new Response('oops', { status: 500 })],
    ['HTTP 429', () => new Response('slow down', { status: 429 })],
    ['a network error', (): Response => {
      throw new TypeError('network unreachable');
    }],
  ])('fails with 502 after 3 attempts of %s', async (_what, answer) => {
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: answer } });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE, UNHURRIED));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(error.message).toContain('after 3 attempts');
    expect(network.requests).toHaveLength(3);
  });

  it('fails a 4xx answer with 502 at once', async () => {
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => new Response('gone', { status: 404 }) },
    });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(error.message).toContain('404');
    expect(network.requests).toHaveLength(1);
  });

  /** DNS over HTTPS answering `status(type)` for each record type; the image host must not be fetched. */
  function failingDoh(status: (type: string) => number) {
    const network = fakeNetwork({ sites: { [IMAGE]: () => ok(JPEG) } });
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (request.url.startsWith('https://cloudflare-dns.com/')) {
        network.dnsQueries.push(request);
        return new Response('unavailable', { status: status(new URL(request.url).searchParams.get('type')!) });
      }
      throw new Error('the image host must not be fetched');
    });
    return (type: string) => network.dnsQueries.filter((q) => q.url.endsWith(`&type=${type}`)).length;
  }

  it('retries a failing DNS-over-HTTPS lookup, then fails with 502 without fetching', async () => {
    const queries = failingDoh(() => 503);
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE, UNHURRIED));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(Math.max(queries('A'), queries('AAAA'))).toBe(3);
  });

  it('abandons a lookup still retrying when the other one has failed for good', async () => {
    fakeTimers();
    // A is retried after a 503; AAAA's 400 fails the fetch at once, while A waits out its backoff.
    const queries = failingDoh((type) => (type === 'A' ? 503 : 400));
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([502, 'url_fetch_failed']);
    expect(queries('A')).toBe(1);
    // Past every backoff and the deadline: A's pause ends, and nothing follows it.
    await vi.advanceTimersByTimeAsync(URL_FETCH_DEADLINE_MS + 1000);
    await nextTurn();
    expect(queries('A')).toBe(1);
  });
});

describe('one deadline for everything: 504 url_timeout', () => {
  it("is the interface's 5000 ms", () => {
    expect(URL_FETCH_DEADLINE_MS).toBe(5000);
  });

  it('gives up on a server that never answers when the deadline passes, not after 3 attempts of it', async () => {
    fakeTimers();
    const network = fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: never } });
    const fetching = apiErrorOf(fetchImageFromUrl(IMAGE));
    await network.requested(1);
    await vi.advanceTimersByTimeAsync(URL_FETCH_DEADLINE_MS - 1);
    expect(network.requests[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(network.requests[0]!.signal.aborted).toBe(true);
    const error = await fetching;
    expect([error.status, error.code]).toEqual([504, 'url_timeout']);
    expect(network.requests).toHaveLength(1);
  });

  it('cuts a body that trickles forever, and cancels it', async () => {
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(JPEG);
      },
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        controller.enqueue(new Uint8Array(1));
      },
      cancel() {
        cancelled = true;
      },
    });
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(trickle) } });
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE, { deadlineMs: 300 }))).code).toBe('url_timeout');
    expect(cancelled).toBe(true);
  });

  it('counts DNS lookups against the deadline', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(never);
    expect((await apiErrorOf(fetchImageFromUrl(IMAGE, { deadlineMs: 200 }))).code).toBe('url_timeout');
  });

  it('counts retries and their pauses against the deadline', async () => {
    fakeTimers();
    const network = fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: { [IMAGE]: () => new Response('busy', { status: 503 }) },
    });
    // 100 ms + 300 ms of backoff cannot fit in 250 ms: the deadline ends the second pause, and no third attempt is made.
    const fetching = apiErrorOf(fetchImageFromUrl(IMAGE, { deadlineMs: 250 }));
    await network.requested(1);
    await vi.advanceTimersByTimeAsync(backoffMs(1));
    await network.requested(2);
    await vi.advanceTimersByTimeAsync(250 - backoffMs(1) + backoffMs(2));
    expect((await fetching).code).toBe('url_timeout');
    expect(network.requests).toHaveLength(2);
  });
});

describe('size: 413 url_too_large over 10 MB', () => {
  it('refuses a Content-Length over 10 MB before reading the body', async () => {
    const body = countingStream(11 * MB);
    fakeNetwork({
      dns: publicHost('images.example.com'),
      sites: {
        [IMAGE]: () => new Response(body.stream, { headers: { 'Content-Length': String(COMPRESS_MAX_BYTES + 1) } }),
      },
    });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([413, 'url_too_large']);
    expect(error.message).toBe('The image at the url exceeds 10 MB.');
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024); // at most the stream's own first prefetch
  });

  it('cuts an 11 MB body sent without Content-Length near 10 MB, and cancels it', async () => {
    const body = countingStream(11 * MB);
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(body.stream) } });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([413, 'url_too_large']);
    expect(error.message).toBe('The image at the url exceeds 10 MB.');
    expect(body.pulled()).toBeGreaterThan(COMPRESS_MAX_BYTES);
    expect(body.pulled()).toBeLessThanOrEqual(COMPRESS_MAX_BYTES + 2 * 64 * 1024);
    expect(body.cancelled()).toBe(true);
  });
});

describe('content: 400 url_invalid_content unless the bytes are an image the service recognises (JPEG, PNG, WebP, HEIF, GIF)', () => {
  it.each([
    ['an HTML page labelled image/png', '<!doctype html><title>Not found</title>', 'image/png'],
    ['a BMP', 'BM\x46\x00\x00\x00\x00\x00\x00\x00\x36\x00', 'image/bmp'],
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml'],
    ['an empty body', '', 'image/jpeg'],
  ])('refuses %s', async (_what, body, type) => {
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE]: () => ok(body, type) } });
    const error = await apiErrorOf(fetchImageFromUrl(IMAGE));
    expect([error.status, error.code]).toEqual([400, 'url_invalid_content']);
  });
});
