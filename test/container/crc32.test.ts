import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/image/crc32';
import { randomBytes } from '../helpers/crafted';

/** The CRC-32 the runtime's gzip writes in its trailer (RFC 1952 2.3.1): an independent reference. */
async function gzipCrc(bytes: Uint8Array): Promise<number> {
  const gz = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
  return new DataView(gz.buffer).getUint32(gz.length - 8, true);
}

describe('crc32 (slicing-by-8)', () => {
  it("is PNG's CRC-32: the check value, and gzip's over every length to 40 and offsets within a buffer", async () => {
    expect(crc32(new TextEncoder().encode('123456789'), 0, 9)).toBe(0xcbf43926);
    const data = randomBytes(70_000, 7);
    for (const [from, to] of [[0, 0], [0, 70_000], [3, 69_995], [1, 8], [5, 13], ...Array.from({ length: 41 }, (_, n) => [11, 11 + n])]) {
      expect(crc32(data, from!, to!), `[${from}, ${to})`).toBe(await gzipCrc(data.subarray(from, to)));
    }
  });
});
