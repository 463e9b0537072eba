import { vi } from 'vitest';
import { until } from '../helpers/wait';

/**
 * Replaces the one boundary the url fetcher crosses, globalThis.fetch, with a fake internet:
 * DNS-over-HTTPS queries are answered from `dns`, every other request goes to `sites`.
 * `requests` records what reached the sites (never the DoH queries), in order.
 */
export interface FakeNetwork {
  dns?: Record<string, { A?: string[]; AAAA?: string[]; CNAME?: string }>;
  /** Keyed by exact URL; `attempt` counts the calls to that URL, from 1. */
  sites?: Record<string, (request: Request, attempt: number) => Response | Promise<Response>>;
}

export interface NetworkLog {
  requests: Request[];
  dnsQueries: Request[];
  urls: () => string[];
  /** Resolves once `count` requests have reached the sites. */
  requested: (count: number) => Promise<void>;
}

export const PUBLIC_IPV4 = '93.184.215.14';
export const PUBLIC_IPV6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

/** Magic bytes followed by filler: enough for the fetcher, which only checks the signature. */
export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
export const WEBP = new TextEncoder().encode('RIFF\x04\x00\x00\x00WEBPVP8 ');

export function fakeNetwork({ dns = {}, sites = {} }: FakeNetwork): NetworkLog {
  const log: NetworkLog = {
    requests: [],
    dnsQueries: [],
    urls: () => log.requests.map((r) => r.url),
    requested: (count) => until(() => log.requests.length >= count),
  };
  const attempts = new Map<string, number>();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin === 'https://cloudflare-dns.com') {
      log.dnsQueries.push(request);
      return dohAnswer(dns, url.searchParams.get('name') ?? '', url.searchParams.get('type') ?? '');
    }
    log.requests.push(request);
    const attempt = (attempts.get(request.url) ?? 0) + 1;
    attempts.set(request.url, attempt);
    const site = sites[request.url];
    if (!site) throw new TypeError(`fake network: no site at ${request.url}`);
    return site(request, attempt);
  });
  return log;
}

/** Cloudflare's JSON format: a CNAME record first, then the addresses the chain ends at. */
function dohAnswer(dns: NonNullable<FakeNetwork['dns']>, name: string, type: string): Response {
  const zone = dns[name];
  if (!zone) return Response.json({ Status: 3, Question: [{ name, type }] }); // NXDOMAIN
  const Answer: { name: string; type: number; TTL: number; data: string }[] = [];
  if (zone.CNAME) Answer.push({ name: `${name}.`, type: 5, TTL: 300, data: `${zone.CNAME}.` });
  const owner = `${zone.CNAME ?? name}.`;
  if (type === 'A') for (const data of zone.A ?? []) Answer.push({ name: owner, type: 1, TTL: 300, data });
  if (type === 'AAAA') for (const data of zone.AAAA ?? []) Answer.push({ name: owner, type: 28, TTL: 300, data });
  return Response.json({ Status: 0, Question: [{ name, type: type === 'A' ? 1 : 28 }], Answer });
}

/** A public host name with one public IPv4 and one public IPv6 address. */
export function publicHost(name: string): Record<string, { A: string[]; AAAA: string[] }> {
  return { [name]: { A: [PUBLIC_IPV4], AAAA: [PUBLIC_IPV6] } };
}

/** A 200 answer carrying `body`, with Content-Type `type`. */
export function ok(body: BodyInit, type = 'image/jpeg'): Response {
  return new Response(body, { headers: { 'Content-Type': type } });
}

export function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { Location: location } });
}

/**
 * A body of `totalBytes` produced on demand in 64 KiB chunks, counting what the reader pulled,
 * so a test can prove the fetcher stopped reading (and cancelled) near its limit.
 */
export function countingStream(totalBytes: number): {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
} {
  const chunk = 64 * 1024;
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      const size = Math.min(chunk, totalBytes - pulled);
      const bytes = new Uint8Array(size);
      if (pulled === 0) bytes.set(JPEG);
      pulled += size;
      controller.enqueue(bytes);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}
