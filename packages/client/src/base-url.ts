/** Loopback hosts, the only ones a key may be sent to over plain http. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The API's base URL, checked: https, or plain http to a loopback address only (a local `wrangler dev`), since
 * every request carries the API key. Throws a TypeError that says why.
 */
export function checkBaseUrl(baseUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`The base URL ${JSON.stringify(String(baseUrl))} is not a URL.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new TypeError(`The base URL must be https (plain http only for loopback addresses): ${url.href}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError(`The base URL must have no credentials, query or fragment: ${url.href}`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
