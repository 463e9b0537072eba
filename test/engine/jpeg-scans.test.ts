import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { MAX_JPEG_SCANS } from '../../src/limits/cpu';
import { craftedJpeg, scanBombJpeg } from '../helpers/crafted';
import { expectUnsupported } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';

/** Issue 19, item 1: the header walker counts scans and the blocks they visit; too many scans is refused there. */
describe('JPEG scans, counted from the header', () => {
  it(`accepts ${MAX_JPEG_SCANS} scans and refuses one more with unsupported_image`, async () => {
    // 1024x1024 grey: 16384 blocks, one DC scan plus the copies.
    const atLimit = readHeader(scanBombJpeg({ width: 1024, height: 1024, scans: MAX_JPEG_SCANS - 1 }));
    expect(atLimit).toMatchObject({ scans: MAX_JPEG_SCANS, scanBlocks: MAX_JPEG_SCANS * 16384, refinedCoefficients: 0, coefficientsBuffered: true });
    const refused = await expectUnsupported(() => readHeader(scanBombJpeg({ width: 1024, height: 1024, scans: MAX_JPEG_SCANS })));
    expect(refused.message).toMatch(`has ${MAX_JPEG_SCANS + 1} scans`);
  });

  it('counts interleaved and per-component scans, and the coefficients refinement scans visit', async () => {
    // libjpeg-turbo's progression for 4:2:0 colour (cjpeg -progressive): 10 scans, 3 of them refinements of AC bands.
    const progressive = readHeader(await fixture('engine/progressive.jpg'));
    expect(progressive.scans).toBe(10);
    expect(progressive.refinedCoefficients).toBeGreaterThan(0);
    const baseline = readHeader(craftedJpeg({ width: 64, height: 32, components: [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }], progressive: false }));
    // One interleaved scan: 8 MCUs of 16x16, 6 blocks each.
    expect(baseline).toMatchObject({ scans: 1, scanBlocks: 48, coefficientsBuffered: false });
    const perComponent = readHeader(craftedJpeg({ width: 64, height: 32, components: [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }], progressive: false, scanPerComponent: true }));
    expect(perComponent).toMatchObject({ scans: 3, scanBlocks: 32 + 8 + 8, coefficientsBuffered: true });
  });
});
