import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { ApiError } from '../../src/errors/api-error';
import { readHeader } from '../../src/image/header/read-header';
import type { OutputSpec } from '../../src/image/types';
import { createWasmEngine } from '../../src/image/wasm';
import { noisePng } from '../helpers/crafted';
import { apiErrorOf } from '../helpers/errors';

const MiB = 1_048_576;

/**
 * Issue 35 item 7: the same photo to PNG answered 200, then 413 "needs more memory" after other jobs. WASM memory
 * never shrinks: a memory an earlier job grew is retired after it and, until the collector reclaims it, revived
 * (zeroed) for the next job, whose output then needs room beside all of it. Whether it was reclaimed is the
 * collector's timing, so the answer was too. A job that fails for memory it did not grow itself is answered 503
 * with Retry-After (nothing charged): only an image a fresh engine cannot make is told it is too large.
 */
describe('a job is never refused as too large for memory an earlier job left', () => {
  it('a lossless PNG a fresh engine makes, after a job that grew the memory to the budget: 200, or 503 to retry, never 413', async () => {
    const engine = createWasmEngine(engineWasm, { budgetBytes: 40 * MiB, retireAfterBytes: 8 * MiB });
    const png = await noisePng(1600, 1500, { channels: 3 });
    const header = readHeader(png);
    const out: OutputSpec = { format: 'png', quality: 100, width: header.width, height: header.height };
    expect((await engine.transcode(png, header, out)).length).toBeGreaterThan(6 * MiB);
    // Noise to WebP at 100 grows the memory to this engine's budget, and is stopped there itself.
    const noise = await noisePng(1500, 1000, { channels: 3 });
    const grown = await apiErrorOf(() => engine.transcode(noise, readHeader(noise), { format: 'webp', quality: 100, width: 1500, height: 1000 }));
    expect(grown.code).toBe('image_too_large');
    // 200 when the collector reclaimed the grown memory first; otherwise busy, not too large.
    const again = await engine.transcode(png, header, out).catch((error: ApiError) => error);
    if (again instanceof ApiError) {
      expect([again.status, again.code, again.headers['Retry-After']]).toEqual([503, 'service_unavailable', '1']);
    } else {
      expect(again.length).toBeGreaterThan(6 * MiB);
    }
  });
});
