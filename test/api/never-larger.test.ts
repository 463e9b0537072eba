import { describe, expect, it } from 'vitest';
import { call, compress, createKey, fixture, form } from '../helpers/api';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

/**
 * decisions.md, "Never larger": without a resize or a format change, the answer is never larger than the
 * input, at the default quality too, on the demo too. Checked over every valid image among the fixtures.
 */
const pngSuite = JSON.parse(new TextDecoder().decode(await fixture('engine/pngsuite/files.json'))) as string[];
const CORPUS = [
  ...pngSuite.map((name) => `engine/pngsuite/${name}`),
  ...['testorig', 'testimgari', 'testimgint', 'progressive', 'grey', '444', '422', 'rgb', 'golden-testorig-q80'].map((name) => `engine/${name}.jpg`),
  ...['lossless1', 'lossy_alpha4', 'test', 'alpha_filter_1_method_1', 'small_13x1', 'small_1x1', 'very_short', 'one_color_no_palette', 'vp80-03-segmentation-1437', 'golden-testorig-q80'].map(
    (name) => `engine/${name}.webp`,
  ),
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => `orientation/Landscape_${n}.jpg`),
  ...[1, 6, 8].map((n) => `orientation/Portrait_${n}.jpg`),
  'colour/R2020-sRGB-color-bars-200.png',
  'api/chelsea.png',
];
/** What browsers send: AVIF and WebP accepted, so format auto may convert (only to something smaller). */
const BROWSER_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

describe('never larger than the input, at the default quality and format', () => {
  it(`with a key, over the ${CORPUS.length} valid images of the fixtures, with and without WebP accepted`, { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const { key } = await createKey('business');
    for (const name of CORPUS) {
      const input = await fixture(name);
      for (const accept of ['*/*', BROWSER_ACCEPT]) {
        const response = await compress(input, {}, { 'X-API-Key': key, Accept: accept });
        expect(response.status, name).toBe(200);
        // Any format the answer is in (AVIF too, which the service does not read back).
        const bytes = new Uint8Array(await response.arrayBuffer());
        expect(bytes.length, `${name}, Accept ${accept}`).toBeLessThanOrEqual(input.length);
        expect(Number(response.headers.get('X-Savings-Percent')), name).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('on the demo, which always compresses at quality 80 with format auto', async () => {
    const names = ['api/chelsea.png', 'engine/testorig.jpg', 'engine/test.webp', 'engine/pngsuite/basn0g08.png', 'engine/pngsuite/basn3p01.png', 'engine/lossy_alpha4.webp', 'orientation/Landscape_6.jpg'];
    for (const [i, name] of names.entries()) {
      const input = await fixture(name);
      const response = await call('/v1/demo-compress', {
        method: 'POST',
        // A client in a network of its own for each image: the demo allows 5 an hour per address.
        headers: { 'CF-Connecting-IP': `198.19.${100 + i}.1`, Accept: BROWSER_ACCEPT },
        body: form('image', input),
      });
      expect(response.status, name).toBe(200);
      expect((await response.arrayBuffer()).byteLength, name).toBeLessThanOrEqual(input.length);
    }
  });
});
