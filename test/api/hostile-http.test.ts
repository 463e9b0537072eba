import { describe, expect, it } from 'vitest';
import { call, createKey, errorBody } from '../helpers/api';

async function post(path: string, headers: Record<string, string>, body: BodyInit): Promise<Response> {
  const { key } = await createKey('business');
  return call(path, { method: 'POST', headers: { 'X-API-Key': key, ...headers }, body });
}

describe('hostile HTTP input gets a clear 4xx', () => {
  it('a multipart body that does not match its boundary', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'multipart/form-data; boundary=xyz' }, '--abc\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello\r\n--abc--');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('a multipart body cut off in the middle of a part', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'multipart/form-data; boundary=xyz' }, '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('multipart without a boundary', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'multipart/form-data' }, 'anything');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('a multipart body of 20,000 tiny parts is refused once its fields pass 64 KiB', async () => {
    const part = (i: number) => `--xyz\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`;
    const body = `${Array.from({ length: 20_000 }, (_, i) => part(i)).join('')}--xyz--`;
    const response = await post('/v1/compress', { 'Content-Type': 'multipart/form-data; boundary=xyz' }, body);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).message).toMatch(/fields besides the image take more than 64 KiB/);
  });

  it('a JSON image string that never closes', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, `{"image":"${'QUJD'.repeat(100_000)}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('the same field twice', async () => {
    const body = new FormData();
    body.append('quality', '50');
    body.append('quality', '60');
    const response = await post('/v1/compress', {}, body);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).message).toMatch(/quality/);
  });

  it('JSON that is a string, a number or null', async () => {
    for (const json of ['"image"', '42', 'null']) {
      const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, json);
      expect(response.status).toBe(400);
      expect((await errorBody(response)).message).toMatch(/object/);
    }
  });

  it('JSON that is not UTF-8', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('a huge JSON string is cut off at the body limit with 413, not parsed', async () => {
    const huge = `{"image":"${'A'.repeat(15 * 1_048_576)}"}`;
    const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, huge);
    expect(response.status).toBe(413);
    expect((await errorBody(response)).error).toBe('file_too_large');
  });

  it('a huge string in a field other than image', async () => {
    const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, JSON.stringify({ format: 'x'.repeat(1_000_000) }));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('deeply nested JSON', async () => {
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await post('/v1/compress', { 'Content-Type': 'application/json' }, `{"image":${nested}}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('no Content-Type, or a wrong one, on the demo', async () => {
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await call('/v1/demo-compress', {
        method: 'POST',
        headers: { 'CF-Connecting-IP': `192.0.2.${type ? type.length : 1}`, ...(type ? { 'Content-Type': type } : {}) },
        body: 'image=abc',
      });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).message).toMatch(/Content-Type/);
    }
  });

  it('an X-API-Key far too long is simply invalid', async () => {
    const response = await call('/v1/usage', { headers: { 'X-API-Key': 'k'.repeat(64 * 1024) } });
    expect(response.status).toBe(401);
    expect((await errorBody(response)).error).toBe('unauthorized');
  });

  it('a GET on a POST endpoint is a JSON 404', async () => {
    const response = await call('/v1/compress');
    expect(response.status).toBe(404);
    expect((await errorBody(response)).error).toBe('not_found');
  });
});
