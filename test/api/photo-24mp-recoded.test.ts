import { it } from 'vitest';
import { expectPhotoFits } from '../helpers/large-photo';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';

// Slow: tens of megapixels made and compressed (decisions.md, "Run-time enforcement and capacity").
// Asked for more than the photo's own quality, the steps on its grid are its own: its lossless re-coding comes
// back, its coefficients held whole (2 B each: 69 MiB at 24 MP 4:2:0) beside its output, within the budget.
it('re-codes a 24 MP phone photo (baseline JPEG at 70) losslessly when asked for quality 95, its job within the engine budget', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
  await expectPhotoFits({ width: 6000, height: 4000, kind: { baseline: 70 } }, { quality: '95' }, { format: 'jpeg', width: 6000, height: 4000, notes: 'lossless-recoded' });
});
