import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { readHeader } from '../../src/image/header/read-header';
import type { OutputSpec } from '../../src/image/types';
import { createWasmEngine, type WasmEngineOptions } from '../../src/image/wasm';
import { PROGRESS_HUFFMAN_TABLE, PROGRESS_INPUT } from '../../src/image/wasm/abi';
import { pngChunk, text } from '../container/synth';
import { huffmanGroupsWebp, noisePng } from '../helpers/crafted';
import { zlibAfterEmptyBlocks } from '../helpers/deflate-work';
import { apiErrorOf } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';
import { pngFile } from '../helpers/png';

const engineWith = (options: WasmEngineOptions = {}) => createWasmEngine(engineWasm, { retireAfterBytes: 0, ...options });

const toJpeg = (input: Uint8Array): [Uint8Array, ReturnType<typeof readHeader>, OutputSpec] => {
  const header = readHeader(input);
  return [input, header, { format: 'jpeg', quality: 80, width: header.width, height: header.height }];
};

/** 16x16 RGB with its rows after `blocks` empty deflate blocks, and `chunks` before them. */
const rows = (blocks: number, chunks: Uint8Array[] = []) => pngFile({ width: 16, height: 16, colourType: 2 }, zlibAfterEmptyBlocks(new Uint8Array(16 * 49), blocks), chunks);
const afterBlocks = (type: string, blocks: number) => pngChunk(type, new Uint8Array([...text('x\0'), 0, ...zlibAfterEmptyBlocks(new Uint8Array(200), blocks)]));

/**
 * Issue 35 item 1 (decisions.md "Reading is work"): the bytes a decoder reads are counted (PROGRESS_INPUT) as
 * rows are, so input that keeps it working without rows is paced, charged and budgeted. Under the header's
 * limits (test/api/reading-work.test.ts), a 16x16 PNG can still carry 1 MB of empty deflate blocks.
 */
describe('reading is work (engine)', () => {
  it.each([
    ['in IDAT (1 MB)', () => rows(88_000)],
    ['in iCCP (1.1 MB)', () => rows(0, [afterBlocks('iCCP', 96_000)])],
    ['in zTXt (1.1 MB)', () => rows(0, [afterBlocks('zTXt', 96_000)])],
  ])('empty deflate blocks %s are counted as read, predicted, and the loop handed back as they are inflated', async (_, make) => {
    const engine = engineWith();
    const [input, header, out] = toJpeg(make());
    await engine.transcode(input, header, out);
    const job = engine.lastJob();
    expect(job.units[PROGRESS_INPUT]).toBe(input.length);
    expect(job.handBacks.filter((kind) => kind === PROGRESS_INPUT).length).toBeGreaterThanOrEqual(3);
    expect(job.longestSliceMs).toBeLessThan(50);
    expect(job.workMs).toBeLessThanOrEqual(job.predictedMs * 1.01);
  });

  it('the CPU budget is checked while the blocks are inflated (a clock that moves a second at each reading)', async () => {
    let now = 0;
    const engine = engineWith({ clock: () => (now += 1000) });
    const [input, header, out] = toJpeg(rows(88_000));
    const error = await apiErrorOf(() => engine.transcode(input, header, out, { cpuBudgetMs: 3000 }));
    expect(error.code).toBe('image_too_large');
    expect(error.message).toMatch(/past the 3\.0 s of CPU allowed here/);
  });

  it("a 16x16 lossless WebP whose header holds 65,536 Huffman groups (164 KB) is stopped as work its header did not promise", async () => {
    const engine = engineWith();
    const [input, header, out] = toJpeg(huffmanGroupsWebp(16, 16));
    const error = await apiErrorOf(() => engine.transcode(input, header, out));
    expect(error.code).toBe('image_too_large');
    expect(error.message).toMatch(/more than 2 times the work its header promised/);
    expect(engine.takePeak()).toBeGreaterThan(0);
  });

  it.each([
    ['engine/lossless1.webp', () => fixture('engine/lossless1.webp')],
    ['engine/lossy_alpha4.webp', () => fixture('engine/lossy_alpha4.webp')],
    ['a 600x400 noise PNG', () => noisePng(600, 400, { channels: 3 })],
    ['engine/progressive.jpg', () => fixture('engine/progressive.jpg')],
  ])('an honest file (%s) reads every byte once a pass, its Huffman tables within the allowance', async (_, make) => {
    const engine = engineWith();
    const [input, header, out] = toJpeg(await make());
    await engine.transcode(input, header, out);
    const job = engine.lastJob();
    if (header.format !== 'webp' || header.lossless) expect(job.units[PROGRESS_INPUT]).toBeGreaterThanOrEqual(input.length * job.inputPasses * 0.99);
    expect(job.workMs).toBeLessThanOrEqual(job.predictedMs * 1.1);
    if (header.lossless) expect(job.units[PROGRESS_HUFFMAN_TABLE]).toBeGreaterThan(0);
  });
});
