import { describe, expect, it } from 'vitest';
import { baseHeader } from '../../src/image/header/header-defaults';
import { readHeader } from '../../src/image/header/read-header';
import { checkBudget, jobCost } from '../../src/image/steps/check-budget';
import { planGeometry, type GeometryRequest } from '../../src/image/steps/geometry';
import type { ImageHeader, OutputFormat, OutputSpec, Rgba } from '../../src/image/types';
import { wasmEngine } from '../../src/image/wasm';
import { DEMO_CPU_BUDGET_MS } from '../../src/limits/cpu';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { checkJob } from '../helpers/model-cases';
import { syntheticPng } from '../helpers/png';
import { freshEngine } from './helpers';

/** The job the pipeline plans for a request's geometry (pipeline.ts), as stored at orientation 1 unless given. */
function spec(header: { width: number; height: number }, format: OutputFormat, request: GeometryRequest, extra: Partial<OutputSpec> = {}): OutputSpec {
  const displayed = (extra.orientation ?? 1) >= 5 ? { width: header.height, height: header.width } : header;
  const g = planGeometry(displayed, request);
  return {
    format,
    quality: 80,
    width: g.width,
    height: g.height,
    ...(g.cropped ? { window: g.window } : {}),
    ...(g.padded ? { placed: g.placed } : {}),
    ...extra,
  };
}

const TRANSPARENT: Rgba = [0, 0, 0, 0];

describe('the memory model counts the window, the enlargement and the margins', () => {
  it('stays at or above what geometry jobs measure', async () => {
    const engine = freshEngine();
    const png = syntheticPng(1800, 1200, false);
    const jpeg = await engine.transcode(png, readHeader(png), { format: 'jpeg', quality: 90, width: 1800, height: 1200 });
    const small = syntheticPng(60, 40, true);
    const cases: Array<[string, Uint8Array, OutputSpec]> = [
      ['JPEG cover at a DCT scale', jpeg, spec({ width: 1800, height: 1200 }, 'jpeg', { width: 300, height: 300, fit: 'cover' })],
      ['JPEG cut at scale 1', jpeg, spec({ width: 1800, height: 1200 }, 'webp', { width: 600, height: 1200, fit: 'cover', gravity: { x: 1, y: 0.5 } })],
      ['JPEG cut, turned', jpeg, spec({ width: 1800, height: 1200 }, 'png', { width: 300, height: 200, fit: 'cover' }, { orientation: 6 })],
      ['PNG cut', png, spec({ width: 1800, height: 1200 }, 'jpeg', { width: 400, height: 1000, fit: 'crop' })],
      ['PNG enlarged', small, spec({ width: 60, height: 40 }, 'webp', { width: 2400, height: 1600, fit: 'contain' })],
      ['PNG enlarged to PNG', small, spec({ width: 60, height: 40 }, 'png', { width: 1500, height: 1000, fit: 'cover' })],
      ['JPEG padded with a transparent margin', jpeg, spec({ width: 1800, height: 1200 }, 'png', { width: 1000, height: 1000, fit: 'pad' }, { background: TRANSPARENT })],
      ['JPEG padded to AVIF', jpeg, spec({ width: 1800, height: 1200 }, 'avif', { width: 800, height: 800, fit: 'pad' }, { background: TRANSPARENT })],
    ];
    for (const [name, input, out] of cases) await checkJob(freshEngine(), input, out, name);
  });

  it("counts gravity=auto's job, from PNG and from JPEG, done in the transcode where what it keeps fits", async () => {
    const png = syntheticPng(1800, 1200, true);
    const jpeg = await freshEngine().transcode(png, readHeader(png), { format: 'jpeg', quality: 90, width: 1800, height: 1200 });
    // A JPEG cut to 1000x1000 is decoded at full scale: the attention job runs first, on its own 1/8 decode.
    const cases: Array<[Uint8Array, number, number]> = [[png, 300, 1], [jpeg, 300, 1], [jpeg, 1000, 2]];
    for (const [input, side, jobs] of cases) {
      const header = readHeader(input);
      const name = `${header.format} to ${side}x${side}`;
      const engine = freshEngine();
      const out = spec(header, 'jpeg', { width: side, height: side, fit: 'cover' });
      const cost = engine.estimateSubject(header, out);
      const { bytes, window } = await engine.transcodeToSubject(input, header, out);
      expect(engine.jobsStarted(), name).toBe(jobs);
      expect([window.width, window.height], name).toEqual([1200, 1200]);
      expect(readHeader(bytes).width, name).toBe(side);
      const job = engine.lastJob();
      expect(job.inputPasses, name).toBe(1);
      expect(job.wasmBytes + job.outputBufferBytes, name).toBeLessThanOrEqual(cost.peakBytes);
      // The work it reported, priced by the model, is what the model predicted (the watch's check of it), within 1 %.
      expect(job.workMs, name).toBeLessThanOrEqual(cost.cpuMs * 1.01);
      if (jobs === 1) expect(job.workMs, name).toBeGreaterThan(cost.cpuMs * 0.99);
      expect(cost.cpuMs, name).toBeLessThan(engine.estimateCpuMs(header, { format: 'jpeg', quality: 80, width: 1800, height: 1200 }) + engine.estimateCpuMs(header, out));
    }
  });
});

describe('a 48 MP photo cut to a 400x400 thumbnail is admitted as cheap', () => {
  const photo: ImageHeader = {
    ...baseHeader('jpeg', 8000, 6000),
    sampling: [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }],
    fileBytes: 9_000_000,
  };
  it('fits the demo budget, and costs about what a 400-pixel resize of the whole photo does', () => {
    const thumbnail = spec(photo, 'jpeg', { width: 400, height: 400, fit: 'cover' });
    const cost = jobCost(wasmEngine, photo, thumbnail);
    expect(() => checkBudget(photo, thumbnail, cost, DEMO_CPU_BUDGET_MS)).not.toThrow();
    expect(cost.peakBytes).toBeLessThan(ENGINE_BUDGET_BYTES / 4);
    const resized = jobCost(wasmEngine, photo, spec(photo, 'jpeg', { maxWidth: 400 }));
    expect(cost.cpuMs).toBeLessThan(resized.cpuMs * 1.5);
    expect(cost.peakBytes).toBeLessThan(resized.peakBytes * 1.5);
  });

  it('still refuses an enlargement past the budget, from the header', () => {
    const tiny = baseHeader('png', 60, 40);
    const huge = spec(tiny, 'png', { width: 12000, height: 8000, fit: 'contain' });
    expect(jobCost(wasmEngine, tiny, huge).peakBytes).toBeGreaterThan(ENGINE_BUDGET_BYTES);
  });
});
