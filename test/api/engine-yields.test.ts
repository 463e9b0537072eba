import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { PROGRESS_ENCODER_STEP } from '../../src/image/wasm/abi';
import { call, createKey, form } from '../helpers/api';
import { tiledNoisePng } from '../helpers/crafted';
import { syntheticPng } from '../helpers/png';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

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
    while (wasmEngine.jobsStarted() === before && !compressed) await nextTurn();
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

  it('answers GET /health while libaom codes an AVIF frame (an image of one cell)', { timeout: 120_000 }, async () => {
    // libaom reports nothing while it codes a frame: the engine counts its superblocks through a hook (avif-encode.c).
    // An image of one cell is coded in one call after its last row; before, the job held the event loop through it.
    const { key } = await createKey('business');
    const input = await tiledNoisePng(512, 384, { channels: 3 });
    const steps = () => wasmEngine.runningUnits()[PROGRESS_ENCODER_STEP] ?? 0;
    const before = wasmEngine.jobsStarted();
    const job = call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'avif' }) });
    while (wasmEngine.jobsStarted() === before || (steps() === 0 && wasmEngine.jobRunning())) await nextTurn();
    const started = steps();
    expect(started).toBeGreaterThan(0);

    const health = await call('/health');
    expect(health.status).toBe(200);
    const answered = steps();
    expect(wasmEngine.jobRunning()).toBe(true);

    const response = await job;
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Output-Format')).toBe('avif');
    // The frame's steps were partly counted when the job first handed the loop back in it, and when /health was answered.
    const total = wasmEngine.lastJob().units[PROGRESS_ENCODER_STEP]!;
    expect(started).toBeLessThan(total);
    expect(answered).toBeLessThan(total);
    expect(wasmEngine.lastJob().yields).toBeGreaterThan(3);
  });
});
