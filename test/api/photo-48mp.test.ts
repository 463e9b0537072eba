import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

// Slow: tens of megapixels made and compressed (decisions.md, "Run-time enforcement and capacity").
it('accepts a 48 MP camera photo (baseline JPEG at 90) to JPEG at full size, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 8000, height: 6000, kind: { baseline: 90 } }, { format: 'jpeg', quality: '80' }, { format: 'jpeg', width: 8000, height: 6000 });
});
