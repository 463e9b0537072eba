import { describe, expect, it } from 'vitest';
import { insertIccProfile, readIccProfile } from '../../src/image/container';
import { chrmProfile } from '../../src/image/container/chrm-profile';
import { isSrgbProfile } from '../../src/image/container/srgb-profile';
import { syntheticPng } from '../helpers/png';
import { fixture } from '../helpers/fixtures';
import { ADOBE_RGB_CHRM, SRGB_CHRM, chrmData } from './chrm-synth';
import { cat, pngChunk, withChunks } from './synth';

const PROPHOTO_CHRM = [0.3457, 0.3585, 0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001];
const D50 = [0.9642, 1, 0.8249];

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const s15 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getInt32(at) / 65536;

/** The tags of a profile: signature -> bytes (read independently of the module under test). */
function tags(profile: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(profile.buffer, profile.byteOffset, profile.byteLength);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < view.getUint32(128); i++) {
    const at = 132 + 12 * i;
    const offset = view.getUint32(at + 4);
    out.set(ascii(profile, at, 4), profile.subarray(offset, offset + view.getUint32(at + 8)));
  }
  return out;
}

function xyzTag(profile: Uint8Array, signature: string): number[] {
  const tag = tags(profile).get(signature)!;
  expect(ascii(tag, 0, 4), signature).toBe('XYZ ');
  return [0, 1, 2].map((i) => s15(tag, 8 + 4 * i));
}

function expectClose(actual: number[], expected: number[], tolerance: number, label: string) {
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!), `${label}[${i}] = ${v}, expected ${expected[i]}`).toBeLessThanOrEqual(tolerance));
}

describe('chrmProfile: an ICC profile from a PNG cHRM chunk', () => {
  it("is null for sRGB's own primaries and white (Rec. 709, D65), also as rounded to 4 decimals", () => {
    expect(chrmProfile(chrmData(...SRGB_CHRM))).toBeNull();
    expect(chrmProfile(chrmData(0.31271, 0.32902, 0.64004, 0.33, 0.3, 0.60003, 0.14998, 0.06))).toBeNull();
  });

  it('describes Adobe RGB (1998): its D50-adapted colourants, summing to the D50 white', () => {
    const profile = chrmProfile(chrmData(...ADOBE_RGB_CHRM))!;
    expect(profile).not.toBeNull();
    const r = xyzTag(profile, 'rXYZ');
    const g = xyzTag(profile, 'gXYZ');
    const b = xyzTag(profile, 'bXYZ');
    expectClose(r, [0.6097, 0.3111, 0.0195], 0.001, 'rXYZ');
    expectClose(g, [0.2053, 0.6257, 0.0609], 0.001, 'gXYZ');
    expectClose(b, [0.1492, 0.0632, 0.7446], 0.001, 'bXYZ');
    expectClose([0, 1, 2].map((i) => r[i]! + g[i]! + b[i]!), D50, 0.001, 'r + g + b');
    expectClose(xyzTag(profile, 'wtpt'), D50, 0.0001, 'wtpt');
  });

  it('describes a D50-white space (ProPhoto RGB) with an identity adaptation', () => {
    const profile = chrmProfile(chrmData(...PROPHOTO_CHRM))!;
    expectClose(xyzTag(profile, 'rXYZ'), [0.7977, 0.288, 0], 0.001, 'rXYZ');
    expectClose(xyzTag(profile, 'gXYZ'), [0.1352, 0.7119, 0], 0.001, 'gXYZ');
    expectClose(xyzTag(profile, 'bXYZ'), [0.0313, 0.0001, 0.8249], 0.001, 'bXYZ');
    const chad = tags(profile).get('chad')!;
    expectClose(Array.from({ length: 9 }, (_, i) => s15(chad, 8 + 4 * i)), [1, 0, 0, 0, 1, 0, 0, 0, 1], 0.002, 'chad');
  });

  it('is a well-formed v4 RGB display profile: header, Bradford chad to D50, a 2.2 para curve', () => {
    const profile = chrmProfile(chrmData(...ADOBE_RGB_CHRM))!;
    const view = new DataView(profile.buffer, profile.byteOffset, profile.byteLength);
    expect(view.getUint32(0)).toBe(profile.length);
    expect(view.getUint32(8)).toBe(0x04300000);
    expect(ascii(profile, 12, 4)).toBe('mntr');
    expect(ascii(profile, 16, 4)).toBe('RGB ');
    expect(ascii(profile, 20, 4)).toBe('XYZ ');
    expect(ascii(profile, 36, 4)).toBe('acsp');
    expect(view.getUint32(64)).toBe(0); // perceptual
    expect([view.getUint32(68), view.getUint32(72), view.getUint32(76)]).toEqual([0xf6d6, 0x10000, 0xd32d]);
    const table = tags(profile);
    expect([...table.keys()].sort()).toEqual(['bTRC', 'bXYZ', 'chad', 'cprt', 'desc', 'gTRC', 'gXYZ', 'rTRC', 'rXYZ', 'wtpt']);
    for (const [signature, data] of table) {
      expect(data.byteOffset - profile.byteOffset, signature).toBeLessThanOrEqual(profile.length - data.length);
      expect((data.byteOffset - profile.byteOffset) % 4, signature).toBe(0);
    }
    for (const signature of ['desc', 'cprt']) expect(ascii(table.get(signature)!, 0, 4)).toBe('mluc');
    for (const signature of ['rTRC', 'gTRC', 'bTRC']) {
      const trc = table.get(signature)!;
      expect(ascii(trc, 0, 4)).toBe('para');
      expect(new DataView(trc.buffer, trc.byteOffset).getUint16(8)).toBe(0); // Y = X^g
      expect(s15(trc, 12)).toBeCloseTo(2.2, 4);
    }
    // chad takes the cHRM white (D65) to D50.
    const chad = table.get('chad')!;
    expect(ascii(chad, 0, 4)).toBe('sf32');
    const m = Array.from({ length: 9 }, (_, i) => s15(chad, 8 + 4 * i));
    const d65 = [0.3127 / 0.329, 1, (1 - 0.3127 - 0.329) / 0.329];
    expectClose([0, 1, 2].map((i) => m[3 * i]! * d65[0]! + m[3 * i + 1]! * d65[1]! + m[3 * i + 2]! * d65[2]!), D50, 0.0005, 'chad x D65');
  });

  it("passes the project's own checks: read back from a PNG's iCCP, and not taken for sRGB", async () => {
    const profile = chrmProfile(chrmData(...ADOBE_RGB_CHRM))!;
    expect(isSrgbProfile(profile)).toBe(false);
    const png = await insertIccProfile(syntheticPng(8, 8, false), 'png', profile);
    expect(await readIccProfile(png, 'png')).toEqual(profile);
  });

  it('is null for an invalid chunk, never an error', () => {
    const invalid: Array<[string, Uint8Array]> = [
      ['empty', new Uint8Array(0)],
      ['31 bytes', chrmData(...ADOBE_RGB_CHRM).subarray(0, 31)],
      ['36 bytes', chrmData(...ADOBE_RGB_CHRM, 0.1)],
      ['all zero', new Uint8Array(32)],
      ['white y = 0', chrmData(0.3127, 0, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06)],
      ['blue y = 0', chrmData(0.3127, 0.329, 0.64, 0.33, 0.21, 0.71, 0.15, 0)],
      ['x over 1', chrmData(0.3127, 0.329, 1.2, 0.33, 0.21, 0.71, 0.15, 0.06)],
      ['x + y over 1', chrmData(0.3127, 0.329, 0.74, 0.33, 0.21, 0.71, 0.15, 0.06)],
      ['a huge value', chrmData(0.3127, 0.329, 0.64, 0.33, 0.21, 0.71, 0.15, 21474.83647)],
      ['collinear primaries', chrmData(0.3127, 0.329, 0.6, 0.3, 0.4, 0.2, 0.2, 0.1)],
      ['two equal primaries', chrmData(0.3127, 0.329, 0.64, 0.33, 0.64, 0.33, 0.15, 0.06)],
      ['white outside the primaries', chrmData(0.1, 0.5, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06)],
    ];
    for (const [label, data] of invalid) expect(chrmProfile(data), label).toBeNull();
  });
});

describe('readIccProfile on a PNG with cHRM and no iCCP', () => {
  const gama = (value: number) => pngChunk('gAMA', Uint8Array.of(0, value >>> 16, (value >>> 8) & 255, value & 255));
  const adobe = () => pngChunk('cHRM', chrmData(...ADOBE_RGB_CHRM));
  const rgb = syntheticPng(16, 8, false);
  const expected = chrmProfile(chrmData(...ADOBE_RGB_CHRM));

  it('is the cHRM profile when a gAMA is there, whatever its value (the engine makes the samples 2.2)', async () => {
    for (const g of [45455, 100000]) {
      expect(await readIccProfile(withChunks(rgb, gama(g), adobe()), 'png'), `gAMA ${g}`).toEqual(expected);
      expect(await readIccProfile(withChunks(rgb, adobe(), gama(g)), 'png'), `cHRM first, gAMA ${g}`).toEqual(expected);
    }
  });

  it('is null without gAMA: browsers then ignore cHRM and show sRGB', async () => {
    expect(await readIccProfile(withChunks(rgb, adobe()), 'png')).toBeNull();
  });

  it('gives way to sRGB, cICP and iCCP, which outrank cHRM', async () => {
    expect(await readIccProfile(withChunks(rgb, pngChunk('sRGB', Uint8Array.of(0)), gama(45455), adobe()), 'png')).toBeNull();
    expect(await readIccProfile(withChunks(rgb, gama(45455), adobe(), pngChunk('sRGB', Uint8Array.of(0))), 'png')).toBeNull();
    expect(await readIccProfile(withChunks(rgb, pngChunk('cICP', Uint8Array.of(1, 13, 0, 1)), gama(45455), adobe()), 'png')).toBeNull();
    const p3 = await fixture('container/p3-iccp-chunk.bin');
    const p3Profile = await readIccProfile(withChunks(rgb, p3), 'png');
    expect(p3Profile).not.toBeNull();
    expect(await readIccProfile(withChunks(rgb, gama(45455), adobe(), p3), 'png')).toEqual(p3Profile);
  });

  it('is null when the chunks do not count: after IDAT, a bad CRC, an invalid gAMA or cHRM, sRGB primaries', async () => {
    const iend = rgb.length - 12;
    const cases: Array<[string, Uint8Array]> = [
      ['cHRM after IDAT', cat(withChunks(rgb, gama(45455)).subarray(0, iend + 16), adobe(), rgb.subarray(iend))],
      ['cHRM with a bad CRC', withChunks(rgb, gama(45455), adobe().map((b, i, a) => (i === a.length - 1 ? b ^ 1 : b)))],
      ['gAMA with a bad CRC', withChunks(rgb, gama(45455).map((b, i, a) => (i === a.length - 1 ? b ^ 1 : b)), adobe())],
      ['gAMA 0', withChunks(rgb, gama(0), adobe())],
      ['a 3-byte gAMA', withChunks(rgb, pngChunk('gAMA', Uint8Array.of(0, 0xb1, 0x8f)), adobe())],
      ['a 30-byte cHRM', withChunks(rgb, gama(45455), pngChunk('cHRM', chrmData(...ADOBE_RGB_CHRM).subarray(0, 30)))],
      ['a cHRM of zeros', withChunks(rgb, gama(45455), pngChunk('cHRM', new Uint8Array(32)))],
      ['sRGB primaries', withChunks(rgb, gama(45455), pngChunk('cHRM', chrmData(...SRGB_CHRM)))],
    ];
    for (const [label, png] of cases) expect(await readIccProfile(png, 'png'), label).toBeNull();
  });

  it('is null for a greyscale PNG (an RGB profile cannot describe it; grey stays neutral anyway)', async () => {
    const grey = await fixture('engine/pngsuite/basn0g08.png'); // has gAMA 1.0
    expect(await readIccProfile(withChunks(grey, adobe()), 'png')).toBeNull();
  });
});
