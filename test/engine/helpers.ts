import decodePng, { init as initPngDecoder } from '@jsquash/png/decode.js';
// @ts-expect-error wasm-bindgen's .d.ts types the instance; wrangler imports the compiled module
import pngWasm from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm';
import decodeWebp, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import webpDecoderWasm from '@jsquash/webp/codec/dec/webp_dec.wasm';
import engineWasm from '../../codecs/dist/engine.wasm';
import { readHeader } from '../../src/image/header/read-header';
import type { ImageFormat, OutputSpec } from '../../src/image/types';
import { createWasmEngine, type WasmEngine } from '../../src/image/wasm';
import { fixture } from '../helpers/fixtures';

/** A fresh engine on the committed module: its memory is this test's alone. */
export function freshEngine(): WasmEngine {
  return createWasmEngine(engineWasm);
}

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
