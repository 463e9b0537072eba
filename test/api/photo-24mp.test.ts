import { it } from 'vitest';
import { expectPhotoFits, PHOTO_TIMEOUT_MS } from '../helpers/large-photo';

it('accepts a 24 MP phone photo at full size, its job within the engine budget', { timeout: PHOTO_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 6000, height: 4000, quality: 60 }, { quality: '80' }, { width: 6000, height: 4000 });
});
