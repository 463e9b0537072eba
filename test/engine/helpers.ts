import decodeJpeg, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import jpegDecoderWasm from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm';
import decodePng, { init as initPngDecoder } from '@jsquash/png/decode.js';
// @ts-expect-error wasm-bindgen's .d.ts types the instance; wrangler imports the compiled module
import pngWasm from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm';
import decodeWebp, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import webpDecoderWasm from '@jsquash/webp/codec/dec/webp_dec.wasm';
import engineWasm from '../../codecs/dist/engine.wasm';
import { readHeader } from '../../src/image/header/read-header';
import type { ImageFormat, ImageHeader, OutputSpec } from '../../src/image/types';
import { createWasmEngine, type WasmEngine } from '../../src/image/wasm';
import { type EncoderPlan, planEncoder } from '../../src/image/wasm/memory-model';
import { fixture } from '../helpers/fixtures';

/** A fresh engine on the committed module: its memory is this test's alone, and each job runs on a fresh instance. */
export function freshEngine(plan?: (header: ImageHeader, out: OutputSpec) => EncoderPlan): WasmEngine {
  return createWasmEngine(engineWasm, { plan, retireAfterBytes: 0 });
}

/** The service's plan with the output planned for its worst case (binary noise), as the memory terms were measured. */
export const worstCasePlan = (header: ImageHeader, out: OutputSpec): EncoderPlan => ({ ...planEncoder(header, out), worstCaseOutput: true });

/** A pinned JPEG plan whatever the size (libjpeg-turbo baseline: the encoder cjpeg has). */
export const jpegPlan = (jpeg: EncoderPlan['jpeg']) => (): EncoderPlan => ({ jpeg, ownWebpAlpha: false, webpLowMemory: false });

/** Transcodes a fixture of test/fixtures/engine; size defaults to the input's. */
export async function transcodeFixture(
  engine: WasmEngine,
  name: string,
  out: Partial<OutputSpec> & { format: ImageFormat },
): Promise<Uint8Array> {
  const input = await fixture(`engine/${name}`);
  const header = readHeader(input);
  return engine.transcode(input, header, { quality: 80, width: header.width, height: header.height, ...out });
}

let pngReady: Promise<unknown> | undefined;
let webpReady: Promise<unknown> | undefined;
let jpegDecoderReady: Promise<unknown> | undefined;

/** RGBA pixels of a JPEG by jSquash's decoder. */
export async function referenceJpegPixels(bytes: Uint8Array): Promise<Uint8ClampedArray> {
  await (jpegDecoderReady ??= initJpegDecoder(jpegDecoderWasm));
  return (await decodeJpeg(bytes.slice().buffer)).data;
}

/** RGBA pixels by jSquash's decoders: an independent reference for ours. */
export async function referencePixels(bytes: Uint8Array, format: 'png' | 'webp'): Promise<Uint8ClampedArray> {
  const buffer = bytes.slice().buffer;
  if (format === 'png') {
    await (pngReady ??= initPngDecoder(pngWasm));
    return (await decodePng(buffer)).data;
  }
  await (webpReady ??= initWebpDecoder(webpDecoderWasm));
  return (await decodeWebp(buffer)).data;
}

/** The largest difference between two RGBA buffers of the same size. */
export function maxDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}
