import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { AVIF_STEP_STAGES, PROGRESS_DECODED, PROGRESS_ENCODED, PROGRESS_ENCODER_STEP } from '../../src/image/wasm/abi';
import { call, createKey, form } from '../helpers/api';
import { avifLayout } from '../helpers/avif-layout';
import { tiledNoisePng } from '../helpers/crafted';
import { phonePhoto } from '../helpers/large-photo';
import { pixelPng, syntheticPng } from '../helpers/png';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Posts a compression with `key` and waits, turn by turn, for its job to be in the engine: `answer` is the
 * response to come, `answered()` whether it has come.
 */
async function jobInEngine(key: string, input: Uint8Array, format: string): Promise<{ answer: Promise<Response>; answered: () => boolean }> {
  const before = wasmEngine.jobsStarted();
  let answered = false;
  const answer = call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format }) }).then((response) => {
    answered = true;
    return response;
  });
  while (wasmEngine.jobsStarted() === before && !answered) await nextTurn();
  return { answer, answered: () => answered };
}

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
    const { answer, answered } = await jobInEngine(key, input, 'webp');
    expect(wasmEngine.jobRunning()).toBe(true);

    const health = await call('/health');
    expect(health.status).toBe(200);
    expect([answered(), wasmEngine.jobRunning()]).toEqual([false, true]);
    const usage = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(usage.status).toBe(200);
    expect([answered(), wasmEngine.jobRunning()]).toEqual([false, true]);

    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Output-Format')).toBe('webp');
    // Its hand-backs: about one per 25 ms of its work.
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

  /**
   * Sends `input` to AVIF with a key, answers GET /health while the job is in the engine, and gives the stages
   * its hand-backs of the event loop came from (abi.ts: a kind, or a stage of one).
   */
  async function avifHandBacks(input: Uint8Array): Promise<{ stages: Set<number>; layout: ReturnType<typeof avifLayout> }> {
    const { key } = await createKey('business');
    const { answer, answered } = await jobInEngine(key, input, 'avif');
    const health = await call('/health');
    expect(health.status).toBe(200);
    expect([answered(), wasmEngine.jobRunning()]).toEqual([false, true]);
    const response = await answer;
    expect(response.status).toBe(200);
    return { stages: new Set(wasmEngine.lastJob().handBacks), layout: avifLayout(new Uint8Array(await response.arrayBuffer())) };
  }

  // Measured (npm run bench -- avif): libaom wrote each cell's bitstream after coding it without a word (2 % of
  // a cell's CPU at speed 6, 11 to 27 % at 9), holding the event loop 20 to 50 ms a cell; a 24 MP photo's later
  // stripes of rows, paced by the cells before them, held it 51 ms. Every stage now hands the loop back.
  it('hands the loop back while libaom codes, searches and writes each cell, alpha too (an RGBA PNG, speed 6)', { timeout: 120_000 }, async () => {
    const input = pixelPng(1400, 400, 4, (x, y) => [(x * 7) % 256, (y * 5) % 256, (x * y) % 256, (x * 255) / 1400]);
    const { stages, layout } = await avifHandBacks(input);
    expect([layout.grid, layout.alpha]).toEqual([true, true]);
    for (const stage of ['writing', 'searching', 'coding'] as const) expect(stages, stage).toContain(AVIF_STEP_STAGES[stage]);
  });

  it('hands the loop back while it decodes rows and while libaom codes and writes cells (a 4 MP JPEG, speed 7, cells of 512)', { timeout: 120_000 }, async () => {
    const input = await phonePhoto({ width: 2600, height: 1600, kind: { baseline: 92 } });
    const { stages, layout } = await avifHandBacks(input);
    expect(layout.grid).toBe(true);
    expect([PROGRESS_DECODED, PROGRESS_ENCODED].some((kind) => stages.has(kind))).toBe(true);
    for (const stage of ['writing', 'coding'] as const) expect(stages, stage).toContain(AVIF_STEP_STAGES[stage]);
  });
});
