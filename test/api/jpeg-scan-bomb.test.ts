import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { call, createKey, errorBody, form } from '../helpers/api';
import { scanBombJpeg } from '../helpers/crafted';

/**
 * Issue 19, item 1: progressive JPEGs that repeat one legal AC scan thousands of times. Before, the first
 * took 37.8 s of CPU and the demo's 12 s (against its 15 s budget), both answered 200. Each is refused from
 * its header: the engine never starts (its job counter does not move).
 */
describe('issue 19: a JPEG scan bomb is refused from its header, before any engine work', () => {
  const refusedBeforeTheEngine = async (send: () => Promise<Response>) => {
    const jobsBefore = wasmEngine.jobsStarted();
    const response = await send();
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe('unsupported_image');
    expect(body.message).toMatch(/has (5001|3001) scans/);
    expect(body.message).toMatch(/at most 100/);
    expect(wasmEngine.jobsStarted()).toBe(jobsBefore);
  };

  it('grey 5600x5600 with 5,000 copies of one AC scan, with a key', async () => {
    const bomb = scanBombJpeg({ width: 5600, height: 5600, scans: 5000 });
    expect(bomb.length).toBeLessThan(400_000);
    const { key } = await createKey('business');
    await refusedBeforeTheEngine(() => call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', bomb, { format: 'jpeg' }) }));
  });

  it('4000x4000 with 3,000 scans, on the demo without a key', async () => {
    const bomb = scanBombJpeg({ width: 4000, height: 4000, scans: 3000 });
    expect(bomb.length).toBeLessThan(200_000);
    await refusedBeforeTheEngine(() => call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.19.9.1' }, body: form('image', bomb) }));
  });
});
