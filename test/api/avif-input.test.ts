import { describe, expect, it } from 'vitest';
import { readInputHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import { type AvifHeader, isAvif } from '../../src/image/types';
import { avifInput } from '../../src/image/wasm/avif-input';
import { referencePixels } from '../engine/helpers';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';
import { buildHeif, config, ispe, nclx, pixi } from '../helpers/heif-builder';

/**
 * AVIF input (issue 38): test/fixtures/heif's files made by avifenc (heif/LICENSES.md), decoded by the engine's
 * libaom, against avifdec's own pixels of each (`avifdec -j 1 -d 8 --ignore-icc F.avif F.avifdec.png`, libavif
 * 0.11.1 with dav1d, which leaves irot, imir and clap to the viewer).
 */

async function upload(bytes: Uint8Array, fields: Record<string, string> = { format: 'png', quality: '100' }): Promise<Response> {
  const { key } = await createKey('business');
  return call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', bytes, fields) });
}

/** Mean and largest difference per sample of two RGBA buffers, over the channels given. */
function difference(a: Uint8ClampedArray, b: Uint8ClampedArray, channels: number[] = [0, 1, 2]): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (const c of channels) {
      const d = Math.abs(a[i + c]! - b[i + c]!);
      sum += d;
      max = Math.max(max, d);
    }
  }
  return { mean: sum / ((a.length / 4) * channels.length), max };
}

async function decodedAsPng(name: string) {
  const result = await compressImage(await fixture(`heif/${name}.avif`), { quality: 100, format: 'png', acceptsWebp: false });
  expect(result.format).toBe('png');
  const header = readInputHeader(result.bytes);
  return { ...result, header, pixels: await referencePixels(result.bytes, 'png') };
}

async function avifdecPixels(name: string) {
  return referencePixels(await fixture(`heif/${name}.avifdec.png`), 'png');
}

const avifHeader = (bytes: Uint8Array): AvifHeader => {
  const header = readInputHeader(bytes);
  if (!isAvif(header)) throw new Error('not an AVIF');
  return header;
};

describe('AVIF input is decoded by the engine (libaom)', () => {
  for (const [name, size] of [
    ['photo', [96, 64]],
    ['grid', [128, 128]],
  ] as const) {
    it(`${name}.avif (8-bit${name === 'grid' ? ', a 2x2 grid' : ''}) decodes to avifdec's pixels within a level or two`, async () => {
      const { header, pixels, notes } = await decodedAsPng(name);
      expect([header.width, header.height]).toEqual(size);
      const diff = difference(pixels, await avifdecPixels(name));
      expect(diff.max).toBeLessThanOrEqual(3);
      expect(diff.mean).toBeLessThan(0.6);
      expect(notes).toContain('converted');
    });
  }

  it('ten-bit-alpha.avif (10-bit, alpha) keeps its alpha and rounds to avifdec 8-bit pixels', async () => {
    const { header, pixels } = await decodedAsPng('ten-bit-alpha');
    expect(header).toMatchObject({ width: 96, height: 64, hasAlpha: true });
    const reference = await avifdecPixels('ten-bit-alpha');
    expect(difference(pixels, reference, [3])).toMatchObject({ max: 0 });
    const colour = difference(pixels, reference);
    expect(colour.max).toBeLessThanOrEqual(3);
    expect(colour.mean).toBeLessThan(0.6);
  });

  it('oriented.avif: its clean aperture (80x48 in the middle) is cut, then irot 1 and imir 1 are applied (48x80)', async () => {
    const { header, pixels, notes } = await decodedAsPng('oriented');
    expect([header.width, header.height]).toEqual([48, 80]);
    expect(notes).toContain('orientation-applied');
    // avifdec's picture (the photo's; 96x64) through clap (left 8, top 8), a quarter anticlockwise, then left for right.
    const picture = await avifdecPixels('photo');
    const expected = new Uint8ClampedArray(48 * 80 * 4);
    for (let y = 0; y < 80; y++) {
      for (let x = 0; x < 48; x++) {
        const from = ((8 + 47 - x) * 96 + 8 + 79 - y) * 4;
        expected.set(picture.subarray(from, from + 4), (y * 48 + x) * 4);
      }
    }
    expect(difference(pixels, expected).mean).toBeLessThan(1);
  });

  it('auto keeps AVIF where Accept lists image/avif, else gives JPEG, or PNG for an image with alpha', async () => {
    const photo = await fixture('heif/photo.avif');
    const alpha = await fixture('heif/ten-bit-alpha.avif');
    const auto = (bytes: Uint8Array, acceptsAvif: boolean) => compressImage(bytes, { quality: 80, format: 'auto', acceptsWebp: false, acceptsAvif });
    expect((await auto(photo, true)).format).toBe('avif');
    expect((await auto(photo, false)).format).toBe('jpeg');
    expect((await auto(alpha, false)).format).toBe('png');
  });

  it('through the API: 200 with the output format, an AVIF out of an AVIF', async () => {
    const response = await upload(await fixture('heif/grid.avif'), { format: 'avif', quality: '60' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/avif');
    const out = readInputHeader(new Uint8Array(await response.arrayBuffer()));
    expect(out).toMatchObject({ format: 'avif', width: 128, height: 128 });
  });

  it('the framing the engine reads: a 2x2 grid is four cells of 64x64, their lengths, then their AV1 data in order', async () => {
    const bytes = await fixture('heif/grid.avif');
    const header = avifHeader(bytes);
    const framed = avifInput(bytes, header);
    const view = new DataView(framed.buffer, framed.byteOffset, framed.byteLength);
    expect([0, 1, 2, 3, 4].map((i) => view.getUint32(4 * i, true))).toEqual([2, 2, 64, 64, 0]);
    const lengths = header.heif.primary.tiles.map((t) => t.extents.reduce((n, e) => n + e.length, 0));
    expect([0, 1, 2, 3].map((i) => view.getUint32(28 + 8 * i, true))).toEqual(lengths);
    expect(framed.length).toBe(28 + 32 + lengths.reduce((a, b) => a + b, 0));
  });
});

/** photo.avif's AV1 data and av1C, in a file built around them whose other boxes may lie. */
async function photoParts(): Promise<{ av1: Uint8Array; av1C: Uint8Array }> {
  const bytes = await fixture('heif/photo.avif');
  const { primary } = avifHeader(bytes).heif;
  const extent = primary.tiles[0]!.extents[0]!;
  return { av1: bytes.slice(extent.offset, extent.offset + extent.length), av1C: primary.config.slice() };
}

function avifOf(av1: Uint8Array, av1C: Uint8Array, width: number, height: number, colr: Uint8Array[] = []): Uint8Array {
  const properties = [{ box: ispe(width, height) }, { box: pixi(8, 8, 8) }, { box: config('av1C', av1C), essential: true }, ...colr.map((box) => ({ box }))];
  return buildHeif({ brands: ['avif', 'mif1', 'miaf'], primary: 1, items: [{ id: 1, type: 'av01', data: av1, properties }] });
}

describe('AVIF colour: colr nclx primaries other than sRGB become the output\'s ICC profile', () => {
  for (const [name, primaries, transfer, kept] of [
    ['Display P3 (12) with the sRGB transfer', 12, 13, true],
    ['BT.2020 (9) with its transfer', 9, 14, true],
    ['sRGB (1)', 1, 13, false],
    ['BT.2020 with PQ (16), no 2.2 curve', 9, 16, false],
  ] as const) {
    it(`${name}: ${kept ? 'a profile is carried (icc-kept)' : 'none'}`, async () => {
      const { av1, av1C } = await photoParts();
      const result = await compressImage(avifOf(av1, av1C, 96, 64, [nclx(primaries, transfer, 6, true)]), { quality: 80, format: 'png', acceptsWebp: false });
      expect(result.notes.includes('icc-kept')).toBe(kept);
    });
  }
});

describe('crafted AV1 data is refused with 400, never a 5xx', () => {
  const cases: Array<[string, (p: { av1: Uint8Array; av1C: Uint8Array }) => Uint8Array, RegExp]> = [
    ['an ispe that says 64x64 for a 96x64 sequence header', ({ av1, av1C }) => avifOf(av1, av1C, 64, 64), /size does not match its header/],
    ['an ispe of 2000x2000 over 96x64 data', ({ av1, av1C }) => avifOf(av1, av1C, 2000, 2000), /size does not match its header/],
    ['the AV1 data cut to half', ({ av1, av1C }) => avifOf(av1.subarray(0, av1.length >> 1), av1C, 96, 64), /AV1 data/],
    ['the AV1 data cut after its sequence header', ({ av1, av1C }) => avifOf(av1.subarray(0, 16), av1C, 96, 64), /AV1 data/],
    ['no sequence header (the first OBUs zeroed)', ({ av1, av1C }) => avifOf(Uint8Array.from(av1, (b, i) => (i < 24 ? 0 : b)), av1C, 96, 64), /AV1 data/],
  ];
  for (const [name, craft, message] of cases) {
    it(name, async () => {
      const response = await upload(craft(await photoParts()));
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.error).toBe('unsupported_image');
      expect(body.message).toMatch(message);
    });
  }
});
