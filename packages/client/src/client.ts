import { checkApiKey } from './api-key.js';
import { checkBaseUrl } from './base-url.js';
import { SqueezeError } from './errors.js';
import { readImageAnswer, type ImageAnswer } from './image-answer.js';
import { RateGate } from './rate-gate.js';
import { parseRateLimit, type RateLimitInfo } from './rate-limit.js';
import { isStaleSocket, retryDelayMs, type RetrySettings } from './retry.js';
import { sleep } from './sleep.js';
import { BodyProblem, readBody } from './read-body.js';
import { prepareSource, type CompressInput, type RequestSource } from './source.js';
import type { ApiErrorCode, CompressOptionsOfApi, ImageFormat, UsageResponse } from './types.js';

export interface SqueezeOptions {
  /** The API key (`sqz_` and 32 characters), sent as X-API-Key to the base URL only. A value of another shape is refused. */
  apiKey: string;
  /** Where the API is: https, or plain http to a loopback address. */
  baseUrl: string | URL;
  /** Time allowed for each attempt (request and response body), in ms. Default 60,000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff for network errors and 5xx, in ms; it doubles at each retry, with jitter. Default 500. */
  retryBaseDelayMs?: number;
  /** The longest Retry-After (seconds) worth waiting for; a longer one fails at once. Default 60. */
  maxRetryAfterSeconds?: number;
  /** Your application's name, added to the User-Agent where the platform lets it be set. */
  userAgent?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** What every call takes. */
export interface CallOptions {
  /** Aborts the call, including waits between attempts; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** This call's per-attempt timeout, in ms. */
  timeoutMs?: number;
}

export interface CompressOptions extends CompressOptionsOfApi, CallOptions {
  /** With format `auto`, let the API answer WebP when that is smaller at the same look (sends `Accept: image/webp`; the API decides). */
  allowWebp?: boolean;
  /** With format `auto`, let the API answer AVIF when that is smaller at the same look (sends `Accept: image/avif`; the API decides). */
  allowAvif?: boolean;
}

export interface CompressResult {
  /** The compressed image. */
  image: Uint8Array;
  format: ImageFormat;
  contentType: string;
  originalSize: number;
  compressedSize: number;
  /** originalSize − compressedSize (negative when a resize or format change made it larger). */
  savedBytes: number;
  /** round(100 × saved / original), as the API computes it. */
  savingsPercent: number;
  /** The window cut from the image as displayed (fit cover, crop or aspect-crop), from the API's X-Crop. */
  crop?: { left: number; top: number; width: number; height: number };
  /** What the API did: `cropped`, `resized`, `padded`, `converted`, `orientation-applied`, `alpha-flattened`, `icc-kept`, `lossless-recoded`, `original-returned`, `metadata-kept`, `metadata-truncated`, `format-kept-for-look`. */
  notes: string[];
  /** The rate-limit windows of the answer: `minute` and `month`. */
  rateLimit: RateLimitInfo;
  /** Requests made for this call (more than 1 after retries). */
  attempts: number;
}

/** X-Crop's four whole numbers; anything else is ignored. */
function readCrop(value: string | null): Pick<CompressResult, 'crop'> {
  const parts = value?.split(',').map((part) => part.trim());
  if (!parts || parts.length !== 4 || !parts.every((part) => /^\d{1,9}$/.test(part))) return {};
  const [left, top, width, height] = parts.map(Number) as [number, number, number, number];
  return { crop: { left, top, width, height } };
}

export type Usage = UsageResponse & { rateLimit: RateLimitInfo };

/** This package's version, for the User-Agent (a test keeps it equal to package.json's). */
export const VERSION = '0.1.0';

/** The most a JSON answer (an error, the usage document) may take; the API's are a few hundred bytes. */
const MAX_JSON_ANSWER_BYTES = 1_048_576;

interface Answer<T> {
  response: Response;
  value: T;
  rateLimit: RateLimitInfo;
  attempts: number;
}

/** Reads the body of a successful answer into what the call returns, or throws a BodyProblem. */
type ReadAnswer<T> = (response: Response) => Promise<T>;

async function readUsage(response: Response): Promise<UsageResponse> {
  const body = await readBody(response, MAX_JSON_ANSWER_BYTES, 'a JSON answer');
  try {
    return JSON.parse(new TextDecoder().decode(body)) as UsageResponse;
  } catch {
    throw new BodyProblem('The usage answer is not JSON.');
  }
}

/** fetch in `manual` mode hands back a 3xx (Node, Workers) or an opaque redirect (elsewhere) instead of following it. */
function isRedirect(response: Response): boolean {
  // A string compare: the Workers types know no opaque redirect.
  return (response.type as string) === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

function redirectMessage(response: Response): string {
  const location = response.headers.get('Location');
  return (
    `The API answered ${response.status || 'a redirect'}${location ? ` with a redirect to ${location}` : ''}: the client follows no ` +
    'redirect, so the key and the image go to the base URL only. Check the base URL (https, the right host and path).'
  );
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('Retry-After');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** fetch's own message ("fetch failed") with its cause, which says what happened (ECONNREFUSED, ...). */
function describeNetworkError(err: unknown): string {
  const { message, cause } = (err ?? {}) as { message?: string; cause?: { code?: string; message?: string } };
  const why = cause?.code ?? cause?.message;
  return why ? `${message ?? err} (${why})` : String(message ?? err);
}

function errorFromAnswer(response: Response, body: Uint8Array, rateLimit: RateLimitInfo, attempts: number): SqueezeError {
  let parsed: { error?: unknown; message?: unknown; resetAt?: unknown } = {};
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    // Not the API's JSON (a proxy's page, say): reported as invalid_response below.
  }
  const details = {
    status: response.status,
    rateLimit,
    attempts,
    retryAfterSeconds: retryAfterSeconds(response.headers),
    resetAt: typeof parsed.resetAt === 'string' ? parsed.resetAt : undefined,
  };
  if (typeof parsed.error !== 'string') {
    return new SqueezeError('invalid_response', `HTTP ${response.status} without the API's JSON error body.`, details);
  }
  const message = typeof parsed.message === 'string' ? parsed.message : parsed.error;
  return new SqueezeError(parsed.error as ApiErrorCode, message, details);
}

/**
 * The client of the image-compression API. One instance per key; it is safe to share between concurrent
 * calls, which then also share what it knows of the rate limits (a 429 pauses all of them).
 */
export class Squeeze {
  readonly baseUrl: URL;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #retry: RetrySettings;
  readonly #userAgent: string;
  readonly #gate = new RateGate();

  constructor(options: SqueezeOptions) {
    this.#apiKey = checkApiKey(options?.apiKey);
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#retry = {
      maxRetries: options.maxRetries ?? 3,
      baseDelayMs: options.retryBaseDelayMs ?? 500,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 60,
    };
    this.#userAgent = `squeeze-client/${VERSION}${options.userAgent ? ` ${options.userAgent}` : ''}`;
  }

  /** The rate-limit windows of the latest answer (`minute`, `month`): what is left, and when it resets. */
  get rateLimit(): RateLimitInfo {
    return this.#gate.latest;
  }

  /** Milliseconds until a 429 or 503 pause of this client ends (0 when not paused). */
  get pausedFor(): number {
    return this.#gate.pausedFor;
  }

  /**
   * Compresses an image: bytes, a Blob or File (a file-backed Blob is streamed, and resent on retry), a
   * ReadableStream (streamed; sent once), a URL object or `{ url }` (the API fetches it). The input is
   * checked first (JPEG, PNG or WebP by its bytes, at most 10 MB, not animated): a refusal costs no request.
   * The answer is believed only when its bytes are an image of the format and length its headers give.
   */
  async compress(input: CompressInput, options: CompressOptions = {}): Promise<CompressResult> {
    const { signal, timeoutMs, allowWebp, allowAvif, ...apiOptions } = options;
    signal?.throwIfAborted();
    const source = await prepareSource(input, apiOptions);
    const allowed = [...(allowAvif ? ['image/avif'] : []), ...(allowWebp ? ['image/webp'] : [])];
    const accept = `${allowed.length ? allowed.join(', ') : 'image/jpeg, image/png'}, image/*;q=0.8`;
    const answer = await this.#call('v1/compress', 'POST', { signal, timeoutMs }, source, accept, readImageAnswer);
    const { image, format, originalSize, compressedSize }: ImageAnswer = answer.value;
    const h = answer.response.headers;
    return {
      image,
      format,
      contentType: h.get('Content-Type') ?? `image/${format}`,
      originalSize,
      compressedSize,
      savedBytes: originalSize - compressedSize,
      savingsPercent: Number(h.get('X-Savings-Percent') ?? 0),
      notes: (h.get('X-Compression-Notes') ?? '').split(',').map((n) => n.trim()).filter(Boolean),
      ...readCrop(h.get('X-Crop')),
      rateLimit: answer.rateLimit,
      attempts: answer.attempts,
    };
  }

  /** This month's usage of the key's account: plan, count against the limit, reset time, bytes saved. */
  async usage(options: CallOptions = {}): Promise<Usage> {
    options.signal?.throwIfAborted();
    const answer = await this.#call('v1/usage', 'GET', options, undefined, 'application/json', readUsage);
    return { ...answer.value, rateLimit: answer.rateLimit };
  }

  /** One call: attempts until an answer is final, retrying as retryDelayMs says. */
  async #call<T>(path: string, method: string, call: CallOptions, source: RequestSource | undefined, accept: string, read: ReadAnswer<T>): Promise<Answer<T>> {
    let staleSocketRetried = false;
    for (let attempt = 1; ; attempt++) {
      await this.#gate.wait(call.signal);
      const timeout = AbortSignal.timeout(call.timeoutMs ?? this.#timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      let error: SqueezeError;
      let staleSocket = false;
      try {
        const outcome = await this.#attempt(path, method, source, accept, signal, attempt, read);
        if ('value' in outcome) return outcome;
        error = outcome.error;
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason;
        if (source?.failure) throw source.failure;
        staleSocket = isStaleSocket(err);
        error = err instanceof SqueezeError ? err : timeout.aborted
          ? new SqueezeError('timeout', `No answer within ${call.timeoutMs ?? this.#timeoutMs} ms.`, { status: 0, attempts: attempt, cause: err })
          : new SqueezeError('network_error', `The request failed: ${describeNetworkError(err)}.`, { status: 0, attempts: attempt, cause: err });
      }
      let delay = retryDelayMs(error, attempt, this.#retry);
      if (staleSocket && !staleSocketRetried && delay !== null) {
        staleSocketRetried = true;
        delay = 0;
      }
      if (delay !== null && error.retryAfterSeconds !== undefined && (error.code === 'rate_limited' || error.status === 503)) {
        this.#gate.pause(delay);
      }
      if (delay === null || (source && !source.resendable())) throw error;
      await sleep(delay, call.signal);
    }
  }

  /**
   * One request, to the base URL only (redirects are not followed), and its answer read within a cap:
   * the value `read` makes of a success, or the error the answer gives. A redirect or a body that is not
   * what it should be throws `invalid_response`.
   */
  async #attempt<T>(
    path: string,
    method: string,
    source: RequestSource | undefined,
    accept: string,
    signal: AbortSignal,
    attempt: number,
    read: ReadAnswer<T>,
  ): Promise<Answer<T> | { error: SqueezeError }> {
    const headers: Record<string, string> = { 'X-API-Key': this.#apiKey, Accept: accept, 'User-Agent': this.#userAgent };
    const init: RequestInit & { duplex?: 'half' } = { method, headers, signal, redirect: 'manual' };
    if (source) {
      const { body, contentType, duplex } = source.body();
      init.body = body;
      if (contentType) headers['Content-Type'] = contentType;
      if (duplex) init.duplex = duplex;
    }
    const response = await this.#fetch(new URL(path, this.baseUrl), init);
    const rateLimit = parseRateLimit(response.headers);
    if (Object.keys(rateLimit).length) this.#gate.latest = rateLimit;
    const invalid = (message: string) => new SqueezeError('invalid_response', message, { status: response.status, rateLimit, attempts: attempt });
    if (isRedirect(response)) {
      await response.body?.cancel();
      throw invalid(redirectMessage(response));
    }
    try {
      if (response.ok) {
        return { response, value: await read(response), rateLimit, attempts: attempt };
      }
      const body = await readBody(response, MAX_JSON_ANSWER_BYTES, 'a JSON answer');
      return { error: errorFromAnswer(response, body, rateLimit, attempt) };
    } catch (err) {
      if (!(err instanceof BodyProblem)) throw err;
      if (!response.bodyUsed) await response.body?.cancel();
      throw invalid(err.message);
    }
  }
}
