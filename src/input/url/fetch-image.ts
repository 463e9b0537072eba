import { ApiError } from '../../errors/api-error';
import { detectFormat } from '../../image/header/detect-format';
import { admission, type ByteClaim } from '../../limits/admission';
import { COMPRESS_MAX_BYTES } from '../../limits/sizes';
import { Deadline } from './deadline';
import { discardBody, readBodyWithLimit } from './read-body';
import { assertPublicHost, validateUrlSyntax } from './validate-url';
import { TransientFailure, withRetries } from './with-retries';

/** The interface's "URL fetch timeout", for the whole fetch: DNS, redirects, retries and body. */
export const URL_FETCH_DEADLINE_MS = 5000;
/** decisions.md "URL input": at most 5 redirect hops, each checked like the first url. */
const MAX_REDIRECTS = 5;

/**
 * Names the service to the sites it fetches from and asks for images only. Nothing else is sent:
 * no cookies, no Authorization, nothing from the caller's request.
 */
const REQUEST_HEADERS = {
  'User-Agent': 'SqueezeEdge/1.0 (image compression API)',
  Accept: 'image/*',
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface FetchImageOptions {
  /**
   * The request's claim on the isolate's bytes: the body is counted in it as it arrives, and stays so
   * after. Without one (unit tests) the fetch counts in a claim of its own, given back when it ends.
   */
  claim?: ByteClaim;
  /** Tests only: a shorter budget than the interface's 5000 ms. */
  deadlineMs?: number;
}

type Hop = { body: Uint8Array } | { location: string };

/**
 * Fetches the image behind a user-supplied url, defending against SSRF: each hop is checked
 * (validateUrlSyntax, then assertPublicHost's DNS lookup) before it is fetched, and redirects are
 * followed by hand so no hop escapes the check. Returns the body, which starts like a JPEG, PNG,
 * WebP or HEIF (HEIC, AVIF) file. Throws ApiError: url_invalid, url_blocked, url_invalid_content (400), url_too_large (413),
 * url_fetch_failed (502), url_timeout (504).
 */
export async function fetchImageFromUrl(url: string, options: FetchImageOptions = {}): Promise<Uint8Array> {
  let target = validateUrlSyntax(url);
  const deadline = new Deadline(options.deadlineMs ?? URL_FETCH_DEADLINE_MS);
  const claim = options.claim ?? admission.claim();
  try {
    for (let redirects = 0; ; redirects++) {
      await assertPublicHost(target, deadline);
      const hop = await withRetries('Fetching the url', deadline, () => fetchOnce(target, deadline, claim));
      if ('body' in hop) {
        // Magic bytes only, whatever the Content-Type says (servers label HTML error pages image/png);
        // the pipeline then parses the whole header like any upload's.
        if (!detectFormat(hop.body)) {
          throw new ApiError('url_invalid_content', 'The url did not return a JPEG, PNG, WebP, AVIF or HEIC image.');
        }
        return hop.body;
      }
      if (redirects === MAX_REDIRECTS) {
        throw new ApiError('url_fetch_failed', `The url redirected more than ${MAX_REDIRECTS} times.`);
      }
      target = redirectTarget(target, hop.location);
    }
  } finally {
    deadline.end();
    if (!options.claim) claim.release();
  }
}

/** One request to one hop: a redirect to follow, a body, or an error (TransientFailure is retried). */
async function fetchOnce(url: URL, deadline: Deadline, claim: ByteClaim): Promise<Hop> {
  const response = await deadline.race(
    fetch(url.href, { method: 'GET', headers: REQUEST_HEADERS, redirect: 'manual', signal: deadline.signal }),
  );
  const { status } = response;
  const location = response.headers.get('location');
  if (REDIRECT_STATUSES.has(status) && location !== null) {
    discardBody(response);
    return { location };
  }
  if (status === 429 || status >= 500) {
    discardBody(response);
    throw new TransientFailure(`HTTP ${status}`);
  }
  if (status < 200 || status > 299) {
    discardBody(response);
    throw new ApiError('url_fetch_failed', `The url answered HTTP ${status}.`);
  }
  return { body: await readBodyWithLimit(response, COMPRESS_MAX_BYTES, deadline, claim) };
}

/** The next hop, held to the same rules as the url the caller gave (the message says it was a redirect). */
function redirectTarget(from: URL, location: string): URL {
  let next: string;
  try {
    next = new URL(location, from).href;
  } catch {
    throw new ApiError('url_fetch_failed', 'The url redirected to an invalid location.');
  }
  try {
    return validateUrlSyntax(next);
  } catch (error) {
    throw error instanceof ApiError
      ? new ApiError(error.code, `The url redirected to a refused location: ${error.message}`)
      : error;
  }
}
