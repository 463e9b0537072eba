/** Response headers of the contract (interface.md and decisions.md), as OpenAPI header objects. */
const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;

export const HEADERS = {
  'X-Original-Size': { description: 'Size of the input image in bytes (decoded bytes for base64 input).', schema: integer },
  'X-Compressed-Size': { description: 'Size of the returned image in bytes.', schema: integer },
  'X-Savings-Percent': {
    description: 'round(100 × (original − compressed) / original), halves away from zero; negative only when a resize or format change made the output larger.',
    schema: integer,
  },
  'X-Output-Format': {
    description: 'Format of the returned image: `gif` only for a GIF returned with its pixels untouched (`original-returned`).',
    schema: { type: 'string', enum: ['jpeg', 'png', 'webp', 'avif', 'gif'] },
  },
  'X-Compression-Notes': {
    description:
      'What was done, comma-separated, when anything was: `orientation-applied` (the EXIF orientation was applied to the pixels; the output has no orientation tag), `cropped` (part of the image was cut off: `X-Crop` says which window was kept), `resized` (scaled to fit the box of width/height or maxWidth/maxHeight, which refer to the image as displayed), `padded` (`fit=pad` added margins of `background`), `converted` (format change), `alpha-flattened` (transparency composited onto `background`, white by default, for JPEG), `icc-kept` (the colour profile was carried over), `lossless-recoded` (a JPEG comes back with its own DCT coefficients written again, progressive with optimised Huffman tables: the very same pixels in fewer bytes, when re-encoding would not have been smaller or kept every quantisation step of the input), `original-returned` (re-encoding would not have been smaller, nor re-coding: the input comes back with its metadata stripped; an animated GIF asked for with `auto` and WebP not accepted comes back so, its comments and application data other than the loop count stripped), `metadata-kept` (metadata `preserve` asked for is in the output), `metadata-truncated` (some of it was dropped: what is kept is capped at 64 KiB, the longest values going first), `format-kept-for-look` (`auto` kept the input\'s format: an accepted WebP or AVIF could not have the look of the input-format candidate within 2 SSIMULACRA2 points, e.g. a JPEG re-coded losslessly or re-quantised on its own steps), `first-frame` (an animated input, made of its first frame: the output is not WebP, or `anim=false`).',
    schema: text,
  },
  'X-Crop': {
    description:
      'When the image was cut (`fit` cover, crop or aspect-crop): `left,top,width,height`, the window taken from the source as displayed (after its EXIF rotation), in its pixels, so other renditions can be cut the same way.',
    schema: text,
  },
  'X-Demo-Remaining': {
    description: "Demo requests this client has left in the current hour: the smaller of its own and its network's.",
    schema: integer,
  },
  Vary: { description: '`Accept` when format is `auto`: the output format may depend on that header.', schema: text },
  'RateLimit-Policy': {
    description:
      'IETF draft field: every window as `"name";q=<quota>;w=<seconds>` (minute and month for a key; for the demo, hour per client and network per IPv4 /24 or IPv6 /48).',
    schema: text,
  },
  RateLimit: { description: 'IETF draft field: every window as `"name";r=<remaining>;t=<seconds to reset>`.', schema: text },
  'RateLimit-Limit': { description: 'Older form: quota of the first window (per minute for a key, per hour for the demo).', schema: integer },
  'RateLimit-Remaining': { description: 'Older form: requests left in the first window.', schema: integer },
  'RateLimit-Reset': { description: 'Older form: seconds until the first window frees a request.', schema: integer },
  'Retry-After': { description: 'Seconds to wait before trying again (every 429, and 503 `service_unavailable`).', schema: integer },
  'Server-Timing': {
    description:
      'Where the answer\'s time went, on every answer of the API, errors included: one `d1` or `do` entry per round trip to shared state made before the answer (D1, or a Durable Object), in order, with its `dur` in milliseconds and a `desc` naming the call (e.g. `do;dur=3.2;desc="ACCOUNT_GATE.admit"`), then the stages the request reached: `auth` (the key to its account), `limits` (the account\'s key state, minute window and quota slot, or the demo\'s windows), `fetch` (an image at a `url`), `queue` (waiting for the engine behind other requests, in coarse steps: 0 under 10 ms, then 10, 20, 50, 100, 200, 500 ms, 1 s and so on), `engine` (the image jobs), and `total` (with the wait as shown). A keyed request whose key the serving isolate has seen makes one round trip before its answer; the key\'s lookup in D1 (`d1;desc="SELECT api_keys"`, made only by an isolate that has not seen the key) is listed either way, with `dur=0` when it was not made.',
    schema: text,
  },
} as const;

export type HeaderName = keyof typeof HEADERS;

export function headerRefs(names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

export const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
export const SIZE_HEADERS: HeaderName[] = ['X-Original-Size', 'X-Compressed-Size', 'X-Savings-Percent', 'X-Output-Format', 'X-Compression-Notes'];
