import { expect } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { wasmEngine } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { freshEngine } from '../engine/helpers';
import { syntheticPng } from '../helpers/png';
import { call, createKey, form } from './api';
import { responseImage } from './images';

/**
 * A baseline JPEG photo of `width` x `height`, made from a synthetic PNG by an engine instance of its
 * own, so that the service's instance has run nothing when the API job starts.
 */
async function photo(width: number, height: number, quality: number): Promise<Uint8Array> {
  const png = syntheticPng(width, height, false);
  return freshEngine().transcode(png, readHeader(png), { format: 'jpeg', quality, width, height });
}

/**
 * Sends a photo through the API and checks that its job, alone, stayed within the engine budget. The
 * service's engine keeps one instance per isolate, whose memory is its high-water mark; each test file
 * has an isolate of its own, so call this once per file: the instance must be fresh when the job starts.
 */
export async function expectPhotoFits(
  size: { width: number; height: number; quality: number },
  fields: Record<string, string>,
  expected: { width: number; height: number },
): Promise<void> {
  const input = await photo(size.width, size.height, size.quality);
  expect(input.length).toBeLessThanOrEqual(10 * 1_048_576);
  expect(wasmEngine.memoryBytes(), 'the service engine ran nothing before this job').toBe(0);
  const { key } = await createKey('business');
  const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, fields) });
  expect(response.status).toBe(200);
  const { header } = await responseImage(response);
  expect([header.format, header.width, header.height]).toEqual(['jpeg', expected.width, expected.height]);
  const job = wasmEngine.lastJob();
  expect(job.wasmBytes).toBeGreaterThan(0);
  expect(job.wasmBytes + job.outputBufferBytes).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
}
