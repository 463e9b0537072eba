import { expect } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { readHeader } from '../../src/image/header/read-header';
import type { OutputFormat, OutputSpec } from '../../src/image/types';
import type { WasmEngine } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { cat, pngChunk, text } from '../container/synth';
import { type JpegComponent, craftedJpeg, flatLosslessWebp, iccBombChunk, prng, samplePng, zlib } from './crafted';

const MiB = 1_048_576;

/**
 * Random jobs aimed at the memory model (issue 11): inputs of every kind the model distinguishes
 * (PNG of every colour type, depth and interlacing; JPEG of any sampling layout, progressive or in
 * several scans; lossy and lossless WebP, with alpha or not), contents that are worst for the encoders
 * (uniform and binary noise, a repeated noise tile) or best (flat), sizes from a few pixels to
 * `maxPixels` with extreme aspect ratios, and any output format, quality, size and orientation.
 * Deterministic from the case number, so a failing case can be rebuilt alone.
 */
export interface ModelCase {
  name: string;
  /** The input, or how to make it (a WebP is encoded by the engine under test from a PNG). */
  input: { png: Promise<Uint8Array> } | { jpeg: Uint8Array } | { webpFrom: Promise<Uint8Array>; alpha: boolean; quality: number } | { webp: Uint8Array };
  /** The job: size as a share of the input's (the caller fits it), format, quality, orientation. */
  out: { format: OutputFormat; quality: number; scale: number; orientation: number };
}

const CONTENTS = ['noise', 'binary', 'tile', 'flat', 'gradient'] as const;

function sampler(content: (typeof CONTENTS)[number], seed: number, top: number): (x: number, y: number, c: number) => number {
  const random = prng(seed);
  const tile = Array.from({ length: 64 * 64 * 4 }, () => (random() * top) | 0);
  switch (content) {
    case 'noise':
      return () => (random() * top) | 0;
    case 'binary':
      return () => (random() < 0.5 ? 0 : top - 1);
    case 'tile':
      return (x, y, c) => tile[((y % 64) * 64 + (x % 64)) * 4 + c]!;
    case 'flat':
      return () => top >> 1;
    case 'gradient':
      return (x, y, c) => ((x * 7 + y * 3 + c * 50) % top) | 0;
  }
}

export function modelCase(n: number, maxPixels: number): ModelCase {
  const random = prng(n * 2654435761 + 12345);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // Log-uniform pixel counts; one case in six is a sliver of extreme aspect ratio.
  const pixels = Math.round(Math.exp(Math.log(16) + random() * (Math.log(maxPixels) - Math.log(16))));
  const aspect = random() < 1 / 6 ? Math.exp((random() - 0.5) * 12) : Math.exp((random() - 0.5) * 1.5);
  const width = Math.max(1, Math.min(16383, Math.round(Math.sqrt(pixels * aspect))));
  const height = Math.max(1, Math.min(16383, Math.round(pixels / width)));
  const content = pick(CONTENTS);
  const out = {
    format: pick(['jpeg', 'png', 'webp', 'avif'] as const),
    quality: random() < 0.25 ? 100 : 1 + Math.floor(random() * 100),
    scale: random() < 0.5 ? 1 : random(),
    orientation: random() < 0.6 ? 1 : 1 + Math.floor(random() * 8),
  };
  const kind = pick(['png', 'png', 'jpeg', 'jpeg', 'webp-lossy', 'webp-lossless'] as const);
  const name = `case ${n}: ${kind} ${width}x${height} ${content} -> ${out.format} q${out.quality} x${out.scale.toFixed(2)} o${out.orientation}`;

  if (kind === 'png') {
    const isPalette = random() < 0.15;
    const channels = isPalette ? 1 : pick([1, 2, 3, 4] as const);
    const bitDepth = !isPalette && random() < 0.2 ? 16 : 8;
    const interlaced = random() < 0.25;
    const sample = sampler(content, n, isPalette ? 256 : bitDepth === 16 ? 65536 : 256);
    // One PNG in eight carries a zlib bomb in an iCCP or zTXt chunk that libspng keeps while decoding.
    const bomb = random() < 0.125 ? { type: pick(['iCCP', 'zTXt'] as const), inflated: Math.floor(random() * 2_500_000) + 1 } : undefined;
    const png = (async () => {
      const extra = !bomb ? [] : bomb.type === 'iCCP' ? [await iccBombChunk(bomb.inflated)] : [pngChunk('zTXt', cat(text('Comment\0'), Uint8Array.of(0), await zlib([new Uint8Array(bomb.inflated)])))];
      const palette = isPalette ? Uint8Array.from({ length: 768 }, (_, i) => (i * 37) & 0xff) : undefined;
      return samplePng(width, height, { channels, bitDepth, interlaced, palette, extra }, sample);
    })();
    const described = `${channels}ch ${bitDepth}b${interlaced ? ' Adam7' : ''}${isPalette ? ' palette' : ''}${bomb ? ` ${bomb.type} of ${bomb.inflated} B` : ''}`;
    return { name: `${name} (${described})`, input: { png }, out };
  }
  if (kind === 'jpeg') {
    const count = pick([1, 3, 3, 3, 4]);
    const layouts: JpegComponent[][] = [
      [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }],
      [{ h: 1, v: 1 }, { h: 1, v: 1 }, { h: 1, v: 1 }],
      [{ h: 2, v: 1 }, { h: 1, v: 1 }, { h: 1, v: 1 }],
    ];
    const components =
      count === 3 && random() < 0.5
        ? pick(layouts)
        : Array.from({ length: count }, () => ({ h: pick([1, 2, 4]), v: pick([1, 2, 4]) }));
    const progressive = random() < 0.5;
    const scanPerComponent = !progressive && random() < 0.3;
    const layout = components.map((c) => `${c.h}x${c.v}`).join(',');
    return {
      name: `${name} (${layout}${progressive ? ' progressive' : scanPerComponent ? ' multi-scan' : ''})`,
      input: { jpeg: craftedJpeg({ width, height, components, progressive, scanPerComponent, seed: content === 'flat' ? undefined : n }) },
      out,
    };
  }
  if (kind === 'webp-lossless') return { name, input: { webp: flatLosslessWebp(Math.min(width, 16384), Math.min(height, 16384)) }, out };
  const alpha = random() < 0.4;
  const channels = alpha ? 4 : 3;
  const sample = sampler(content, n, 256);
  return {
    name: `${name}${alpha ? ' (alpha)' : ''}`,
    input: { webpFrom: samplePng(width, height, { channels }, sample), alpha, quality: 1 + Math.floor(random() * 100) },
    out,
  };
}

/** The output size for a case: `scale` of the input as displayed (orientations 5 to 8 turn it), at least 1x1. */
export function caseSize(width: number, height: number, out: ModelCase['out']): Pick<OutputSpec, 'width' | 'height'> {
  const [w, h] = out.orientation >= 5 ? [height, width] : [width, height];
  return { width: Math.max(1, Math.round(w * out.scale)), height: Math.max(1, Math.round(h * out.scale)) };
}

/** Measured peak (the job's WASM heap top + its output buffer) against the model (with the engine's plan), for a job the model admits. */
export async function checkJob(engineUnderTest: WasmEngine, input: Uint8Array, out: OutputSpec, name: string): Promise<{ measured: number; predicted: number }> {
  const header = readHeader(input);
  const predicted = engineUnderTest.estimatePeakBytes(header, out);
  expect(predicted, `${name}: admitted`).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
  await engineUnderTest.transcode(input, header, out);
  const { wasmBytes, outputBufferBytes } = engineUnderTest.lastJob();
  const measured = wasmBytes + outputBufferBytes;
  expect(measured, `${name}: measured ${(measured / MiB).toFixed(2)} MiB, predicted ${(predicted / MiB).toFixed(2)} MiB`).toBeLessThanOrEqual(predicted);
  return { measured, predicted };
}

/**
 * Runs case `n` on `engineUnderTest` when the model admits it, checking measured <= predicted; says what
 * became of it: done, refused from the header, undecodable (a legal JPEG layout libjpeg cannot upsample),
 * or stopped (413) while it ran, never past the budget: output is planned for honest images, so content
 * worse than the input's density promised is stopped at the plan or the engine's memory cap.
 */
export async function runModelCase(engineUnderTest: WasmEngine, n: number, maxPixels: number): Promise<'ok' | 'refused' | 'undecodable' | 'stopped'> {
  const c = modelCase(n, maxPixels);
  engineUnderTest.takePeak();
  try {
    let input: Uint8Array;
    if ('png' in c.input) input = await c.input.png;
    else if ('jpeg' in c.input) input = c.input.jpeg;
    else if ('webp' in c.input) input = c.input.webp;
    else {
      // Made by the engine too: noise can outgrow the WebP output planned for it, and is stopped like any job.
      const source = await c.input.webpFrom;
      const header = readHeader(source);
      input = await engineUnderTest.transcode(source, header, { format: 'webp', quality: c.input.quality, width: header.width, height: header.height });
    }
    const header = readHeader(input);
    const out: OutputSpec = { format: c.out.format, quality: c.out.quality, orientation: c.out.orientation, ...caseSize(header.width, header.height, c.out) };
    if (engineUnderTest.estimatePeakBytes(header, out) > ENGINE_BUDGET_BYTES) return 'refused';
    engineUnderTest.takePeak();
    await checkJob(engineUnderTest, input, out, c.name);
  } catch (error) {
    // libjpeg refuses some legal layouts (sampling it cannot upsample); anything else is a failure.
    if (error instanceof ApiError && error.code === 'unsupported_image') return 'undecodable';
    if (error instanceof ApiError && error.code === 'image_too_large') {
      expect(engineUnderTest.takePeak(), `${c.name}: stopped within the budget`).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
      return 'stopped';
    }
    throw error;
  }
  return 'ok';
}
