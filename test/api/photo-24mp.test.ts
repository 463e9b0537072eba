import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

it('accepts a 24 MP phone photo at full size, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 6000, height: 4000, quality: 60 }, { quality: '80' }, { width: 6000, height: 4000 });
});
