import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { baseHeader } from '../../src/image/header/header-defaults';
import { readHeader } from '../../src/image/header/read-header';
import type { ImageHeader, OutputSpec } from '../../src/image/types';
import { createWasmEngine, type WasmEngineOptions } from '../../src/image/wasm';
import { PROGRESS_DECODED, PROGRESS_SCANNED } from '../../src/image/wasm/abi';
import { scanBombJpeg } from '../helpers/crafted';
import { fixture } from '../helpers/fixtures';
import { apiErrorOf } from '../helpers/errors';
import { syntheticPng } from '../helpers/png';

const engineWith = (options: WasmEngineOptions) => createWasmEngine(engineWasm, { retireAfterBytes: 0, ...options });

const full = (header: ImageHeader, format: OutputSpec['format']): OutputSpec => ({ format, quality: 80, width: header.width, height: header.height });

/** Issue 19, item 2: the engine counts the work its stages report, and stops a job past its prediction or its CPU budget. */
describe('run-time CPU enforcement', () => {
  it("counts a job's work as its header predicts it: rows decoded, and the blocks every scan visits", async () => {
    const engine = engineWith({});
    const input = await fixture('engine/progressive.jpg');
    const header = readHeader(input);
    await engine.transcode(input, header, full(header, 'jpeg'));
    const job = engine.lastJob();
    // One iMCU row more per scan: libjpeg's monitor also runs while it reads the markers between scans.
    expect(job.units[PROGRESS_SCANNED]).toBeGreaterThanOrEqual(header.scanBlocks);
    expect(job.units[PROGRESS_SCANNED]).toBeLessThanOrEqual(header.scanBlocks * 1.2);
    expect(job.units[PROGRESS_DECODED]).toBe(header.width * header.height * job.inputPasses);
    expect(job.workMs).toBeGreaterThan(0.9 * job.predictedMs);
    expect(job.workMs).toBeLessThanOrEqual(1.1 * job.predictedMs);
  });

  it('stops a job that runs far past its prediction with 413 image_too_large, saying why', async () => {
    const input = syntheticPng(1200, 800, false);
    const header = readHeader(input);
    // The prediction scaled down stands in for a file whose work exceeds its header's promise.
    const engine = engineWith({ predictionScale: 0.001 });
    const error = await apiErrorOf(() => engine.transcode(input, header, full(header, 'webp')));
    expect(error.code).toBe('image_too_large');
    expect(error.message).toMatch(/stopped after more than 2 times the work its header promised/);
    // The same job with the model's prediction runs to the end, within it.
    const honest = engineWith({});
    await honest.transcode(input, header, full(header, 'webp'));
    expect(honest.lastJob().workMs).toBeLessThanOrEqual(honest.lastJob().predictedMs * 1.01);
  });

  it('stops a job that spends its CPU budget, read from the clock where the job hands the event loop back', async () => {
    const input = syntheticPng(1200, 800, false);
    const header = readHeader(input);
    // A clock that moves a second at every reading: the budget of 3 s is spent at the fourth hand-back.
    let now = 0;
    const engine = engineWith({ clock: () => (now += 1000) });
    const error = await apiErrorOf(() => engine.transcode(input, header, full(header, 'webp'), { cpuBudgetMs: 3000 }));
    expect(error.code).toBe('image_too_large');
    expect(error.message).toMatch(/past the 3\.0 s of CPU allowed here/);
  });

  it.each([
    ['Huffman-coded', false, () => Promise.resolve(scanBombJpeg({ width: 1024, height: 1024, scans: 150 }))],
    ['arithmetic-coded', true, () => fixture('engine/arithmetic-scan-bomb.jpg')],
  ])('a second line behind the header walk: the decoder stops at a scan the header did not count (%s)', async (_, arithmetic, make) => {
    const input = await make();
    // The header walk refuses these (151 scans); a header that says 100 stands in for a walk the decoder disagrees with.
    expect(() => readHeader(input)).toThrow(/has 151 scans/);
    const header: ImageHeader = {
      ...baseHeader('jpeg', 1024, 1024),
      progressive: true,
      arithmetic,
      grey: true,
      sampling: [{ h: 1, v: 1 }],
      coefficientsBuffered: true,
      scans: 100,
      scanBlocks: 100 * 16384,
      fileBytes: input.length,
    };
    const engine = engineWith({});
    const error = await apiErrorOf(() => engine.transcode(input, header, full(header, 'jpeg')));
    expect(error.code).toBe('unsupported_image');
    expect(error.message).toMatch(/the decoder met scan 101, past the 100 its header has/);
  });
});
