import { describe, expect, it } from 'vitest';
import { queueLength } from '../../src/image/job-queue';
import { wasmEngine } from '../../src/image/wasm';
import { PROGRESS_DECODED } from '../../src/image/wasm/abi';
import { admission } from '../../src/limits/admission';
import { call, createKey, form } from '../helpers/api';
import { syntheticPng } from '../helpers/png';
import { nextTurn, until } from '../helpers/wait';

/** About 1.5 s of engine work here: long enough for a client to leave in the middle. */
const LONG = syntheticPng(1600, 1200, false);
const SMALL = syntheticPng(64, 64, false);

/** A compression whose client may leave: `leave()` drops the connection; `settled()` says whether the call has ended. */
function compression(key: string, input: Uint8Array, format: string) {
  const controller = new AbortController();
  let settled = false;
  const answer = call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format }), signal: controller.signal }).finally(
    () => (settled = true),
  );
  answer.catch(() => undefined);
  return { answer, leave: () => controller.abort(), settled: () => settled };
}

async function expectAnswered(key: string): Promise<void> {
  const response = await compression(key, SMALL, 'png').answer;
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  expect(admission.takePeak()).toBeGreaterThan(0);
  expect(admission.takePeak(), 'every request gave back what it held of the isolate').toBe(0);
}

/**
 * Issue 35, item 6: a compression that never answers. workerd cancels a request whose client has gone, and
 * with it the request's timers: a job suspended at a hand-back of the event loop was never resumed, the
 * engine's queue never moved again, and every later compression waited for it until workerd cancelled it
 * as hung (and what the request held of the isolate's budget was never given back). A request's work now
 * runs to its end whether or not its client stays (src/middleware/run-to-end.ts).
 */
describe('issue 35, item 6: a client that leaves takes nothing with it', () => {
  it('leaving while its job is in the engine: the job runs to its end and the next compression is answered', { timeout: 60_000 }, async () => {
    const { key } = await createKey('business');
    const before = wasmEngine.jobsStarted();
    const first = compression(key, LONG, 'webp');
    // In the middle of the job: rows decoded, and the engine suspended at a hand-back between them.
    await until(() => wasmEngine.jobsStarted() > before && (wasmEngine.runningUnits()[PROGRESS_DECODED] ?? 0) > 0);
    expect(wasmEngine.jobRunning()).toBe(true);
    first.leave();
    await expect(first.answer).rejects.toThrow(/abort/i);
    await until(() => !wasmEngine.jobRunning());
    await expectAnswered(key);
  });

  it('leaving while waiting for its turn: the queue moves on past it', { timeout: 60_000 }, async () => {
    const { key } = await createKey('business');
    const before = wasmEngine.jobsStarted();
    const running = compression(key, LONG, 'webp');
    await until(() => wasmEngine.jobsStarted() > before);
    const waiting = compression(key, SMALL, 'webp');
    await until(() => queueLength() === 2 || running.settled());
    expect(running.settled(), 'the first job still runs').toBe(false);
    waiting.leave();
    await expect(waiting.answer).rejects.toThrow(/abort/i);
    const response = await running.answer;
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await until(() => queueLength() === 0);
    for (let i = 0; i < 3; i++) await nextTurn();
    await expectAnswered(key);
  });
});
