import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

// Slow: tens of megapixels made and compressed (decisions.md, "Run-time enforcement and capacity").
it('accepts a 24 MP progressive 4:2:0 JPEG (5712x4284, as iPhones save) to JPEG at full size, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 5712, height: 4284, kind: 'progressive' }, { format: 'jpeg', quality: '80' }, { format: 'jpeg', width: 5712, height: 4284 });
});
