import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { readHeader } from '../../src/image/header/read-header';
import { createWasmEngine } from '../../src/image/wasm';
import { nextTurn } from '../../src/image/next-turn';
import { apiErrorOf } from '../helpers/errors';
import { syntheticPng } from '../helpers/png';

/** Issue 35 item 6: a job whose hand-back of the event loop is never resumed may not hold the engine for ever. */
describe('engine watchdog', () => {
  it('fails a job silent past silenceMs with 503 and a Retry-After, and the next job runs on a fresh instance', async () => {
    let stall = true;
    // The first hand-back never resumes: what workerd's cancellation of a request's timers did before run-to-end.ts.
    const yieldToEventLoop = () => (stall ? new Promise<void>(() => {}) : nextTurn());
    const engine = createWasmEngine(engineWasm, { yieldToEventLoop, silenceMs: 200 });
    const input = syntheticPng(1200, 800, false);
    const header = readHeader(input);
    const out = { format: 'webp' as const, quality: 80, width: header.width, height: header.height };
    const error = await apiErrorOf(() => engine.transcode(input, header, out));
    expect(error.status).toBe(503);
    expect(error.code).toBe('service_unavailable');
    expect(error.headers).toMatchObject({ 'Retry-After': '1' });
    expect(engine.jobRunning()).toBe(false);
    expect(engine.memoryBytes()).toBe(0);
    stall = false;
    const output = await engine.transcode(input, header, out);
    expect(new TextDecoder().decode(output.subarray(8, 12))).toBe('WEBP');
    expect(engine.lastJob().yields).toBeGreaterThan(0);
  });
});
