import { describe, expect, it } from 'vitest';
import { insertIccProfile, readIccProfile } from '../../src/image/container';
import { cat, contains, exifApp1, jpegSegment, pngChunk, text, tiffWithGps, withChunks, withSegments, XMP_PACKET } from '../container/synth';
import { compress, fixture } from '../helpers/api';
import { blackPng, iccBombChunk, zlib } from '../helpers/crafted';
import { responseImage } from '../helpers/images';
import { syntheticPng } from '../helpers/png';

const FORMATS = ['jpeg', 'png', 'webp'] as const;

describe('what the output carries', () => {
  it('keeps the ICC profile of a wide-gamut image in every output format', async () => {
    const input = withChunks(syntheticPng(300, 200, false), await fixture('container/p3-iccp-chunk.bin'));
    const profile = await readIccProfile(input, 'png');
    expect(profile).not.toBeNull();
    for (const format of FORMATS) {
      const response = await compress(input, { format, quality: '70' });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Compression-Notes')).toContain('icc-kept');
      const { bytes } = await responseImage(response);
      expect(await readIccProfile(bytes, format)).toEqual(profile);
    }
  });

  // Issue 35 item 5: a 1,163-byte PNG whose iCCP inflated to a 1 MB profile of zeros came back as a 1,000,660-byte JPEG.
  it('drops a profile that does not parse as one, and one that would add more than 64 KiB or twice the input to the answer', async () => {
    const p3 = (await readIccProfile(withChunks(syntheticPng(8, 8, false), await fixture('container/p3-iccp-chunk.bin')), 'png'))!;
    const padded = (size: number) => {
      const profile = new Uint8Array(size);
      profile.set(p3);
      new DataView(profile.buffer).setUint32(0, size);
      return profile;
    };
    const iccp = async (profile: Uint8Array) => pngChunk('iCCP', cat(text('icc\0'), Uint8Array.of(0), await zlib([profile])));
    const zeroed = blackPng(16, 16, 3, [await iccBombChunk(1_000_000)]);
    const inflating = blackPng(16, 16, 3, [await iccp(padded(1_000_000))]);
    for (const input of [zeroed, inflating]) {
      expect(input.length).toBeLessThan(3_000);
      const response = await compress(input, { format: 'jpeg' });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Compression-Notes') ?? '').not.toContain('icc-kept');
      expect((await responseImage(response)).bytes.length).toBeLessThan(3_000);
    }
    // A profile the input carried as it is (JPEG's APP2) adds no more than the input had: carried.
    const large = padded(300_000);
    const jpeg = await insertIccProfile(await fixture('engine/testorig.jpg'), 'jpeg', large);
    const response = await compress(jpeg, { format: 'webp' });
    expect(response.headers.get('X-Compression-Notes')).toContain('icc-kept');
    expect(await readIccProfile((await responseImage(response)).bytes, 'webp')).toEqual(large);
  });

  it('strips EXIF (with GPS), XMP and comments from JPEG input, in every output format', async () => {
    const secret = text('SECRET-COMMENT');
    const input = withSegments(await fixture('engine/testorig.jpg'), [exifApp1(tiffWithGps(1)), jpegSegment(0xe1, XMP_PACKET), jpegSegment(0xfe, secret)]);
    for (const format of FORMATS) {
      const response = await compress(input, { format, quality: '90' });
      expect(response.status).toBe(200);
      const { bytes } = await responseImage(response);
      for (const leak of ['Exif', 'xmpmeta', 'SECRET-COMMENT']) expect(contains(bytes, leak), `${format}: ${leak}`).toBe(false);
    }
  });

  it('strips text chunks and eXIf from PNG input, also when the original is returned', async () => {
    const input = withChunks(await fixture('engine/pngsuite/basn0g08.png'), pngChunk('tEXt', text('Author\0SECRET-AUTHOR')), pngChunk('eXIf', tiffWithGps(1)));
    for (const fields of [{ format: 'png', quality: '100' }, { format: 'webp' }] as Record<string, string>[]) {
      const response = await compress(input, fields);
      expect(response.status).toBe(200);
      const { bytes } = await responseImage(response);
      expect(contains(bytes, 'SECRET-AUTHOR')).toBe(false);
      expect(contains(bytes, 'eXIf')).toBe(false);
    }
  });

  it('says what was done in X-Compression-Notes', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['engine/pngsuite/basn6a08.png', { format: 'jpeg' }, 'converted, alpha-flattened'],
      ['api/chelsea.png', { maxWidth: '100' }, 'resized'], // chelsea.png's plain sRGB profile is left out
      ['engine/444.jpg', { quality: '100' }, 'lossless-recoded'],
      ['engine/444-progressive.jpg', { quality: '100' }, 'original-returned'],
    ];
    for (const [name, fields, notes] of cases) {
      const response = await compress(await fixture(name), fields);
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Compression-Notes'), name).toBe(notes);
      await response.arrayBuffer();
    }
  });
});
