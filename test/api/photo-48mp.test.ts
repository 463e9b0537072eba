import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

it('accepts a 48 MP camera photo with maxWidth 4096, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 8485, height: 5657, quality: 30 }, { maxWidth: '4096' }, { width: 4096, height: 2731 });
});
