import decodeJpeg, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import encodeJpeg, { init as initJpegEncoder } from '@jsquash/jpeg/encode.js';
import jpegDecoderWasm from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm';
import jpegEncoderWasm from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm';
import optimisePng, { init as initOxipng } from '@jsquash/oxipng/optimise.js';
// @ts-expect-error wasm-bindgen's .d.ts types the instance; wrangler imports the compiled module
import oxipngWasm from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm';
import decodePng, { init as initPngDecoder } from '@jsquash/png/decode.js';
// @ts-expect-error wasm-bindgen's .d.ts types the instance; wrangler imports the compiled module
import pngWasm from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm';
import resize, { initResize } from '@jsquash/resize';
// @ts-expect-error wasm-bindgen's .d.ts types the instance; wrangler imports the compiled module
import resizeWasm from '@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm';
import decodeWebp, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import encodeWebp, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import webpDecoderWasm from '@jsquash/webp/codec/dec/webp_dec.wasm';
import webpEncoderWasm from '@jsquash/webp/codec/enc/webp_enc_simd.wasm';
import { ApiError } from '../../errors/api-error';
import type { ImageEngine } from '../engine';
import type { ImageFormat, ImageHeader, OutputSpec } from '../types';
import { flattenOntoWhite } from './flatten-alpha';

const MIB = 1_048_576;
/** Each emscripten or wasm-bindgen codec instance starts with its own heap (memory-and-codecs.md). */
const CODEC_BASE_BYTES = 16 * MIB;
/** Measured bytes per decoded pixel (memory-and-codecs.md "jSquash"). */
const DECODE_BYTES_PER_PIXEL = { baselineJpeg: 4, progressiveJpeg: 10, other: 4 };
const RGBA_COPY_BYTES_PER_PIXEL = 4;
const RESIZE_BYTES_PER_PIXEL = 8;
const ENCODE_BYTES_PER_PIXEL: Record<ImageFormat, number> = { jpeg: 16, webp: 16, png: 16 };

/** Codecs are initialised on first use only: a health check or a refused request compiles nothing. */
const ready = new Map<string, Promise<unknown>>();
function once(name: string, init: () => Promise<unknown>): Promise<unknown> {
  let promise = ready.get(name);
  if (!promise) ready.set(name, (promise = init()));
  return promise;
}

async function decode(input: Uint8Array, format: ImageFormat): Promise<ImageData> {
  const buffer = input.slice().buffer;
  switch (format) {
    case 'jpeg':
      await once('jpeg-dec', () => initJpegDecoder(jpegDecoderWasm));
      return decodeJpeg(buffer);
    case 'png':
      await once('png-dec', () => initPngDecoder(pngWasm));
      return decodePng(buffer);
    case 'webp':
      await once('webp-dec', () => initWebpDecoder(webpDecoderWasm));
      return decodeWebp(buffer);
  }
}

async function encode(image: ImageData, header: ImageHeader, out: OutputSpec): Promise<ArrayBuffer> {
  switch (out.format) {
    case 'jpeg':
      await once('jpeg-enc', () => initJpegEncoder(jpegEncoderWasm));
      return encodeJpeg(header.hasAlpha ? flattenOntoWhite(image) : image, {
        quality: out.quality,
        // 4:2:0 as sharp does: mozjpeg's auto choice of 4:2:2 costs 14 % more bytes (memory-and-codecs.md).
        auto_subsample: false,
        chroma_subsample: 2,
        color_space: header.grey ? 1 : 3,
      });
    case 'webp':
      await once('webp-enc', () => initWebpEncoder(webpEncoderWasm));
      return encodeWebp(image, { quality: out.quality });
    case 'png':
      await once('oxipng', () => initOxipng(oxipngWasm));
      // oxipng reduces colour type, bit depth and palette losslessly; level 2 is the measured sweet spot.
      return optimisePng(image, { level: 2, optimiseAlpha: true });
  }
}

/**
 * The whole-frame jSquash engine of the foundation: decode the full image, resize, encode.
 * Its memory grows with the image, so the model admits only a few megapixels.
 */
export const jsquashEngine: ImageEngine = {
  estimatePeakBytes(header: ImageHeader, out: OutputSpec): number {
    const inPixels = header.width * header.height;
    const outPixels = out.width * out.height;
    const decodeBytes =
      header.format === 'jpeg' && header.progressive
        ? DECODE_BYTES_PER_PIXEL.progressiveJpeg
        : header.format === 'jpeg'
          ? DECODE_BYTES_PER_PIXEL.baselineJpeg
          : DECODE_BYTES_PER_PIXEL.other;
    const resizes = outPixels !== inPixels;
    return (
      3 * CODEC_BASE_BYTES +
      inPixels * (decodeBytes + RGBA_COPY_BYTES_PER_PIXEL) +
      (resizes ? (inPixels + outPixels) * RESIZE_BYTES_PER_PIXEL : 0) +
      outPixels * ENCODE_BYTES_PER_PIXEL[out.format]
    );
  },

  async transcode(input: Uint8Array, header: ImageHeader, out: OutputSpec): Promise<Uint8Array> {
    let image: ImageData;
    try {
      image = await decode(input, header.format);
    } catch (err) {
      throw new ApiError('unsupported_image', `The ${header.format.toUpperCase()} data could not be decoded.`, { cause: err });
    }
    if (image.width !== out.width || image.height !== out.height) {
      await once('resize', () => initResize(resizeWasm));
      image = await resize(image, {
        width: out.width,
        height: out.height,
        method: 'lanczos3',
        premultiply: true,
        linearRGB: false,
        fitMethod: 'stretch',
      });
    }
    return new Uint8Array(await encode(image, header, out));
  },
};
