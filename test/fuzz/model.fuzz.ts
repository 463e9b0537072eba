import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { createWasmEngine } from '../../src/image/wasm';
import { runModelCase } from '../helpers/model-cases';
import { call, createKey, form } from '../helpers/api';
import { blackPng, tiledNoisePng } from '../helpers/crafted';
import { responseImage } from '../helpers/images';

const CASES = 3000;
/**
 * Cases are numbered from here, offset from npm test's so the fuzz covers others; `FUZZ_FIRST_CASE=200000 npm run
 * fuzz` runs 3000 others (a failing case is rebuilt alone from its number: modelCase in test/helpers/model-cases.ts).
 */
const FIRST_CASE = env.FUZZ_FIRST_CASE ? Number(env.FUZZ_FIRST_CASE) : 100_000;
/** Every job on a fresh instance over one memory: each measured alone, nothing piles up. */
const engine = createWasmEngine(engineWasm, { retireAfterBytes: 0 });

describe('fuzz: the memory model on random headers and requests', () => {
  it(`holds measured <= predicted <= budget over ${CASES} jobs of up to 3 MP`, async () => {
    const outcomes: Record<string, number> = {};
    for (let n = 0; n < CASES; n++) {
      const outcome = await runModelCase(engine, FIRST_CASE + n, 3_000_000);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log(`model fuzz: ${CASES} cases from ${FIRST_CASE}, ${JSON.stringify(outcomes)}`);
    expect(outcomes.ok).toBeGreaterThan(CASES * 0.8);
  });
});

describe("issue 11's crafted images at full size, through the API", () => {
  it('a 10000x10000 PNG of one repeated noise tile to JPEG: about 64 MB of output, within the plan and the budget', async () => {
    const { key } = await createKey('business');
    const input = await tiledNoisePng(10_000, 10_000, { channels: 3 });
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'jpeg' }) });
    expect([200, 413]).toContain(response.status);
    if (response.status === 200) expect((await responseImage(response)).bytes.length).toBeGreaterThan(50_000_000);
  });

  it('a 100 MP PNG to PNG with maxWidth=1000 decodes its input once', async () => {
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', blackPng(10_000, 10_000), { format: 'png', maxWidth: '1000' }) });
    expect(response.status).toBe(200);
    expect((await responseImage(response)).header).toMatchObject({ width: 1000, height: 1000 });
  });
});
