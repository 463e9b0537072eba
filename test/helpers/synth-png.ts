import { crc32 } from '../../src/image/header/crc32';

/** An RGB (or RGBA) PNG of any size made in the test: a photo-like gradient with noise, deflated by the runtime. */
export async function synthPng(width: number, height: number, alpha = false): Promise<Uint8Array> {
  const channels = alpha ? 4 : 3;
  const raw = new Uint8Array((width * channels + 1) * height);
  let seed = 1;
  for (let y = 0, at = 0; y < height; y++) {
    raw[at++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const noise = (seed >>> 24) & 15;
      raw[at++] = ((x * 255) / width + noise) & 255;
      raw[at++] = ((y * 255) / height + noise) & 255;
      raw[at++] = (((x + y) * 127) / (width + height) + noise) & 255;
      if (alpha) raw[at++] = x < width / 2 ? 255 : (y * 255) / height;
    }
  }
  const idat = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, alpha ? 6 : 2, 0, 0, 0], 8);
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set([...type].map((c) => c.charCodeAt(0)), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
