// Photos over 1 MB for the examples' test, made from the small photo in the fixtures (Chelsea the cat, CC0)
// so that no large file is committed: its pixels tiled into a bigger PNG, and that PNG turned into a JPEG
// by the Worker itself.
import { deflateSync, inflateSync } from 'node:zlib';
import { Squeeze } from '@squeeze-edge/client';
import { fixture } from './fixtures';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The RGB pixels of an 8-bit RGB, non-interlaced PNG (the fixture's kind), rows unfiltered. */
function rgbPixels(png: Uint8Array): { width: number; height: number; rows: Buffer[] } {
  const bytes = Buffer.from(png);
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      if (data[8] !== 8 || data[9] !== 2 || data[12] !== 0) throw new Error('expected an 8-bit RGB, non-interlaced PNG');
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  const rows: Buffer[] = [];
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= 3 ? line[x - 3]! : 0;
      const b = previous[x]!;
      const c = x >= 3 ? previous[x - 3]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      line[x] = (line[x]! + [0, a, b, (a + b) >> 1, paeth][filter]!) & 255;
    }
    rows.push(line);
    previous = line;
  }
  return { width, height, rows };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** The fixture photo tiled `across` × `down` times (every other tile mirrored, so no seam repeats exactly) as one PNG. */
export function tiledPhotoPng(across: number, down: number): Uint8Array {
  const { width, height, rows } = rgbPixels(fixture('api/chelsea.png'));
  const mirrored = rows.map((row) => {
    const out = Buffer.alloc(row.length);
    for (let x = 0; x < width; x++) row.copy(out, (width - 1 - x) * 3, x * 3, x * 3 + 3);
    return out;
  });
  const lines: Buffer[] = [];
  for (let ty = 0; ty < down; ty++) {
    for (let y = 0; y < height; y++) {
      const source = ty % 2 ? height - 1 - y : y;
      lines.push(Buffer.from([0]), ...Array.from({ length: across }, (_, tx) => (tx % 2 ? mirrored : rows)[source]!));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width * across, 0);
  ihdr.writeUInt32BE(height * down, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(lines))), chunk('IEND', Buffer.alloc(0))]));
}

/** A JPEG photo over 1 MiB, and the PNG it was made from (over 1 MiB too), the JPEG made by the Worker at `baseUrl`. */
export async function bigPhotos(baseUrl: string, apiKey: string): Promise<{ jpeg: Uint8Array; png: Uint8Array }> {
  const png = tiledPhotoPng(7, 6);
  const { image: jpeg } = await new Squeeze({ apiKey, baseUrl }).compress(png, { format: 'jpeg', quality: 95 });
  for (const [name, bytes] of Object.entries({ png, jpeg })) if (bytes.length <= 1_048_576) throw new Error(`the ${name} photo is only ${bytes.length} bytes`);
  return { jpeg, png };
}
