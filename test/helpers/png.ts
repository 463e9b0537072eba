import { cat, pngChunk } from '../container/synth';

/**
 * PNG files made in the test, so that no large file is committed: one assembly of the container
 * (pngFile), and the images the tests draw with it.
 */

/** The colour type of 1 (grey), 2 (grey + alpha), 3 (RGB) and 4 (RGBA) channels. */
export const COLOUR_TYPES = [0, 0, 4, 2, 6] as const;

export interface PngHeader {
  width: number;
  height: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colourType: number;
  bitDepth?: number;
  interlaced?: boolean;
}

/**
 * A PNG file: IHDR, the `chunks` given (PLTE, ancillary chunks), the zlib data in IDAT chunks of at most
 * 1 MiB, IEND. Every chunk's CRC is right (container/synth.ts's pngChunk).
 */
export function pngFile(header: PngHeader, zlibData: Uint8Array, chunks: Uint8Array[] = []): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, header.width);
  view.setUint32(4, header.height);
  ihdr.set([header.bitDepth ?? 8, header.colourType, 0, 0, header.interlaced ? 1 : 0], 8);
  const idats: Uint8Array[] = [];
  for (let at = 0; at < zlibData.length; at += 1 << 20) idats.push(pngChunk('IDAT', zlibData.subarray(at, at + (1 << 20))));
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return cat(signature, pngChunk('IHDR', ihdr), ...chunks, ...idats, pngChunk('IEND', new Uint8Array(0)));
}

/**
 * An uncompressed (stored-deflate) 8-bit PNG of any size. The pixels are a gradient with a little
 * hashed noise, like a photo's grain.
 */
export function syntheticPng(width: number, height: number, alpha: boolean): Uint8Array {
  return pixelPng(width, height, alpha ? 4 : 3, (x, y) => {
    const noise = (Math.imul(x * 73856093 ^ y * 19349663, 2654435761) >>> 27) - 16;
    const rgb = [(x * 255) / width + noise, (y * 255) / height + noise, ((x + y) * 127) / (width + height) + noise];
    return alpha ? [...rgb, (x * 255) / width] : rgb;
  });
}

/**
 * An 8-bit PNG (1 grey, 2 grey+alpha, 3 RGB or 4 RGBA channels) of the samples pixel(x, y)
 * gives, stored as a Uint8Array stores numbers (truncated, modulo 256).
 */
export function pixelPng(width: number, height: number, channels: 1 | 2 | 3 | 4, pixel: (x: number, y: number) => number[]): Uint8Array {
  const stride = width * channels + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * stride + 1 + x * channels);
  }
  return pngFile({ width, height, colourType: COLOUR_TYPES[channels] }, zlibStored(raw));
}

/** zlib data of `data` in stored (uncompressed) deflate blocks: fast, and any size. */
export function zlibStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = new Uint8Array(2 + data.length + blocks * 5 + 4);
  out.set([0x78, 0x01]);
  let at = 2;
  for (let i = 0; i < blocks; i++) {
    const chunk = data.subarray(i * 65535, (i + 1) * 65535);
    out[at] = i === blocks - 1 ? 1 : 0;
    out[at + 1] = chunk.length & 0xff;
    out[at + 2] = chunk.length >> 8;
    out[at + 3] = ~chunk.length & 0xff;
    out[at + 4] = (~chunk.length >> 8) & 0xff;
    out.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; i++) {
    a = (a + data[i]!) % 65521;
    b = (b + a) % 65521;
  }
  new DataView(out.buffer).setUint32(at, ((b << 16) | a) >>> 0);
  return out;
}
