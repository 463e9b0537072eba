import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { call, createKey, form } from '../helpers/api';
import { syntheticPng } from '../helpers/png';

/**
 * Issue 19, item 2: a transcode was one synchronous WASM call, and GET /health waited 14 s behind a scan
 * bomb. The engine now hands the event loop back as it works (JSPI), so other requests are answered while
 * a job runs: shown by the order of events (each answer arrives while the engine is inside the job) and
 * by the job's hand-backs, never by wall-clock times.
 */
describe('issue 19: no job freezes the isolate', () => {
  it('answers GET /health and GET /v1/usage while a long job is in the engine', { timeout: 120_000 }, async () => {
    const { key } = await createKey('business');
    // Stored, not deflated: 8.4 MB, under the upload limit.
    const input = syntheticPng(2000, 1400, false);
    const before = wasmEngine.jobsStarted();
    let compressed = false;
    const job = call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'webp' }) }).then((response) => {
      compressed = true;
      return response;
    });
    // Wait, turn by turn, for the job to be in the engine.
    while (wasmEngine.jobsStarted() === before && !compressed) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(wasmEngine.jobRunning()).toBe(true);

    const health = await call('/health');
    expect(health.status).toBe(200);
    expect([compressed, wasmEngine.jobRunning()]).toEqual([false, true]);
    const usage = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(usage.status).toBe(200);
    expect([compressed, wasmEngine.jobRunning()]).toEqual([false, true]);

    const response = await job;
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Output-Format')).toBe('webp');
    // Its hand-backs: about one per 30 ms of its work.
    expect(wasmEngine.lastJob().yields).toBeGreaterThan(3);
  });
});
