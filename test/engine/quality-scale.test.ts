import { describe, expect, it } from 'vitest';
import { encoderQuality, libjpegTurboQuality } from '../../src/image/quality-scale';

const FORMATS = ['jpeg', 'webp', 'png', 'avif'] as const;

describe('one quality scale', () => {
  it('keeps 100 at 100 (lossless PNG, the finest JPEG and WebP) everywhere', () => {
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

  it('gives the encoder quality of the same look on both metrics (docs/benchmarks.md)', () => {
    // mozjpeg q80 (the service's scale) measured butteraugli 1.181 and SSIMULACRA2 77.11: jpegli reaches
    // them at about 72, WebP at 78 and 84, lossy PNG at 92 and 88.
    expect(encoderQuality('jpeg', 80)).toBe(72);
    expect(encoderQuality('webp', 80)).toBe(81);
    expect(encoderQuality('png', 80)).toBe(90);
    expect(encoderQuality('png', 50)).toBe(67);
    expect(encoderQuality('jpeg', 15)).toBe(8);
    expect(encoderQuality('webp', 98)).toBe(98);
    // AVIF (libaom speed 6, 4:4:4, tune=iq) reaches them at about 51 and 54, and mozjpeg q30's at 29 and 27.
    expect(encoderQuality('avif', 80)).toBe(53);
    expect(encoderQuality('avif', 30)).toBe(28);
  });

  it("gives libjpeg-turbo (the widest JPEGs) back the service quality of jpegli's, so the look does not change with the encoder", () => {
    // jpegli's scale is coarser at the low end, where two service qualities can share one jpegli quality.
    for (let q = 1; q <= 100; q++) expect(Math.abs(libjpegTurboQuality(encoderQuality('jpeg', q)) - q), `${q}`).toBeLessThanOrEqual(1);
    expect(libjpegTurboQuality(encoderQuality('jpeg', 80))).toBe(80);
    let previous = 0;
    for (let q = 1; q <= 100; q++) {
      const turbo = libjpegTurboQuality(q);
      expect(turbo).toBeGreaterThanOrEqual(Math.max(1, previous));
      previous = turbo;
    }
  });
});
