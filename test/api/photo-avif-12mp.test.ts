import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

it('encodes a 12 MP photo to AVIF at full size (a grid of 512 x 512 cells, speed 7), its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 4000, height: 3000, kind: { baseline: 92 } }, { format: 'avif', quality: '80' }, { format: 'avif', width: 4000, height: 3000 });
});
