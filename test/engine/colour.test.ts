import { describe, expect, it } from 'vitest';
import { readIccProfile } from '../../src/image/container';
import { readHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import type { ImageFormat } from '../../src/image/types';
import { fixture } from '../helpers/fixtures';
import { maxDifference, referencePixels } from './helpers';

const FORMATS: ImageFormat[] = ['jpeg', 'png', 'webp'];

describe('colour of the corpus wide-gamut images', () => {
  it('a Rec. 2020 image keeps its pixels and its profile in every format, so a browser shows the same colours', async () => {
    const input = await fixture('colour/R2020-sRGB-color-bars-200.png');
    const profile = await readIccProfile(input, 'png');
    expect(profile).not.toBeNull();
    for (const format of FORMATS) {
      const result = await compressImage(input, { quality: 100, format, acceptsWebp: true });
      expect(result.notes, format).toContain('icc-kept');
      expect(await readIccProfile(result.bytes, format), format).toEqual(profile);
    }
    // Lossless PNG: the very same samples, still meant in Rec. 2020 (no conversion, no clipping).
    const png = await compressImage(input, { quality: 100, format: 'png', acceptsWebp: false });
    expect(maxDifference(await referencePixels(png.bytes, 'png'), await referencePixels(input, 'png'))).toBe(0);
  });

  it('a broken ICC profile is ignored, not fatal', async () => {
    const input = await fixture('colour/broken_iccp.png');
    expect(await readIccProfile(input, 'png')).toBeNull();
    for (const format of FORMATS) {
      const result = await compressImage(input, { quality: 80, format, acceptsWebp: true });
      expect(readHeader(result.bytes).format).toBe(format);
      expect(result.notes).not.toContain('icc-kept');
      expect(await readIccProfile(result.bytes, format)).toBeNull();
    }
  });
});
