import { describe, expect, it } from 'vitest';
import { encoderQuality } from '../../src/image/quality-scale';

const FORMATS = ['jpeg', 'webp', 'png'] as const;

describe('one quality scale', () => {
  it('is mozjpeg quality for JPEG, and 100 stays 100 (lossless PNG) everywhere', () => {
    for (let q = 1; q <= 100; q++) expect(encoderQuality('jpeg', q)).toBe(q);
    for (const format of FORMATS) expect(encoderQuality(format, 100)).toBe(100);
  });

  it('maps every quality into 1..99 (PNG below 100 is lossy) and never lowers the encoder quality as it rises', () => {
    for (const format of FORMATS) {
      let previous = 0;
      for (let q = 1; q < 100; q++) {
        const mapped = encoderQuality(format, q);
        expect(mapped).toBeGreaterThanOrEqual(Math.max(1, previous));
        expect(mapped).toBeLessThanOrEqual(99);
        previous = mapped;
      }
    }
  });

  it('gives the encoder quality of the same butteraugli distance (docs/benchmarks.md)', () => {
    // JPEG q80 measured 1.181: WebP reaches it at about 78, lossy PNG at about 92.
    expect(encoderQuality('webp', 80)).toBe(78);
    expect(encoderQuality('png', 80)).toBe(92);
    expect(encoderQuality('png', 50)).toBe(76);
  });
});
