import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';

/** Every hostile or unsupported file of the corpus, and the code it must be refused with. */
const REFUSED: Record<string, string> = {
  'empty.png': 'unsupported_image',
  'html-named.jpg': 'unsupported_image',
  'text-named.png': 'unsupported_image',
  'unsupported.bmp': 'unsupported_image',
  'jpeg-truncated.jpg': 'unsupported_image',
  'png-truncated.png': 'unsupported_image',
  'libjpeg-turbo-monkey12.jpg': 'unsupported_image',
  'basic_f20.png': 'unsupported_image',
  'two-frames.webp': 'unsupported_image',
  'jpeg-bomb-header-65000x65000.jpg': 'image_too_large',
  'png-bomb-header-100000x100000.png': 'image_too_large',
  'png-bomb-valid-16000x16000.png': 'image_too_large',
  ...Object.fromEntries(
    ['xc1n0g08', 'xc9n2c08', 'xcrn0g04', 'xcsn0g01', 'xd0n2c08', 'xd3n2c08', 'xd9n2c08', 'xdtn0g01', 'xhdn0g08', 'xlfn0g04', 'xs1n0g01', 'xs2n0g01', 'xs4n0g01', 'xs7n0g01'].map(
      (name) => [`${name}.png`, 'unsupported_image'],
    ),
  ),
};

describe('hostile and unsupported input', () => {
  for (const [name, code] of Object.entries(REFUSED)) {
    it(`${name} is refused with ${code}, never a 5xx`, async () => {
      const { key } = await createKey('business');
      const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture(`bad/${name}`)) });
      expect(response.status).toBe(code === 'image_too_large' ? 413 : 400);
      expect((await errorBody(response)).error).toBe(code);
    });
  }

  it('a bomb is refused from its header, naming its dimensions, before any decode', async () => {
    const { key } = await createKey('business');
    const bomb = await fixture('bad/png-bomb-valid-16000x16000.png');
    const jobsBefore = wasmEngine.jobsStarted();
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', bomb) });
    // Decoding 256 megapixels would take seconds and gigabytes: the engine never starts.
    expect(wasmEngine.jobsStarted()).toBe(jobsBefore);
    const body = await errorBody(response);
    expect(body.error).toBe('image_too_large');
    expect(body.message).toContain('16000x16000');
  });

  it('a bomb is refused even with a small maxWidth, when rows would stream: the pixel cap bounds the CPU', async () => {
    const { key } = await createKey('business');
    const response = await call('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form('file', await fixture('bad/jpeg-bomb-header-65000x65000.jpg'), { maxWidth: '100' }),
    });
    expect(response.status).toBe(413);
    const body = await errorBody(response);
    expect(body.error).toBe('image_too_large');
    expect(body.message).toMatch(/65000x65000.*the limit is 100 MP/);
  });

  it('the demo refuses the same files with the same codes', async () => {
    let ip = 0;
    for (const name of ['unsupported.bmp', 'png-truncated.png', 'jpeg-bomb-header-65000x65000.jpg']) {
      const response = await call('/v1/demo-compress', {
        method: 'POST',
        headers: { 'CF-Connecting-IP': `203.0.113.${++ip}` },
        body: form('image', await fixture(`bad/${name}`)),
      });
      expect(response.status).toBe(REFUSED[name] === 'image_too_large' ? 413 : 400);
      expect((await errorBody(response)).error).toBe(REFUSED[name]);
    }
  });

  it('a JPEG whose quantisation table has a zero step (T.81 forbids it; libjpeg decodes it) is compressed, not a 5xx: it has no grid to re-encode on', async () => {
    const input = await fixture('engine/testorig.jpg');
    const dqt = input.findIndex((byte, at) => byte === 0xff && input[at + 1] === 0xdb);
    const zeroed = input.slice();
    zeroed[dqt + 5 + 10] = 0; // a luma AC step (after marker, length, Pq/Tq)
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', zeroed, { format: 'jpeg' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Output-Format')).toBe('jpeg');
  });

  it('the service keeps working after refusing them', async () => {
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture('engine/testorig.jpg')) });
    expect(response.status).toBe(200);
  });
});
