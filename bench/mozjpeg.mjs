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

const decode = (file) => {
  const buffer = readFileSync(file).buffer;
  return file.endsWith('.png') ? decodePng(buffer) : decodeJpeg(buffer);
};

/** ms of a whole jSquash re-encode (decode + mozjpeg 4:2:0), as the jSquash engine does it. */
export async function timeJsquashMozjpeg(file, quality) {
  const start = performance.now();
  await encodeJpeg(await decode(file), { quality, auto_subsample: false, chroma_subsample: 2 });
  return performance.now() - start;
}

export async function jsquashMozjpeg(file, quality) {
  if (!decoded.has(file)) decoded.set(file, await decode(file));
  const out = await encodeJpeg(decoded.get(file), { quality, auto_subsample: false, chroma_subsample: 2 });
  return new Uint8Array(out);
}
