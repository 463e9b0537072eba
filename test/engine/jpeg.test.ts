import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, jsquashMozjpeg, LIBJPEG_TURBO_PLAN, maxDifference, referenceJpegPixels, transcodeFixture } from './helpers';

const engine = freshEngine();

describe('wasm engine: JPEG', () => {
  it('encodes with mozjpeg where it fits: the pixels of jSquash mozjpeg 4:2:0, in about its bytes', async () => {
    const out = await transcodeFixture(engine, 'testorig.jpg', { format: 'jpeg', quality: 80 });
    const reference = await jsquashMozjpeg(await fixture('engine/testorig.jpg'), 80);
    expect(maxDifference(await referenceJpegPixels(out), await referenceJpegPixels(reference))).toBe(0);
    // mozjpeg 3.2 (ours) and 4 (jSquash) choose scans a little differently: within 1 %.
    expect(out.length).toBeLessThanOrEqual(reference.length * 1.01);
  });

  it('with libjpeg-turbo, re-encodes testorig.jpg at q80 byte for byte as `djpeg | cjpeg -quality 80 -qtables robidoux-qtables.txt -qslots 0,1,1 -progressive`', async () => {
    const out = await transcodeFixture(freshEngine(LIBJPEG_TURBO_PLAN), 'testorig.jpg', { format: 'jpeg', quality: 80 });
    expect(out).toEqual(await fixture('engine/golden-testorig-q80.jpg'));
  });

  it.each(['progressive.jpg', '444.jpg', '422.jpg', 'rgb.jpg', 'testimgari.jpg', 'testimgint.jpg'])(
    'decodes the %s variant and keeps colour',
    async (name) => {
      const out = readHeader(await transcodeFixture(engine, name, { format: 'jpeg', width: 113, height: 74 }));
      expect(out).toMatchObject({ format: 'jpeg', width: 113, height: 74, grey: false });
      expect(out.sampling).toHaveLength(3);
    },
  );

  it('keeps greyscale input greyscale in JPEG and PNG', async () => {
    expect(readHeader(await transcodeFixture(engine, 'grey.jpg', { format: 'jpeg' })).sampling).toHaveLength(1);
    // Lossless; lossy PNG keeps grey too (lossy-png.test.ts), in a palette of greys when 16 or fewer are left.
    expect(readHeader(await transcodeFixture(engine, 'grey.jpg', { format: 'png', quality: 100 })).grey).toBe(true);
  });

  it('resizes after DCT scaling when the target is much smaller', async () => {
    const out = readHeader(await transcodeFixture(engine, 'testorig.jpg', { format: 'jpeg', width: 40, height: 26 }));
    expect(out).toMatchObject({ width: 40, height: 26 });
  });
});
