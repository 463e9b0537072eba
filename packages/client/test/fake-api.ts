// A small local stand-in for the API, for the packages' unit tests: each request is answered by the next
// queued handler (then by the default one), and every request is recorded with its socket and body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { Squeeze, SqueezeError, type SqueezeOptions } from '../src/index';

/** A value shaped like an API key (`sqz_` and 32 base64url characters), as the client requires. */
export const TEST_KEY = 'sqz_test0000000000000000000000000000';

/** The SqueezeError that `promise` rejects with (a test failure when it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<SqueezeError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SqueezeError);
  return err as SqueezeError;
}

/** Waits for something the client or the fake API does, never for a length of time (the test's timeout bounds it). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Which connection carried it: 1 for the first socket, 2 for the next... */
  socket: number;
  at: number;
}

export type Handler = ((req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>) & { raw?: boolean };

export class FakeApi {
  readonly requests: Received[] = [];
  readonly #server: Server;
  readonly #queue: Handler[] = [];
  #fallback: Handler;
  readonly #sockets = new Map<Socket, number>();
  url = '';

  private constructor(fallback: Handler) {
    this.#fallback = fallback;
    // A client that cuts its upload (a stream over the limit, an abort) ends the request early: not an error here.
    this.#server = createServer((req, res) => void this.#handle(req, res).catch(() => res.destroy()));
    this.#server.keepAliveTimeout = 60_000;
    this.#server.on('connection', (socket) => this.#sockets.set(socket, this.#sockets.size + 1));
  }

  static async start(fallback: Handler = image()): Promise<FakeApi> {
    const api = new FakeApi(fallback);
    await new Promise<void>((resolve) => api.#server.listen(0, '127.0.0.1', resolve));
    const address = api.#server.address() as { port: number };
    api.url = `http://127.0.0.1:${address.port}`;
    return api;
  }

  /** Queues handlers for the next requests, in order. */
  answer(...handlers: Handler[]): this {
    this.#queue.push(...handlers);
    return this;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handler = this.#queue.shift() ?? this.#fallback;
    const record: Received = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.alloc(0), socket: this.#sockets.get(req.socket)!, at: Date.now() };
    this.requests.push(record);
    if (handler.raw) return handler(req, res, record.body);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    record.body = Buffer.concat(chunks);
    await handler(req, res, record.body);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/**
 * A fresh fake API for each test of the calling file (closed after it), and `client()`, a Squeeze pointed at
 * it with short backoffs.
 */
export function fakeApiPerTest(fallback?: Handler) {
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await FakeApi.start(fallback);
  });
  afterEach(() => api?.close());
  return {
    get api(): FakeApi {
      return api!;
    },
    client: (options: Partial<SqueezeOptions> = {}) => new Squeeze({ apiKey: TEST_KEY, baseUrl: api!.url, retryBaseDelayMs: 5, ...options }),
  };
}

const RATE_LIMIT = {
  'RateLimit-Policy': '"minute";q=60;w=60, "month";q=500;w=2592000',
  RateLimit: '"minute";r=59;t=60, "month";r=499;t=86400',
};

/** A 200 as /v1/compress answers: the image (by default the smallest one of its format) and its headers. */
export function image(options: { bytes?: Uint8Array; format?: string; original?: number; notes?: string; headers?: Record<string, string> } = {}): Handler {
  return (_req, res, body) => {
    const bytes = options.bytes ?? (options.format === 'webp' ? webpBytes() : options.format === 'jpeg' ? jpegBytes() : options.format === 'avif' ? avifBytes() : pngBytes());
    const original = options.original ?? body.length;
    res.writeHead(200, {
      'Content-Type': `image/${options.format ?? 'png'}`,
      'X-Original-Size': String(original),
      'X-Compressed-Size': String(bytes.length),
      'X-Savings-Percent': String(Math.round((100 * (original - bytes.length)) / original)),
      'X-Output-Format': options.format ?? 'png',
      ...(options.notes ? { 'X-Compression-Notes': options.notes } : {}),
      ...RATE_LIMIT,
      ...options.headers,
    });
    res.end(bytes);
  };
}

/** A JSON error as the API sends it. */
export function apiError(status: number, error: string, options: { message?: string; retryAfter?: number; resetAt?: string; headers?: Record<string, string> } = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, {
      'Content-Type': 'application/json',
      ...(options.retryAfter === undefined ? {} : { 'Retry-After': String(options.retryAfter) }),
      ...RATE_LIMIT,
      ...options.headers,
    });
    res.end(JSON.stringify({ error, message: options.message ?? `fake ${error}`, ...(options.resetAt ? { resetAt: options.resetAt } : {}) }));
  };
}

/** Closes the connection without an answer. */
export const dropConnection: Handler = (req) => {
  req.socket.destroy();
};

/** Never answers. */
export const hang: Handler = () => undefined;

/** The smallest byte strings the client's pre-checks take for each format (the fake never decodes them). */
function chunk(type: string, data: number[] = []): number[] {
  const n = data.length;
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255, ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
}
export function pngBytes(options: { animated?: boolean; padding?: number } = {}): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ...chunk('IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]),
    ...(options.animated ? chunk('acTL', [0, 0, 0, 2, 0, 0, 0, 0]) : []),
    ...chunk('IDAT', new Array(options.padding ?? 4).fill(0)),
    ...chunk('IEND'),
  ]);
}
export function webpBytes(options: { animated?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const riff = (body: number[]) => [...'RIFF'].map((c) => c.charCodeAt(0)).concat([body.length + 4, 0, 0, 0], [...'WEBP'].map((c) => c.charCodeAt(0)), body);
  const vp8x = [...'VP8X'].map((c) => c.charCodeAt(0)).concat([10, 0, 0, 0, options.animated ? 0x02 : 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const vp8l = [...'VP8L'].map((c) => c.charCodeAt(0)).concat([5, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0]);
  return new Uint8Array(riff([...vp8x, ...vp8l]));
}
/** An ftyp box of the avif brand: all the client checks of an AVIF answer. */
export const avifBytes = () => new Uint8Array([0, 0, 0, 20, ...[...'ftypavif'].map((c) => c.charCodeAt(0)), 0, 0, 0, 0, ...[...'mif1'].map((c) => c.charCodeAt(0))]);
export const jpegBytes = (size = 16) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(Math.max(0, size - 4)).fill(0)]);
