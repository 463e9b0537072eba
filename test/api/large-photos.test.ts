import { describe, expect, it } from 'vitest';
import { compressImage } from '../../src/image/pipeline';
import { wasmEngine } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { syntheticPng } from '../engine/synthetic-png';
import { call, createKey, form } from '../helpers/api';
import { responseImage } from '../helpers/images';

/** A baseline JPEG photo of `width` x `height`, made by the engine itself from a synthetic PNG. */
async function photo(width: number, height: number, quality: number): Promise<Uint8Array> {
  const jpeg = await compressImage(syntheticPng(width, height, false), { quality, format: 'jpeg', acceptsWebp: false });
  return jpeg.bytes;
}

describe('phone and camera photos through the API (the streaming engine fits them in the isolate)', () => {
  it('accepts a 24 MP photo at full size', async () => {
    const input = await photo(6000, 4000, 60);
    expect(input.length).toBeLessThanOrEqual(10 * 1_048_576);
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { quality: '80' }) });
    expect(response.status).toBe(200);
    const { header } = await responseImage(response);
    expect([header.format, header.width, header.height]).toEqual(['jpeg', 6000, 4000]);
    const job = wasmEngine.lastJob();
    expect(job.wasmBytes + job.outputBufferBytes).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
  });

  it('accepts a 48 MP photo with maxWidth 4096', async () => {
    const input = await photo(8485, 5657, 30);
    expect(input.length).toBeLessThanOrEqual(10 * 1_048_576);
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { maxWidth: '4096' }) });
    expect(response.status).toBe(200);
    const { header } = await responseImage(response);
    expect([header.width, header.height]).toEqual([4096, 2731]);
    const job = wasmEngine.lastJob();
    expect(job.wasmBytes + job.outputBufferBytes).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
  });
});
