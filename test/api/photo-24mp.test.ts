import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

// Slow: tens of megapixels made and compressed (decisions.md, "Run-time enforcement and capacity").
it('accepts a 24 MP phone photo (baseline JPEG at 92) to WebP at full size, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 6000, height: 4000, kind: { baseline: 92 } }, { format: 'webp', quality: '80' }, { format: 'webp', width: 6000, height: 4000 });
});
