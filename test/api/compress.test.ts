import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, compress, createKey, errorBody, fixture, form, toBase64 } from '../helpers/api';
import { stripMetadata } from '../../src/image/container';
import { referenceJpegPixels, referencePixels } from '../engine/helpers';
import { responseImage } from '../helpers/images';
import { expectFlattenedOntoWhite } from '../helpers/pixels';
import { countingStream, fakeNetwork, publicHost } from '../url/fake-network';
import { XMP_PACKET, cat, contains, exifApp1, indexOf, jpegSegment, jpegSosOffset, pngChunk, riff, riffChunk, riffChunks, text, tiffWithGps, vp8x } from '../container/synth';

const FORMATS = ['jpeg', 'png', 'webp'] as const;
const SOURCES = { jpeg: 'engine/testorig.jpg', png: 'api/chelsea.png', webp: 'engine/test.webp' } as const;
const MIME = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST /v1/compress: the image', () => {
  for (const from of FORMATS) {
    for (const to of FORMATS) {
      it(`converts ${from} to ${to} with every header of the contract`, async () => {
        const input = await fixture(SOURCES[from]);
        const response = await compress(form('file', input, { format: to, quality: '75' }));
        expect(response.status).toBe(200);
        expect(response.headers.get('Content-Type')).toBe(MIME[to]);
        expect(response.headers.get('X-Output-Format')).toBe(to);
        expect(response.headers.get('Vary')).toBeNull();
        const { bytes, header } = await responseImage(response);
        expect(header.format).toBe(to);
        const original = Number(response.headers.get('X-Original-Size'));
        expect(original).toBe(input.length);
        expect(Number(response.headers.get('X-Compressed-Size'))).toBe(bytes.length);
        // The rounding of halves is pinned in savings-percent.test.ts.
        expect(Math.abs(Number(response.headers.get('X-Savings-Percent')) - (100 * (original - bytes.length)) / original)).toBeLessThanOrEqual(0.5);
      });
    }
  }

  it('takes JSON base64, with and without a data URI prefix', async () => {
    const input = await fixture('api/chelsea.png');
    for (const image of [toBase64(input), `data:image/png;base64,${toBase64(input)}`]) {
      const response = await compress(JSON.stringify({ image, format: 'webp', quality: 60 }));
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('X-Original-Size'))).toBe(input.length);
      expect((await responseImage(response)).header.format).toBe('webp');
    }
  });

  it('takes base64 in the URL-safe alphabet, unpadded or broken into lines; refuses the two alphabets mixed', async () => {
    const input = await fixture('api/chelsea.png');
    const standard = toBase64(input);
    const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const lines = standard.replace(/.{76}/g, '$&\r\n');
    for (const image of [urlSafe, lines]) {
      const response = await compress(JSON.stringify({ image, format: 'png' }));
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('X-Original-Size'))).toBe(input.length);
    }
    const mixed = await compress(JSON.stringify({ image: `${standard.slice(0, 100)}-_${standard.slice(102)}` }));
    expect(mixed.status).toBe(400);
    expect((await errorBody(mixed)).error).toBe('bad_request');
  });

  it('scales down to fit maxWidth and maxHeight, keeping the aspect ratio', async () => {
    const input = await fixture('api/chelsea.png'); // 451 x 300
    const cases = [
      [{ maxWidth: '200' }, 200, 133],
      [{ maxHeight: '100' }, 150, 100],
      [{ maxWidth: '200', maxHeight: '50' }, 75, 50],
    ] as const;
    for (const [fields, width, height] of cases) {
      const response = await compress(form('file', input, fields));
      expect(response.status).toBe(200);
      const { header } = await responseImage(response);
      expect([header.width, header.height]).toEqual([width, height]);
    }
  });

  it('never upscales', async () => {
    const input = await fixture('api/chelsea.png');
    const response = await compress(form('file', input, { maxWidth: '4000', maxHeight: '4000', format: 'jpeg' }));
    expect(response.status).toBe(200);
    const { header } = await responseImage(response);
    expect([header.width, header.height]).toEqual([451, 300]);
  });

  it('auto keeps the input format unless Accept explicitly lists image/webp and WebP is smaller', async () => {
    const input = await fixture('api/chelsea.png');
    const plain = await compress(input, {}, { Accept: '*/*' });
    expect(plain.headers.get('X-Output-Format')).toBe('png');
    expect(plain.headers.get('Vary')).toBe('Accept');
    await plain.arrayBuffer();
    const webp = await compress(input, {}, { Accept: 'image/webp,*/*;q=0.8' });
    expect(webp.headers.get('X-Output-Format')).toBe('webp');
    expect(webp.headers.get('Content-Type')).toBe('image/webp');
    expect(webp.headers.get('Vary')).toBe('Accept');
    await webp.arrayBuffer();
    const refused = await compress(input, {}, { Accept: 'image/webp;q=0' });
    expect(refused.headers.get('X-Output-Format')).toBe('png');
    await refused.arrayBuffer();
  });

  it('auto with image/webp accepted keeps the input format when its WebP would be larger', async () => {
    const input = await fixture('engine/pngsuite/basn3p01.png'); // 32x32, two colours: a few bytes of palette PNG
    const asWebp = await compress(input, { format: 'webp' });
    const webpSize = (await responseImage(asWebp)).bytes.length;
    const auto = await compress(input, {}, { Accept: 'image/webp,*/*' });
    expect(auto.headers.get('X-Output-Format')).toBe('png');
    const { bytes } = await responseImage(auto);
    expect(bytes.length).toBeLessThan(webpSize);
  });

  it('sends Vary: Accept on every answer to format auto: multipart, base64, a url, the original returned and the demo', async () => {
    const png = await fixture('api/chelsea.png');
    const url = 'https://images.example.com/chelsea.png';
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [url]: () => new Response(png) } });
    const answers: Array<[string, Response, string?]> = [
      ['multipart', await compress(png)],
      ['base64', await compress(JSON.stringify({ image: toBase64(png) }))],
      ['url', await compress(JSON.stringify({ url }))],
      ['original returned', await compress(await fixture('engine/pngsuite/basn0g08.png'), { quality: '100' }), 'original-returned'],
      ['demo', await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.18.250.1' }, body: form('image', png) })],
    ];
    for (const [name, response, notes] of answers) {
      expect(response.status, name).toBe(200);
      expect(response.headers.get('Vary'), name).toBe('Accept');
      if (notes) expect(response.headers.get('X-Compression-Notes'), name).toBe(notes);
      await response.arrayBuffer();
    }
    // Not when the format is named: the answer does not depend on Accept.
    const named = await compress(JSON.stringify({ image: toBase64(png), format: 'png' }));
    expect(named.headers.get('Vary')).toBeNull();
  });

  it('never returns a larger file: an already small image comes back as the original, stripped', async () => {
    const input = await fixture('engine/pngsuite/basn0g08.png'); // 138 bytes, already minimal
    const response = await compress(input, { quality: '100' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Compression-Notes')).toBe('original-returned');
    const { bytes } = await responseImage(response);
    expect(bytes).toEqual(stripMetadata(input, 'png'));
    expect(Number(response.headers.get('X-Savings-Percent'))).toBeGreaterThanOrEqual(0);
  });

  it('returns the original, metadata stripped, when re-encoding would be larger', async () => {
    // A 4:4:4 JPEG at quality 90 that libjpeg already wrote progressive: jpegli at 100 grows it, and re-coding its
    // coefficients does not shrink it.
    const input = await fixture('engine/444-progressive.jpg');
    const response = await compress(input, { quality: '100' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Compression-Notes')).toBe('original-returned');
    const { bytes } = await responseImage(response);
    expect(bytes).toEqual(stripMetadata(input, 'jpeg'));
    expect(Number(response.headers.get('X-Compressed-Size'))).toBeLessThanOrEqual(input.length);
  });

  it('never-larger strips metadata everywhere in the file: EXIF with GPS and comments between scans and before EOI', async () => {
    const secrets = () => [exifApp1(tiffWithGps(1)), jpegSegment(0xfe, text('shot at Secret Street')), jpegSegment(0xed, text('Photoshop 3.0\0IPTC'))];
    // The original comes back from the progressive file; the baseline one comes back re-coded, as smaller.
    const notes: Record<string, string> = { 'engine/444-progressive.jpg': 'original-returned', 'engine/444.jpg': 'lossless-recoded' };
    for (const name of Object.keys(notes)) {
      const clean = await fixture(name);
      const firstScan = jpegSosOffset(clean);
      const secondScan = indexOf(clean.subarray(firstScan + 2), Uint8Array.of(0xff, 0xda));
      const eoi = clean.length - 2;
      const input = secondScan < 0
        ? cat(clean.subarray(0, eoi), ...secrets(), clean.subarray(eoi))
        : cat(clean.subarray(0, firstScan + 2 + secondScan), ...secrets(), clean.subarray(firstScan + 2 + secondScan, eoi), ...secrets(), clean.subarray(eoi));
      const response = await compress(form('file', input, { quality: '100' }));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('X-Compression-Notes'), name).toBe(notes[name]);
      const { bytes } = await responseImage(response);
      for (const secret of ['SECRET-CAMERA', 'Exif\0\0', 'Secret Street', 'IPTC']) expect(contains(bytes, secret), `${name}: ${secret}`).toBe(false);
      const reference = await compress(form('file', clean, { quality: '100' }));
      expect(bytes, name).toEqual((await responseImage(reference)).bytes);
    }
  });

  it('never-larger strips PNG chunks after IDAT and WebP chunks after the image data too', async () => {
    const png = await fixture('engine/pngsuite/basn2c08.png'); // re-encoding makes it larger even with the chunks below
    const iend = png.length - 12;
    const pngSecrets = cat(pngChunk('tEXt', text('Location\0Secret Street')), pngChunk('eXIf', tiffWithGps(1)));
    const [vp8] = riffChunks(await fixture('engine/test.webp'));
    const webp = (...after: Uint8Array[]) => riff(riffChunk('VP8X', vp8x(0x08 | 0x04, 128, 128)), riffChunk('VP8 ', vp8!.data), ...after);
    const webpSecrets = [riffChunk('EXIF', tiffWithGps(1)), riffChunk('XMP ', XMP_PACKET), riffChunk('ICMT', text('Secret Street'))];
    const cases = [
      ['png', cat(png.subarray(0, iend), pngSecrets, png.subarray(iend)), png],
      ['webp', webp(...webpSecrets), webp()],
    ] as const;
    for (const [format, input, clean] of cases) {
      const response = await compress(form('file', input, { quality: '100' }));
      expect(response.status, format).toBe(200);
      expect(response.headers.get('X-Compression-Notes'), format).toBe('original-returned');
      const { bytes } = await responseImage(response);
      for (const secret of ['SECRET-CAMERA', 'Secret Street', 'GPSLatitude']) expect(contains(bytes, secret), `${format}: ${secret}`).toBe(false);
      const reference = await compress(form('file', clean, { quality: '100' }));
      expect(bytes, format).toEqual((await responseImage(reference)).bytes);
    }
  });

  it('a format change that grows the file is still honoured, with negative savings', async () => {
    const input = await fixture('engine/pngsuite/basn0g08.png');
    const response = await compress(form('file', input, { format: 'jpeg', quality: '100' }));
    expect(response.status).toBe(200);
    const { bytes } = await responseImage(response);
    expect(bytes.length).toBeGreaterThan(input.length);
    expect(Number(response.headers.get('X-Savings-Percent'))).toBeLessThan(0);
  });

  it('flattens transparency onto white for JPEG output', async () => {
    const input = await fixture('engine/pngsuite/basn6a08.png');
    const response = await compress(input, { format: 'jpeg', quality: '100' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Compression-Notes')).toBe('converted, alpha-flattened');
    const { bytes, header } = await responseImage(response);
    expect(header.format).toBe('jpeg');
    expect(header.hasAlpha).toBe(false);
    expectFlattenedOntoWhite(await referencePixels(input, 'png'), await referenceJpegPixels(bytes));
  });
});

describe('POST /v1/compress: request errors', () => {
  const png = () => fixture('engine/pngsuite/z00n2c08.png');
  const cases: Array<[string, () => Promise<FormData | string>, string]> = [
    ['no image at all (JSON)', async () => JSON.stringify({ quality: 80 }), 'bad_request'],
    ['no file part (multipart)', async () => { const f = new FormData(); f.append('quality', '80'); return f; }, 'bad_request'],
    ['quality 0', async () => form('file', await png(), { quality: '0' }), 'bad_request'],
    ['quality 101', async () => JSON.stringify({ image: toBase64(await png()), quality: 101 }), 'bad_request'],
    ['quality not an integer', async () => JSON.stringify({ image: toBase64(await png()), quality: 50.5 }), 'bad_request'],
    ['quality as text in multipart', async () => form('file', await png(), { quality: 'high' }), 'bad_request'],
    ['an unknown format', async () => form('file', await png(), { format: 'gif' }), 'bad_request'],
    ['maxWidth 0', async () => form('file', await png(), { maxWidth: '0' }), 'bad_request'],
    ['maxHeight negative', async () => JSON.stringify({ image: toBase64(await png()), maxHeight: -5 }), 'bad_request'],
    ['an unknown field', async () => JSON.stringify({ image: toBase64(await png()), qualty: 80 }), 'bad_request'],
    ['file given as text', async () => { const f = new FormData(); f.append('file', 'hello'); return f; }, 'bad_request'],
    ['JSON that is not an object', async () => '[1, 2, 3]', 'bad_request'],
    ['malformed JSON', async () => '{"image": ', 'bad_request'],
    ['base64 with garbage', async () => JSON.stringify({ image: '!!!not base64***' }), 'bad_request'],
    ['a url that is not https', async () => JSON.stringify({ url: 'http://example.com/a.png' }), 'url_invalid'],
    ['a url that is not a URL', async () => JSON.stringify({ url: 'not a url' }), 'url_invalid'],
    ['a url to a private address', async () => JSON.stringify({ url: 'https://10.0.0.1/a.png' }), 'url_blocked'],
  ];
  for (const [name, body, code] of cases) {
    it(`${name} is 400 ${code}`, async () => {
      const response = await compress(await body());
      expect(response.status).toBe(400);
      const error = await errorBody(response);
      expect(error.error).toBe(code);
    });
  }

  it('names the field and the rule in the message', async () => {
    const response = await compress(form('file', await png(), { quality: '0' }));
    expect((await errorBody(response)).message).toMatch(/^quality: /);
  });

  it('a Content-Type other than JSON or multipart is 400 bad_request', async () => {
    const { key } = await createKey();
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'image/png' }, body: await png() });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).message).toMatch(/Content-Type/);
  });

  it('an upload over 10 MB is 413 file_too_large', async () => {
    const big = new Uint8Array(10 * 1_048_576 + 1);
    big.set(await png());
    const response = await compress(form('file', big));
    expect(response.status).toBe(413);
    const body = await errorBody(response);
    expect(body.error).toBe('file_too_large');
    expect(body.message).toContain('10485760 bytes (10 MB)');
  });

  it('a base64 image over 10 MB decoded is 413 file_too_large', async () => {
    const big = new Uint8Array(10 * 1_048_576 + 3);
    const response = await compress(JSON.stringify({ image: toBase64(big) }));
    expect(response.status).toBe(413);
    const body = await errorBody(response);
    expect(body.error).toBe('file_too_large');
    expect(body.message).toContain('10485760 bytes (10 MB)');
  });

  it('a declared Content-Length far over the limit is refused before reading', async () => {
    const { key } = await createKey();
    const declared = 200 * 1_048_576;
    const body = countingStream(declared);
    const response = await call('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': String(declared) },
      body: body.stream,
    });
    expect(response.status).toBe(413);
    expect((await errorBody(response)).error).toBe('file_too_large');
    // Reading up to the cap would have pulled more than 13 MB; the stream may at most have been primed.
    expect(body.pulled()).toBeLessThanOrEqual(256 * 1024);
  });

  it('exactly 10 MB of base64 data is not refused for its size', async () => {
    const exact = new Uint8Array(10 * 1_048_576);
    const response = await compress(JSON.stringify({ image: toBase64(exact) }));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('unsupported_image');
  });
});
