import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { call, compress, errorBody, form } from '../helpers/api';
import { blackPng, craftedJpeg, flatLosslessWebp, iccBombChunk, tiledNoisePng, webpWithHiddenBitstream } from '../helpers/crafted';
import { responseImage } from '../helpers/images';

// Every request below is also checked by call(): its engine peak and JS buffers stay within the budget.

const refusedFromHeader = async (response: Response) => {
  expect(response.status).toBe(413);
  const body = await errorBody(response);
  expect(body.error).toBe('image_too_large');
  // The model's refusal names what the job would need; an engine that ran out says otherwise.
  expect(body.message).toMatch(/would (need|take) about/);
};

describe('issue 11: no crafted image takes the isolate past its budget (API)', () => {
  it("1. the demo's own Accept with a 2900x2900 PNG of one repeated noise tile is answered, within the budget", { timeout: 120_000 }, async () => {
    const input = await tiledNoisePng(2900, 2900, { channels: 3 });
    expect(input.length).toBeLessThan(1_000_000);
    const response = await call('/v1/demo-compress', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': '198.19.0.1', Accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8' },
      body: form('image', input),
    });
    expect([200, 413]).toContain(response.status);
    if (response.status === 413) await refusedFromHeader(response);
    else expect((await responseImage(response)).header).toMatchObject({ width: 2900, height: 2900 });
  });

  it('2. a 3520x3520 progressive JPEG of 4 components all sampled 4x4 (DC scans only) is refused from its header', async () => {
    const four = { h: 4, v: 4 };
    const input = craftedJpeg({ width: 3520, height: 3520, components: [four, four, four, four], progressive: true });
    expect(input.length).toBeLessThan(250_000);
    await refusedFromHeader(await compress(input, { format: 'jpeg' }));
  });

  it('3. a 30 x 3,000,000 PNG with maxHeight=1 is refused from its header: the resampler would need 100 MiB', async () => {
    await refusedFromHeader(await compress(blackPng(30, 3_000_000), { maxHeight: '1' }));
  });

  it('5. format auto with Accept: image/webp: a WebP candidate that does not fit is skipped, the JPEG returned', { timeout: 60_000 }, async () => {
    const input = craftedJpeg({ width: 5600, height: 3712, components: [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }], progressive: true, seed: 4 });
    expect(readHeader(input).progressive).toBe(true);
    const response = await compress(input, { format: 'auto' }, { Accept: 'image/webp' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Output-Format')).toBe('jpeg');
  });

  it('5. WebP holds at most 16383 px a side: wider output is no WebP candidate for auto, and a clean 413 when asked for', async () => {
    const wide = blackPng(17000, 4);
    const auto = await compress(wide, { format: 'auto' }, { Accept: 'image/webp' });
    expect(auto.status).toBe(200);
    expect(auto.headers.get('X-Output-Format')).toBe('png');
    const asked = await compress(wide, { format: 'webp' });
    expect(asked.status).toBe(413);
    const body = await errorBody(asked);
    expect(body.error).toBe('image_too_large');
    expect(body.message).toMatch(/WebP holds at most 16383 pixels a side; this output would be 17000x4/);
    const fits = await compress(wide, { format: 'webp', maxWidth: '16383' });
    expect(fits.status).toBe(200);
    expect((await responseImage(fits)).header).toMatchObject({ format: 'webp', width: 16383 });
    // A lossless WebP may state 16384; kept as WebP by auto, it cannot be written back at that size.
    const widest = flatLosslessWebp(16384, 2);
    expect(readHeader(widest)).toMatchObject({ width: 16384, height: 2 });
    const kept = await compress(widest, { format: 'auto' });
    expect(kept.status).toBe(413);
    expect((await errorBody(kept)).message).toMatch(/this output would be 16384x2/);
    expect((await compress(widest, { format: 'png' })).status).toBe(200);
  });

  it('6. the demo refuses, by its smaller CPU budget, a PNG a key may compress', async () => {
    const input = blackPng(4000, 3000);
    const response = await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.19.0.2' }, body: form('image', input) });
    expect(response.status).toBe(413);
    expect((await errorBody(response)).message).toMatch(/s of CPU; the limit here is 15 s/);
    expect((await compress(input, { maxWidth: '1000', format: 'png', quality: '100' })).status).toBe(200);
  });

  it('7. a 19 KB PNG whose iCCP inflates to 16.7 MB is refused; a profile over 1 MiB is dropped, not carried', async () => {
    const bomb = blackPng(64, 64, 3, [await iccBombChunk(255 * 65519)]);
    expect(bomb.length).toBeLessThan(40_000);
    const refused = await compress(bomb, { format: 'jpeg' });
    expect(refused.status).toBe(400);
    expect((await errorBody(refused)).message).toMatch(/more than 2 MiB once inflated/);
    const large = await compress(blackPng(64, 64, 3, [await iccBombChunk(1_500_000)]), { format: 'jpeg' });
    expect(large.status).toBe(200);
    expect(large.headers.get('X-Compression-Notes') ?? '').not.toMatch(/icc-kept/);
    expect((await responseImage(large)).bytes.length).toBeLessThan(10_000);
  });

  it('8. a WebP whose first chunk hides a raw 16384x16384 bitstream behind a 1x1 image is refused', async () => {
    const response = await compress(webpWithHiddenBitstream(16384, 16384));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('unsupported_image');
  });
});
