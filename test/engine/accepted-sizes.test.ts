import { describe, expect, it } from 'vitest';
import { baseHeader } from '../../src/image/header/header-defaults';
import { checkBudget, jobCost } from '../../src/image/steps/check-budget';
import { planGeometry } from '../../src/image/steps/geometry';
import { encoderQuality } from '../../src/image/quality-scale';
import type { ImageHeader, OutputFormat } from '../../src/image/types';
import { wasmEngine } from '../../src/image/wasm';
import { PAID_CPU_BUDGET_MS } from '../../src/limits/cpu';
import { COMPRESS_MAX_BYTES } from '../../src/limits/sizes';

const fitted = (header: ImageHeader, maxWidth: number | undefined) => {
  const { width, height } = planGeometry(header, { maxWidth });
  return { width, height };
};

const S420 = [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }];

/** Photos as cameras and exporters write them (bench/accepted-sizes.mjs, the README's table): file bytes a pixel. */
const PHOTOS = {
  'baseline JPEG': { fields: { format: 'jpeg', sampling: S420 }, bytesPerPixel: 0.25 },
  'progressive JPEG 4:2:0': { fields: { format: 'jpeg', progressive: true, coefficientsBuffered: true, sampling: S420 }, bytesPerPixel: 0.25 },
  'RGB PNG': { fields: { format: 'png', colorType: 2 }, bytesPerPixel: 1.5 },
  'lossy WebP': { fields: { format: 'webp' }, bytesPerPixel: 0.3 },
} as const;

function photo(kind: keyof typeof PHOTOS, width: number, height: number): ImageHeader {
  const { fields, bytesPerPixel } = PHOTOS[kind];
  return { ...baseHeader(fields.format, width, height), ...fields, fileBytes: Math.min(COMPRESS_MAX_BYTES, Math.round(width * height * bytesPerPixel)) };
}

/**
 * Issue 19, item 5: what the README promises a phone's photos at quality 80, decided as the service
 * decides it (the models, from the header, against the engine's budget and a key's CPU budget). The
 * measured peaks of such photos are test/api/photo-*.test.ts.
 */
describe("the README's sizes: photos accepted at quality 80 with a key", () => {
  it.each([
    ...(['baseline JPEG', 'RGB PNG', 'lossy WebP'] as const).flatMap((kind) => (['jpeg', 'png', 'webp', 'avif'] as const).map((format) => [kind, 24, format, 'full size'] as const)),
    ['progressive JPEG 4:2:0', 24, 'jpeg', 'full size'],
    ['progressive JPEG 4:2:0', 24, 'webp', 2560],
    ['baseline JPEG', 48, 'jpeg', 'full size'],
  ] as const)('%s of %d MP (3:2) to %s at %s', (kind, megapixels, format: OutputFormat, size) => {
    const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.5));
    const header = photo(kind, width, Math.round(width / 1.5));
    const out = { format, quality: encoderQuality(format, 80), ...fitted(header, size === 'full size' ? undefined : size) };
    expect(() => checkBudget(header, out, jobCost(wasmEngine, header, out), PAID_CPU_BUDGET_MS)).not.toThrow();
  });
});
