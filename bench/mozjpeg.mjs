// jSquash's mozjpeg at 4:2:0 (auto_subsample off), the reference the issue sets for JPEG bytes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import decodeJpeg, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import encodeJpeg, { init as initJpegEncoder } from '@jsquash/jpeg/encode.js';
import decodePng, { init as initPngDecoder } from '@jsquash/png/decode.js';

const require = createRequire(import.meta.url);
const jpegDir = dirname(require.resolve('@jsquash/jpeg/package.json'));
const pngDir = dirname(require.resolve('@jsquash/png/package.json'));
const compile = (file) => new WebAssembly.Module(readFileSync(file));

await initJpegDecoder(compile(join(jpegDir, 'codec/dec/mozjpeg_dec.wasm')));
await initJpegEncoder(compile(join(jpegDir, 'codec/enc/mozjpeg_enc.wasm')));
await initPngDecoder(compile(join(pngDir, 'codec/pkg/squoosh_png_bg.wasm')));

const decoded = new Map();

export async function jsquashMozjpeg(file, quality) {
  if (!decoded.has(file)) {
    const buffer = readFileSync(file).buffer;
    decoded.set(file, file.endsWith('.png') ? await decodePng(buffer) : await decodeJpeg(buffer));
  }
  const out = await encodeJpeg(decoded.get(file), { quality, auto_subsample: false, chroma_subsample: 2 });
  return new Uint8Array(out);
}
