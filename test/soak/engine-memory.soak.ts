import { describe, expect, it } from 'vitest';
import { wasmEngine } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { call, createKey, fixture, form } from '../helpers/api';
import { syntheticPng } from '../helpers/png';

const REQUESTS = 2000;
const MIB = 1_048_576;

/** Good images of every format and size class, and hostile ones that fail inside or before the codecs. */
const GOOD: string[] = ['engine/testorig.jpg', 'api/chelsea.png', 'engine/test.webp', 'engine/lossy_alpha4.webp', 'engine/pngsuite/basn6a08.png', 'engine/pngsuite/z00n2c08.png'];
const HOSTILE = ['bad/jpeg-truncated.jpg', 'bad/png-truncated.png', 'bad/png-bomb-valid-16000x16000.png', 'bad/jpeg-bomb-header-65000x65000.jpg', 'bad/xcsn0g01.png', 'bad/two-frames.webp'];
const OPTIONS = [{}, { format: 'webp' }, { format: 'jpeg', quality: '60' }, { format: 'png' }, { maxWidth: '64' }];

/** Damages a copy of good data past its header, so the codec itself meets the error. */
function corrupt(bytes: Uint8Array, seed: number): Uint8Array {
  const copy = bytes.slice();
  for (let i = 0; i < 16; i++) {
    const at = 64 + ((seed * 7919 + i * 104729) % (copy.length - 64));
    copy[at] = copy[at]! ^ 0xff;
  }
  return copy;
}

describe('soak: one isolate, mixed requests', () => {
  it(`keeps the engine's memory within the budget over ${REQUESTS} requests, without creep`, async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => createKey('business')));
    const files: Record<string, Uint8Array> = Object.fromEntries(await Promise.all([...GOOD, ...HOSTILE].map(async (n) => [n, await fixture(n)] as const)));
    // Photo-sized images, so the engine's memory is exercised at a realistic scale.
    files['synth/2mp.png'] = syntheticPng(1800, 1200, false);
    files['synth/1mp-alpha.png'] = syntheticPng(1400, 1000, true);
    GOOD.push('synth/2mp.png', 'synth/1mp-alpha.png');
    const highWater: number[] = [];
    const statuses: Record<number, number> = {};
    for (let i = 0; i < REQUESTS; i++) {
      const roll = i % 10;
      const name = roll < 6 ? GOOD[i % GOOD.length]! : HOSTILE[i % HOSTILE.length]!;
      const bytes = roll === 9 ? corrupt(files[GOOD[i % GOOD.length]!]!, i) : files[name]!;
      const response = await call('/v1/compress', {
        method: 'POST',
        headers: { 'X-API-Key': keys[i % keys.length]!.key },
        body: form('file', bytes, OPTIONS[i % OPTIONS.length] as Record<string, string>),
      });
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      await response.arrayBuffer();
      highWater.push(wasmEngine.memoryBytes());
    }
    const half = Math.floor(REQUESTS / 2);
    const firstHalf = Math.max(...highWater.slice(0, half));
    const secondHalf = Math.max(...highWater.slice(half));
    console.log(
      `soak: ${REQUESTS} requests, statuses ${JSON.stringify(statuses)}, engine memory high-water ` +
        `${(firstHalf / MIB).toFixed(1)} MiB (first half) / ${(secondHalf / MIB).toFixed(1)} MiB (second half), budget ${ENGINE_BUDGET_BYTES / MIB} MiB`,
    );
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
    expect(Math.max(firstHalf, secondHalf)).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
    expect(secondHalf).toBeLessThanOrEqual(firstHalf);
  });
});
