import { describe, expect, it } from 'vitest';
import { encoderQuality } from '../../src/image/quality-scale';
import { readHeader } from '../../src/image/header/read-header';
import { PROGRESS_ENCODER_STEP } from '../../src/image/wasm/abi';
import { freshEngine } from './helpers';
import { pixelPng } from '../helpers/png';

/**
 * libaom codes a frame in one call and reports nothing meanwhile: the engine counts its work through functions of
 * it called for every superblock or 64x64 block (codecs/src/avif-encode.c), as the CPU model predicts it, so the job
 * watch stops an AVIF job that runs far past its prediction and hands the event loop back inside a cell.
 */
describe('AVIF work counted as libaom codes', () => {
  it.each([
    ['one cell', 400, 300, 3],
    ['one cell with alpha', 400, 300, 4],
    ['a grid of 2 x 1 cells', 1100, 150, 3],
  ] as const)("counts %s as predicted, every cell's blocks", async (_, width, height, channels) => {
    const input = pixelPng(width, height, channels, (x, y) => [(x * 7) % 256, (y * 5) % 256, (x * y) % 256, (x + y) % 256].slice(0, channels));
    const header = readHeader(input);
    const engine = freshEngine();
    await engine.transcode(input, header, { format: 'avif', quality: encoderQuality('avif', 80), width, height });
    const job = engine.lastJob();
    expect(job.units[PROGRESS_ENCODER_STEP]).toBeGreaterThan(0);
    expect(job.workMs).toBeCloseTo(job.predictedMs, 3);
  });
});
