import { describe, expect, it } from 'vitest';
import { exifOrientation, minimalExif } from '../../src/image/container/exif';
import { LANDSCAPE_6_EXIF, cat, hex, text, tiffWithGps } from './synth';

describe('exifOrientation', () => {
  it('reads a real big-endian APP1 payload (Exif identifier, MM)', () => {
    expect(exifOrientation(LANDSCAPE_6_EXIF)).toBe(6);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads orientation %i from a little-endian TIFF with other tags', (n) => {
    expect(exifOrientation(tiffWithGps(n))).toBe(n);
    expect(exifOrientation(cat(text('Exif\0\0'), tiffWithGps(n)))).toBe(n);
  });

  it('answers 1 for out-of-range values, wrong types and absent tags', () => {
    expect(exifOrientation(tiffWithGps(0))).toBe(1);
    expect(exifOrientation(tiffWithGps(9))).toBe(1);
    const asLong = tiffWithGps(6);
    asLong[22 + 2] = 4; // Orientation entry re-typed as LONG
    expect(exifOrientation(asLong)).toBe(1);
    const otherTag = tiffWithGps(6);
    otherTag[22] = 0x13; // tag 0x0113 instead of 0x0112
    expect(exifOrientation(otherTag)).toBe(1);
  });

  it('never reads outside the data: bad header, IFD offset or entry count answer 1', () => {
    expect(exifOrientation(new Uint8Array(0))).toBe(1);
    expect(exifOrientation(text('Exif\0\0'))).toBe(1);
    expect(exifOrientation(hex('4949 2b00 08000000'.replaceAll(' ', '')))).toBe(1); // not 42
    expect(exifOrientation(hex('4d4d002a7fffffff'))).toBe(1); // IFD0 beyond the data
    expect(exifOrientation(hex('4d4d002a00000008ffff'))).toBe(1); // 65535 entries, none present
    const truncated = tiffWithGps(6).subarray(0, 30); // the Orientation entry is cut off
    expect(exifOrientation(truncated)).toBe(1);
    for (let length = 0; length < 118; length++) {
      expect([1, 6]).toContain(exifOrientation(tiffWithGps(6).subarray(0, length)));
    }
  });
});

describe('minimalExif', () => {
  it('is a 26-byte big-endian TIFF with one IFD0 entry, Orientation, and no next IFD', () => {
    expect(minimalExif(6)).toEqual(hex('4d4d002a00000008' + '0001' + '011200030000000100060000' + '00000000'));
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('round-trips orientation %i', (n) => {
    expect(exifOrientation(minimalExif(n))).toBe(n);
  });
});
