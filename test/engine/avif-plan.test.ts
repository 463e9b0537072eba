import { describe, expect, it } from 'vitest';
import { planAvif } from '../../src/image/wasm/avif-plan';
import { encoderQuality } from '../../src/image/quality-scale';

/**
 * libaom's speed by output size (avif-plan.ts). bench:quality's AVIF comparison found the photos above 8 MP, then coded at
 * speed 8, at 0.954 (bryce-4000, 8.6 MP) and 0.927 (wood-3072, 9.4 MP) of our WebP's bytes at equal SSIMULACRA2, past
 * issue 22's 0.90; with libaom's SIMD the CPU model's speed 7 costs 1.5 s per megapixel of noise, 24 s at 16 MP,
 * within a key's 45 s.
 */
describe('AVIF speed by output size', () => {
  const asked = encoderQuality('avif', 80);
  it.each([
    ['a 4 MP photo', 2448, 1632, 6],
    ['a 4.1 MP photo', 2560, 1600, 7],
    ['bryce-4000 (8.6 MP)', 4000, 2156, 7],
    ['wood-3072 (9.4 MP)', 3072, 3072, 7],
    ['a 16 MP photo', 4898, 3265, 7],
    ['a 24 MP photo', 6000, 4000, 9],
  ] as const)('%s at speed %i', (_, width, height, speed) => {
    expect(planAvif(width, height, asked).speed).toBe(speed);
  });
});
