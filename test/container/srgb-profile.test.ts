import { describe, expect, it } from 'vitest';
import { readIccProfile } from '../../src/image/container';
import { isSrgbProfile } from '../../src/image/container/srgb-profile';
import { fixture } from '../helpers/fixtures';
import { withChunks } from './synth';
import { syntheticPng } from '../helpers/png';

async function profileOf(name: string): Promise<Uint8Array> {
  const profile = await readIccProfile(await fixture(name), 'png');
  if (!profile) throw new Error(`${name} has no profile`);
  return profile;
}

describe('isSrgbProfile', () => {
  it("recognises HP's sRGB IEC61966-2.1 (chelsea.png)", async () => {
    expect(isSrgbProfile(await profileOf('api/chelsea.png'))).toBe(true);
  });

  it('rejects wide-gamut profiles (Rec. 2020, Display P3)', async () => {
    expect(isSrgbProfile(await profileOf('colour/R2020-sRGB-color-bars-200.png'))).toBe(false);
    const p3 = withChunks(syntheticPng(8, 8, false), await fixture('container/p3-iccp-chunk.bin'));
    expect(isSrgbProfile((await readIccProfile(p3, 'png'))!)).toBe(false);
  });

  it('rejects an sRGB profile with one colourant or one tone curve changed', async () => {
    const srgb = await profileOf('api/chelsea.png');
    const at = (sig: string) => {
      const count = new DataView(srgb.buffer, srgb.byteOffset).getUint32(128);
      for (let i = 0; i < count; i++) {
        if (String.fromCharCode(...srgb.subarray(132 + 12 * i, 136 + 12 * i)) === sig) return new DataView(srgb.buffer, srgb.byteOffset).getUint32(136 + 12 * i);
      }
      throw new Error(sig);
    };
    const primary = srgb.slice();
    primary[at('gXYZ') + 10]! ^= 0x40; // green X moves by 0.004
    expect(isSrgbProfile(primary)).toBe(false);
    const curve = srgb.slice();
    curve[at('bTRC') + 12 + 2 * 512]! ^= 0x10; // one mid-tone sample of blue's curve
    expect(isSrgbProfile(curve)).toBe(false);
  });
});
