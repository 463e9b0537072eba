import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels, transcodeFixture } from './helpers';

const engine = freshEngine();

describe('wasm engine: WebP', () => {
  it('encodes testorig.jpg at q80 byte for byte as `cwebp -q 80` of its djpeg output', async () => {
    const out = await transcodeFixture(engine, 'testorig.jpg', { format: 'webp', quality: 80 });
    expect(out).toEqual(await fixture('engine/golden-testorig-q80.webp'));
  });

  it.each([
    'lossless1.webp',
    'lossy_alpha4.webp',
    'test.webp',
    'alpha_filter_1_method_1.webp',
    'small_13x1.webp',
    'small_1x1.webp',
    'very_short.webp',
    'one_color_no_palette.webp',
    'vp80-03-segmentation-1437.webp',
  ])('decodes %s to the pixels libwebp gives jSquash', async (name) => {
    const out = await transcodeFixture(engine, name, { format: 'png', quality: 100 });
    const input = await fixture(`engine/${name}`);
    expect(maxDifference(await referencePixels(out, 'png'), await referencePixels(input, 'webp'))).toBe(0);
  });

  it('keeps transparency in WebP output', async () => {
    const out = readHeader(await transcodeFixture(engine, 'lossy_alpha4.webp', { format: 'webp', width: 50, height: 50 }));
    expect(out).toMatchObject({ format: 'webp', width: 50, height: 50, hasAlpha: true });
  });
});
