import { expect } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import type { OutputFormat } from '../../src/image/types';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { COMPRESS_MAX_BYTES } from '../../src/limits/sizes';
import engineWasm from '../../codecs/dist/engine.wasm';
import { createWasmEngine, wasmEngine } from '../../src/image/wasm';
import { freshEngine, jpegPlan } from '../engine/helpers';
import { pixelPng } from './png';
import { call, createKey, form } from './api';
import { avifLayout } from './avif-layout';
import { responseImage } from './images';

/**
 * A phone-like scene: soft light across the frame, shapes with edges, fine texture, and a little grain
 * that varies from pixel to pixel as a sensor's does (a hash, so it is the same every run).
 */
function scene(width: number, height: number): (x: number, y: number) => number[] {
  return (x, y) => {
    const u = x / width;
    const v = y / height;
    const grain = (Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 29) - 4;
    const edge = ((x >> 7) + (y >> 7)) & 1 ? 24 : 0;
    const texture = 12 * Math.sin(x / 3.1) * Math.sin(y / 4.7);
    return [40 + 150 * u + edge + texture + grain, 60 + 120 * v + texture + grain, 120 + 80 * (1 - u) * v - edge + grain];
  };
}

export interface PhonePhoto {
  width: number;
  height: number;
  /** Baseline JPEG at this jpegli quality (phones write 90 to 95), or a progressive 4:2:0 JPEG. */
  kind: { baseline: number } | 'progressive';
}

/** Enough for jpegli to write a progressive 48 MP photo: the tests' own inputs are made beside the service's budget. */
const MAKER_BUDGET_BYTES = 1024 * 1_048_576;

/**
 * A phone-like photo as the test's own input, made by an engine instance of its own, so that the service's
 * instance has run nothing when the API job starts: baseline at a phone's quality, or progressive 4:2:0 at
 * 95 (jpegli's progressive mode, which the service uses up to about 7 MP, with a budget of its own).
 */
export async function phonePhoto({ width, height, kind }: PhonePhoto): Promise<Uint8Array> {
  const png = pixelPng(width, height, 3, scene(width, height));
  const out = { format: 'jpeg', width, height } as const;
  if (kind === 'progressive') {
    const maker = createWasmEngine(engineWasm, { plan: jpegPlan('progressive'), budgetBytes: MAKER_BUDGET_BYTES, retireAfterBytes: 0 });
    return maker.transcode(png, readHeader(png), { ...out, quality: 95 });
  }
  return freshEngine().transcode(png, readHeader(png), { ...out, quality: kind.baseline });
}

/**
 * Sends a photo through the API and checks that its job, alone, stayed within the engine budget: the WASM
 * memory it needed and its output buffer, measured. The service's engine keeps one instance per isolate,
 * whose memory is its high-water mark; each test file has an isolate of its own, so call this once per file:
 * the instance must be fresh when the job starts.
 */
export async function expectPhotoFits(
  photo: PhonePhoto,
  fields: Record<string, string>,
  expected: { format: OutputFormat; width: number; height: number; notes?: string },
): Promise<void> {
  const input = await phonePhoto(photo);
  expect(input.length).toBeLessThanOrEqual(COMPRESS_MAX_BYTES);
  expect(readHeader(input)).toMatchObject({ width: photo.width, height: photo.height, progressive: photo.kind === 'progressive' });
  expect(wasmEngine.memoryBytes(), 'the service engine ran nothing before this job').toBe(0);
  const { key } = await createKey('business');
  const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, fields) });
  expect(response.status).toBe(200);
  if (expected.format === 'avif') {
    const layout = avifLayout(new Uint8Array(await response.arrayBuffer()));
    expect([layout.width, layout.height]).toEqual([expected.width, expected.height]);
  } else {
    const { header } = await responseImage(response);
    expect([header.format, header.width, header.height]).toEqual([expected.format, expected.width, expected.height]);
  }
  if (expected.notes !== undefined) expect(response.headers.get('X-Compression-Notes')).toBe(expected.notes);
  const job = wasmEngine.lastJob();
  expect(job.wasmBytes).toBeGreaterThan(0);
  expect(job.wasmBytes + job.outputBufferBytes).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
}
