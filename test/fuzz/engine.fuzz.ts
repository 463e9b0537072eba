import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { compressImage } from '../../src/image/pipeline';
import type { ImageFormat } from '../../src/image/types';
import { fixture } from '../helpers/api';
import { mutate } from '../helpers/crafted';
import { statusesThroughApi } from '../helpers/fuzz';

const INPUTS = 10_000;
const API_SAMPLE = 300;
/** Seeds of every input format and kind: baseline/progressive JPEG, PNG of several types, WebP lossy/lossless/alpha. */
const SEEDS = [
  'engine/testorig.jpg',
  'engine/progressive.jpg',
  'engine/testimgari.jpg',
  'engine/grey.jpg',
  'engine/pngsuite/z00n2c08.png',
  'engine/pngsuite/basn6a08.png',
  'engine/pngsuite/basn0g08.png',
  'engine/pngsuite/tbbn3p08.png',
  'engine/test.webp',
  'engine/lossy_alpha4.webp',
  'engine/one_color_no_palette.webp',
  'engine/lossless1.webp',
];

describe('fuzz: mutated inputs of every format', () => {
  it(`never crashes, hangs or answers 5xx over ${INPUTS} inputs, and the engine keeps working`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(name)));
    const outcomes: Record<string, number> = {};
    const failures: string[] = [];
    let slowest = 0;
    for (let n = 0; n < INPUTS; n++) {
      const input = mutate(seeds[n % seeds.length]!, n);
      const started = performance.now();
      try {
        const result = await compressImage(input, { quality: 75, format: (['auto', 'jpeg', 'png', 'webp'] as const)[n % 4]!, acceptsWebp: false });
        outcomes.ok = (outcomes.ok ?? 0) + 1;
        expect(result.bytes.length).toBeGreaterThan(0);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) failures.push(`input ${n} (seed ${SEEDS[n % seeds.length]}): ${err}`);
        else outcomes[err.code] = (outcomes[err.code] ?? 0) + 1;
      }
      slowest = Math.max(slowest, performance.now() - started);
      if (n % 500 === 499) {
        const check = await compressImage(seeds[0]!, { quality: 75, format: 'webp', acceptsWebp: false });
        expect(check.format).toBe<ImageFormat>('webp');
      }
    }
    console.log(`fuzz: ${INPUTS} inputs, outcomes ${JSON.stringify(outcomes)}, slowest ${slowest.toFixed(0)} ms`);
    expect(failures).toEqual([]);
  });

  it(`answers a sample of ${API_SAMPLE} through the API with 200 or a JSON 4xx`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(name)));
    const statuses = await statusesThroughApi(API_SAMPLE, (n) => mutate(seeds[n % seeds.length]!, n * 31 + 7));
    console.log(`fuzz via API: ${JSON.stringify(statuses)}`);
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
  });
});
