import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import { encoderQuality } from '../../src/image/quality-scale';
import { jobCost } from '../../src/image/steps/check-budget';
import { lookWindow, unmeasuredLook } from '../../src/image/steps/one-look';
import { engine } from '../../src/image/engine-instance';
import { call, createKey, fixture, form } from '../helpers/api';
import { freshEngine } from '../engine/helpers';
import { prng, samplePng } from '../helpers/crafted';

// issue 36, decisions.md "One look across formats": auto's WebP and AVIF candidates of an output kept as stored are
// measured against the input (steps/one-look.ts, steps/look-metric.ts) and dropped where they do not keep the look of
// the input-format candidate. Pinned here per input class on inputs made here whose right answer is known; the looks
// themselves are in the bench (npm run bench:quality one-look, docs/benchmarks.md).

async function compress(input: Uint8Array, quality: number, accept: string): Promise<{ format: string; notes: string[]; bytes: Uint8Array }> {
  const { key } = await createKey('business');
  const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key, Accept: accept }, body: form('file', input, { quality: String(quality) }) });
  if (response.status !== 200) expect.fail(`${response.status}: ${await response.text()}`);
  const notes = (response.headers.get('X-Compression-Notes') ?? '').split(', ').filter(Boolean);
  return { format: response.headers.get('X-Output-Format')!, notes, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const BOTH = 'image/avif,image/webp,*/*';
const WEBP = 'image/webp,*/*';

/** A photo-like picture: soft light across it, and grain of `grain` levels either way. */
const photo = (width: number, height: number, grain: number, seed = 5) => {
  const random = prng(seed);
  return samplePng(width, height, { channels: 3 }, (x, y, c) =>
    Math.max(0, Math.min(255, Math.round(60 + 120 * (x / width) * (0.6 + 0.4 * Math.sin(y / 40 + c)) + 40 * (y / height) + (random() - 0.5) * 2 * grain))),
  );
};

/** `png` saved as a JPEG by the engine at encoder quality `quality` (4:2:0). */
const asJpeg = async (png: Uint8Array, quality: number) => {
  const header = readHeader(png);
  return freshEngine().transcode(png, header, { format: 'jpeg', quality, width: header.width, height: header.height });
};

describe('auto: one look across formats, measured', () => {
  it('a grainy JPEG: WebP and AVIF re-draw its grain and look worse than our JPEG on its own steps, so the JPEG is answered, saying why', async () => {
    // Saved at 70 and asked at 70, by SSIMULACRA2 (bench/look-calibrate.mjs's tools): our JPEG 94.0; WebP 58.3 (at the
    // scale's 74) and 72.2 (84), each larger; AVIF 72.3 (47, 0.87x the JPEG's bytes) and 78.1 (57, larger).
    const input = await asJpeg(await photo(320, 240, 25), 70);
    const base = await compress(input, 70, '*/*');
    expect(base.format).toBe('jpeg');
    expect(base.notes).not.toContain('format-kept-for-look');
    for (const accept of [WEBP, BOTH]) {
      const answer = await compress(input, 70, accept);
      expect([answer.format, answer.bytes]).toEqual(['jpeg', base.bytes]);
      expect(answer.notes).toContain('format-kept-for-look');
    }
  });

  it('a smooth PNG photo: our PNG (lossy at 95, dithered) is matched by WebP at a fraction of its bytes, and WebP is answered', async () => {
    const input = await photo(320, 240, 2);
    const base = await compress(input, 80, '*/*');
    expect(base.format).toBe('png');
    const answer = await compress(input, 80, WEBP);
    expect(answer.format).toBe('webp');
    expect(answer.bytes.length).toBeLessThan(base.bytes.length / 2);
    expect(answer.notes).not.toContain('format-kept-for-look');
  });

  it('a PNG graphic our PNG keeps pixel for pixel (flat shapes, hard edges): nothing lossy looks as good, the PNG is answered, saying why', async () => {
    const input = await samplePng(320, 240, { channels: 3 }, (x, y, c) => (Math.hypot(x - 100, y - 120) < 70 ? [200, 30, 40][c]! : x > 190 && y > 60 && y < 180 ? [20, 60, 160][c]! : 250));
    for (const quality of [70, 90]) {
      const base = await compress(input, quality, '*/*');
      const both = await compress(input, quality, BOTH);
      expect([both.format, both.bytes, both.notes]).toEqual(['png', base.bytes, [...base.notes, 'format-kept-for-look']]);
    }
  });

  it('an input kept pixel for pixel (re-coded, or the original) gets no lossy candidate, and says why', async () => {
    // 4:4:4 saved at 50 asked at 90: our JPEG is the input's own coefficients.
    const input = await fixture('engine/444-q50.jpg');
    const base = await compress(input, 90, '*/*');
    expect(base.notes.some((note) => note === 'lossless-recoded' || note === 'original-returned')).toBe(true);
    const both = await compress(input, 90, BOTH);
    expect([both.format, both.bytes]).toEqual(['jpeg', base.bytes]);
    expect(both.notes).toEqual([...base.notes, 'format-kept-for-look']);
  });

  it("a candidate whose look does not fit the request's CPU budget is not made: the input's format is kept, saying why", async () => {
    const input = await asJpeg(await photo(320, 240, 2), 95);
    const header = readHeader(input);
    const spec = (format: 'jpeg' | 'webp') => ({ format, quality: encoderQuality(format, 70), width: header.width, height: header.height });
    // Room for the JPEG, its re-coding and the WebP, not for the windows' decodes and the metric.
    const jobs = jobCost(engine, header, spec('jpeg')).cpuMs * 2 + jobCost(engine, header, spec('webp')).cpuMs;
    const window = lookWindow(header);
    expect(engine.estimateWindow(header, window).cpuMs).toBeGreaterThan(0);
    const answer = await compressImage(input, { quality: 70, format: 'auto', acceptsWebp: true, cpuBudgetMs: jobs + 1 });
    expect(answer.format).toBe('jpeg');
    expect(answer.notes).toContain('format-kept-for-look');
  });

  it("an output resized or turned is not measured: WebP and AVIF at the scale's qualities, from PNG only from a photo", async () => {
    const jpeg = readHeader(await fixture('engine/testorig.jpg'));
    const png = readHeader(await fixture('api/chelsea.png'));
    const graphic = readHeader(await fixture('engine/pngsuite/basn2c08.png'));
    for (const format of ['webp', 'avif'] as const) {
      const half = (header: typeof jpeg) => ({ format, quality: encoderQuality(format, 80), width: Math.round(header.width / 2), height: Math.round(header.height / 2) });
      expect(unmeasuredLook(jpeg, half(jpeg), 80)).toEqual(half(jpeg));
      expect(unmeasuredLook(png, half(png), 80)).toEqual(half(png));
      expect(unmeasuredLook(graphic, half(graphic), 80)).toBeUndefined();
    }
    // A PNG photo's WebP raised at low qualities, where our lossy PNG looks better than the scale says.
    const small = { format: 'webp' as const, quality: encoderQuality('webp', 70), width: 100, height: 100 };
    expect(unmeasuredLook(png, small, 70)).toEqual({ ...small, quality: Math.round(encoderQuality('webp', 70) + 3.5) });
  });
});
