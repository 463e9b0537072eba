import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { readFields, type ParsedBody } from '../../src/input/read-fields';
import { admission, type ByteClaim } from '../../src/limits/admission';
import { randomBytes } from '../helpers/crafted';
import { toBase64 } from '../helpers/api';
import { apiErrorOf } from '../helpers/errors';

const encoder = new TextEncoder();
const MAX_IMAGE = 1_000_000;
const tooLarge = () => new ApiError('file_too_large', 'too large');

/** A request whose body arrives in the given pieces (a stream of our own: the runtime's chunking is not ours to choose). */
function requestIn(pieces: Uint8Array[], contentType: string, contentLength?: number): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (contentLength !== undefined) headers['Content-Length'] = String(contentLength);
  return new Request('http://api.test/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

/** `bytes` cut at `cuts` (sorted offsets). */
function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  return [0, ...cuts].map((from, i) => bytes.slice(from, cuts[i] ?? bytes.length));
}

async function read(pieces: Uint8Array[], contentType: string, options: { contentLength?: number; claim?: ByteClaim } = {}): Promise<ParsedBody> {
  const claim = options.claim ?? admission.claim();
  try {
    return await readFields(requestIn(pieces, contentType, options.contentLength), { multipartImageField: 'file', maxImageBytes: MAX_IMAGE, tooLarge, claim });
  } finally {
    if (!options.claim) claim.release();
  }
}

const BOUNDARY = 'xYz--boundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** A file that holds what a parser could mistake for a delimiter: CRLFs and the delimiter's start without its end. */
const TRICKY_FILE = encoder.encode(`\r\n--xYz--boundar\r\r\n-\r\n--xYz-\r\n\r\nend\r`);

function multipartBody(file: Uint8Array, fields: Record<string, string> = { quality: '75', format: 'webp' }): Uint8Array {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const head = `preamble to ignore\r\n${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  return new Uint8Array([...encoder.encode(head), ...file, ...encoder.encode(`\r\n--${BOUNDARY}--\r\nepilogue to ignore`)]);
}

describe('multipart bodies, parsed as they arrive', () => {
  it('give the same fields wherever the body is cut, delimiters and headers included', async () => {
    const body = multipartBody(TRICKY_FILE);
    for (let at = 1; at < body.length; at++) {
      const { form, fields } = await read(cut(body, [at]), MULTIPART);
      expect(form).toBe('multipart');
      expect(fields, `cut at ${at}`).toEqual({ quality: '75', format: 'webp', file: TRICKY_FILE });
    }
    expect((await read(cut(body, Array.from({ length: body.length - 1 }, (_, i) => i + 1)), MULTIPART)).fields.file).toEqual(TRICKY_FILE);
  });

  it('hold the file once, counted as it arrives, in one buffer of its own size', async () => {
    const file = randomBytes(300_000, 1);
    const body = multipartBody(file);
    const claim = admission.claim();
    const { fields } = await read(cut(body, [1000, 150_000]), MULTIPART, { contentLength: body.length, claim });
    expect(fields.file).toEqual(file);
    expect((fields.file as Uint8Array).buffer.byteLength).toBe(file.length);
    expect(claim.bytes, 'what the request holds once read: the image, not the body it announced').toBe(file.length);
    claim.release();
  });

  it('take a quoted boundary, and spaces after a delimiter', async () => {
    const body = encoder.encode(`--b c\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nhi\r\n--b c  \r\nContent-Disposition: form-data; name=quality\r\n\r\n5\r\n--b c--`);
    expect((await read([body], 'multipart/form-data; boundary="b c"')).fields).toEqual({ file: encoder.encode('hi'), quality: '5' });
  });

  it.each([
    ['no final delimiter', multipartBody(TRICKY_FILE).slice(0, -30), /malformed/],
    ['a part without Content-Disposition', encoder.encode(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`), /malformed/],
    ['a part without headers', encoder.encode(`--${BOUNDARY}\r\n\r\nx\r\n--${BOUNDARY}--`), /malformed/],
    ['a part without a name', encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; filename="a"\r\n\r\nx\r\n--${BOUNDARY}--`), /malformed/],
    ['garbage after a delimiter', encoder.encode(`--${BOUNDARY}xx\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`), /malformed/],
    ['headers of more than 8 KiB', encoder.encode(`--${BOUNDARY}\r\nX-Long: ${'a'.repeat(9000)}\r\n\r\nx\r\n--${BOUNDARY}--`), /malformed/],
    ['the image as a text field', encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--${BOUNDARY}--`), /^file: expected a file upload/],
    ['a field given twice', encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="q"\r\n\r\n1\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="q"\r\n\r\n2\r\n--${BOUNDARY}--`), /^q: given more than once/],
    ['fields of more than 64 KiB', multipartBody(TRICKY_FILE, { a: 'x'.repeat(40_000), b: 'y'.repeat(40_000) }), /take more than 64 KiB/],
  ])('refuse %s with 400', async (_, body, message) => {
    const error = await apiErrorOf(read([body], MULTIPART));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(message);
  });

  it.each(['multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary=${'b'.repeat(71)}`])('refuse a bad boundary (%s) before reading', async (type) => {
    expect((await apiErrorOf(read([multipartBody(TRICKY_FILE)], type))).message).toMatch(/malformed/);
  });

  it('refuse an image over the limit with the caller\'s 413, holding nothing after', async () => {
    const claim = admission.claim();
    const error = await apiErrorOf(read(cut(multipartBody(new Uint8Array(MAX_IMAGE + 1)), [70_000]), MULTIPART, { claim }));
    expect(error.code).toBe('file_too_large');
    expect(claim.bytes).toBe(0);
  });
});

const JSON_TYPE = 'application/json';

describe('JSON bodies, parsed as they arrive', () => {
  const image = randomBytes(3000, 2);
  const base64 = toBase64(image);
  const spellings: Array<[string, string]> = [
    ['plain', JSON.stringify({ quality: 70, image: base64, format: 'png' })],
    ['a data URI', JSON.stringify({ image: `data:image/png;base64,${base64}` })],
    ['URL-safe, unpadded', JSON.stringify({ image: base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '') })],
    ['escaped slashes, as PHP writes them', JSON.stringify({ image: base64 }).replaceAll('/', '\\/')],
    ['wrapped in lines of 76, escaped', JSON.stringify({ image: base64.replace(/.{76}/g, '$&\n') })],
    ['\\u escapes', JSON.stringify({ image: base64 }).replace(/A/g, '\\u0041')],
    ['a byte order mark and whitespace', `\ufeff \n{ "image" :\t"${base64}" ,\r\n "quality" : 70 } \n`],
  ];

  it.each(spellings)('decode the image straight into its buffer wherever the body is cut: %s', async (_, json) => {
    const body = encoder.encode(json);
    for (let at = 1; at < body.length; at += 97) {
      const { form, fields } = await read(cut(body, [at, Math.min(body.length - 1, at + 5)]), JSON_TYPE);
      expect(form).toBe('json');
      expect(fields.image, `cut at ${at}`).toEqual(image);
    }
  });

  it('keep the other members as JSON.parse reads them', async () => {
    const json = `{"quality": 7e1, "format": "p\\u006eg", "maxWidth": 10, "x": [1, {"y": "]}"}], "n": null, "t": true}`;
    expect((await read(cut(encoder.encode(json), [20, 21, 50]), JSON_TYPE)).fields).toEqual({ quality: 70, format: 'png', maxWidth: 10, x: [1, { y: ']}' }], n: null, t: true });
  });

  it('hold a base64 image as its bytes only, counted as they are decoded', async () => {
    const big = randomBytes(300_000, 3);
    const body = encoder.encode(JSON.stringify({ image: toBase64(big) }));
    const claim = admission.claim();
    const { fields } = await read(cut(body, [100_000, 200_000]), JSON_TYPE, { contentLength: body.length, claim });
    expect(fields.image).toEqual(big);
    expect(claim.bytes).toBe(big.length);
    claim.release();
  });

  it('leave an image that is not a string to validation', async () => {
    expect((await read([encoder.encode('{"image": 5}')], JSON_TYPE)).fields).toEqual({ image: 5 });
  });

  it.each([
    ['a string', '"image"', /must be an object/],
    ['null', 'null', /must be an object/],
    ['an array', '[1, 2]', /must be an object/],
    ['cut off', '{"image": "QUJD', /not valid UTF-8 JSON/],
    ['cut off after a member', '{"quality": 5,', /not valid UTF-8 JSON/],
    ['empty', '', /not valid UTF-8 JSON/],
    ['text after the object', '{"quality": 5} x', /not valid UTF-8 JSON/],
    ['a bad literal', '{"quality": tru}', /not valid UTF-8 JSON/],
    ['a missing colon', '{"quality" 5}', /not valid UTF-8 JSON/],
    ['a raw newline in the image', '{"image": "QUJD\nQUJD"}', /not valid UTF-8 JSON/],
    ['a bad escape in the image', '{"image": "QUJD\\x"}', /not valid UTF-8 JSON/],
    ['a key given twice', '{"quality": 5, "quality": 6}', /^quality: given more than once/],
    ['the image given twice', `{"image": "QUJD", "image": "QUJD"}`, /^image: given more than once/],
    ['both base64 alphabets', '{"image": "ab+c-d"}', /expected base64/],
    ['base64 after its padding', '{"image": "QQ==QUJD"}', /expected base64/],
    ['a character that is not base64', '{"image": "QU*D"}', /expected base64/],
    ['an escaped quote in the image (a character of it, not its end)', '{"image": "QU\\"JD"}', /expected base64/],
    ['a lone last character', '{"image": "QUJDR"}', /expected base64/],
    ['fields of more than 64 KiB', JSON.stringify({ format: 'x'.repeat(70_000) }), /take more than 64 KiB/],
  ])('refuse %s with 400', async (_, json, message) => {
    const error = await apiErrorOf(read([encoder.encode(json)], JSON_TYPE));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(message);
  });

  it('refuse base64 padding that the next piece continues', async () => {
    const error = await apiErrorOf(read(cut(encoder.encode('{"image": "QQ==QUJD"}'), [15]), JSON_TYPE));
    expect(error.message).toMatch(/expected base64/);
  });

  it('refuse invalid UTF-8 in a member with 400', async () => {
    const error = await apiErrorOf(read([new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])], JSON_TYPE));
    expect(error.message).toMatch(/not valid UTF-8 JSON/);
  });

  it("refuse a decoded image over the limit with the caller's 413", async () => {
    const body = encoder.encode(JSON.stringify({ image: toBase64(new Uint8Array(MAX_IMAGE + 1)) }));
    expect((await apiErrorOf(read([body], JSON_TYPE))).code).toBe('file_too_large');
  });
});

describe('any body', () => {
  it('is refused by its type before it is read', async () => {
    for (const type of ['', 'text/plain', 'application/x-www-form-urlencoded']) {
      expect((await apiErrorOf(read([encoder.encode('{}')], type))).message).toMatch(/Content-Type/);
    }
  });

  it('is refused with 413 when its Content-Length is over the limit', async () => {
    expect((await apiErrorOf(read([encoder.encode('{}')], JSON_TYPE, { contentLength: 2_000_000 }))).code).toBe('file_too_large');
  });

  it('is refused with 503, and holds nothing, when the isolate cannot hold what it announces', async () => {
    const held = admission.claim();
    held.grow(admission.maxBytes - 500_000);
    const claim = admission.claim();
    const error = await apiErrorOf(read([multipartBody(TRICKY_FILE)], MULTIPART, { contentLength: 900_000, claim }));
    held.release();
    expect(error.code).toBe('service_unavailable');
    expect(claim.bytes).toBe(0);
  });
});
