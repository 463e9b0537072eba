import { describe, expect, it } from 'vitest';
import {
  insertIccProfile,
  readIccProfile,
  readOrientation,
  stripMetadata,
  stripMetadataWithReport,
} from '../../src/image/container';
import { minimalExif } from '../../src/image/container/exif';
import { fixture } from '../helpers/fixtures';
import { XMP_PACKET, cat, contains, riff, riffChunk, riffChunks, text, tiffWithGps, vp8x } from './synth';

const ICC = 0x20;
const ALPHA = 0x10;
const EXIF = 0x08;
const XMP = 0x04;
const ANIMATION = 0x02;

const fourccs = (webp: Uint8Array) => riffChunks(webp).map((c) => c.fourcc);
const chunk = (webp: Uint8Array, fourcc: string) => riffChunks(webp).find((c) => c.fourcc === fourcc)!.data;
/** monkey12.jpg's sRGB2014 profile, as a real profile to carry around. */
const srgbProfile = async () => (await readIccProfile(await fixture('bad/libjpeg-turbo-monkey12.jpg'), 'jpeg'))!;

/** lossy_alpha4.webp is VP8X (alpha flag, 100x100) + ALPH + VP8: rebuilt with metadata around it. */
async function extendedWithMetadata(orientation: number, profile: Uint8Array): Promise<Uint8Array> {
  const [, alph, vp8] = riffChunks(await fixture('engine/lossy_alpha4.webp'));
  return riff(
    riffChunk('VP8X', vp8x(ICC | ALPHA | EXIF | XMP, 100, 100)),
    riffChunk('ICCP', profile),
    riffChunk('ALPH', alph!.data),
    riffChunk('VP8 ', vp8!.data),
    riffChunk('EXIF', tiffWithGps(orientation)),
    riffChunk('XMP ', cat(XMP_PACKET, text(' '))), // 123 bytes: odd, so followed by a pad byte
  );
}

describe('WebP: stripMetadata', () => {
  it.each([
    ['small_1x1.webp', ['ICMT']],
    ['test.webp', ['IART', 'ICOP', 'INAM']],
  ])('removes the stray RIFF INFO-style chunks of %s, keeping the VP8 chunk byte-identical', async (name, gone) => {
    const input = await fixture(`engine/${name}`);
    const { bytes, removed } = stripMetadataWithReport(input, 'webp');
    expect(removed).toEqual(gone);
    expect(fourccs(bytes)).toEqual(['VP8 ']); // riffChunks also checks the RIFF size and padding
    expect(chunk(bytes, 'VP8 ')).toEqual(chunk(input, 'VP8 '));
  });

  it.each(['lossy_alpha4.webp', 'one_color_no_palette.webp'])('returns %s, which has no metadata, unchanged', async (name) => {
    const input = await fixture(`engine/${name}`);
    expect(stripMetadata(input, 'webp')).toEqual(input);
  });

  it('drops EXIF with GPS and XMP, re-adds a minimal EXIF for orientation 6, and fixes the VP8X flags', async () => {
    const profile = await srgbProfile();
    const input = await extendedWithMetadata(6, profile);
    const { bytes, removed, orientation } = stripMetadataWithReport(input, 'webp');
    expect(removed).toEqual(['EXIF', 'XMP']);
    expect(orientation).toBe(6);
    expect(fourccs(bytes)).toEqual(['VP8X', 'ICCP', 'ALPH', 'VP8 ', 'EXIF']);
    expect(chunk(bytes, 'VP8X')).toEqual(vp8x(ICC | ALPHA | EXIF, 100, 100));
    expect(chunk(bytes, 'EXIF')).toEqual(minimalExif(6));
    expect(chunk(bytes, 'ICCP')).toEqual(profile);
    expect(chunk(bytes, 'ALPH')).toEqual(chunk(input, 'ALPH'));
    expect(chunk(bytes, 'VP8 ')).toEqual(chunk(input, 'VP8 '));
    expect(readOrientation(bytes, 'webp')).toBe(6);
    expect(await readIccProfile(bytes, 'webp')).toEqual(profile);
    for (const secret of ['SECRET-CAMERA', 'GPSLatitude', 'xmpmeta']) expect(contains(bytes, secret)).toBe(false);
  });

  it('clears the EXIF and XMP flags when orientation is 1', async () => {
    const bytes = stripMetadata(await extendedWithMetadata(1, await srgbProfile()), 'webp');
    expect(fourccs(bytes)).toEqual(['VP8X', 'ICCP', 'ALPH', 'VP8 ']);
    expect(chunk(bytes, 'VP8X')).toEqual(vp8x(ICC | ALPHA, 100, 100));
  });

  it('leaves ANIM and ANMF frames untouched and keeps the animation flag', async () => {
    const vp8 = chunk(await fixture('engine/small_1x1.webp'), 'VP8 ');
    // ANMF payload (RFC 9649 2.7.1.2): X, Y, width - 1, height - 1, duration (24 bits each), flags.
    const frameHeader = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x64, 0, 0, 0x02];
    const frame = riffChunk('ANMF', new Uint8Array([...frameHeader, ...riffChunk('VP8 ', vp8)]));
    const input = riff(
      riffChunk('VP8X', vp8x(ANIMATION | EXIF, 1, 1)),
      riffChunk('ANIM', new Uint8Array(6)),
      frame,
      frame,
      riffChunk('EXIF', tiffWithGps(1)),
    );
    const bytes = stripMetadata(input, 'webp');
    expect(fourccs(bytes)).toEqual(['VP8X', 'ANIM', 'ANMF', 'ANMF']);
    expect(chunk(bytes, 'VP8X')).toEqual(vp8x(ANIMATION, 1, 1));
    expect(riffChunks(bytes).slice(1)).toEqual(riffChunks(input).slice(1, 4));
  });

  it('ignores an EXIF chunk in a simple (VP8) file, where the container does not define one', async () => {
    const input = riff(riffChunk('VP8 ', chunk(await fixture('engine/small_1x1.webp'), 'VP8 ')), riffChunk('EXIF', tiffWithGps(6)));
    expect(readOrientation(input, 'webp')).toBe(1);
    expect(fourccs(stripMetadata(input, 'webp'))).toEqual(['VP8 ']);
  });
});

describe('WebP: ICC profiles', () => {
  it('turns a simple lossy file into VP8X with the ICC flag and the canvas read from the VP8 header', async () => {
    const profile = await srgbProfile();
    const input = await fixture('engine/small_1x1.webp');
    const out = await insertIccProfile(input, 'webp', profile);
    expect(fourccs(out)).toEqual(['VP8X', 'ICCP', 'VP8 ', 'ICMT']);
    expect(chunk(out, 'VP8X')).toEqual(vp8x(ICC, 1, 1));
    expect(chunk(out, 'VP8 ')).toEqual(chunk(input, 'VP8 '));
    expect(await readIccProfile(out, 'webp')).toEqual(profile);
    // Without VP8X the container defines no ICCP: a stray one is not the image's profile.
    expect(await readIccProfile(riff(riffChunk('VP8 ', chunk(input, 'VP8 ')), riffChunk('ICCP', profile)), 'webp')).toBeNull();
  });

  it('sets the alpha flag from the VP8L header when converting a lossless file', async () => {
    const out = await insertIccProfile(await fixture('engine/one_color_no_palette.webp'), 'webp', await srgbProfile());
    expect(fourccs(out)).toEqual(['VP8X', 'ICCP', 'VP8L']);
    expect(chunk(out, 'VP8X')).toEqual(vp8x(ICC | ALPHA, 100, 100));
  });

  it('adds the ICC flag and an ICCP right after VP8X in an extended file, replacing an older ICCP', async () => {
    const profile = await srgbProfile();
    const input = await fixture('engine/lossy_alpha4.webp');
    const once = await insertIccProfile(input, 'webp', text('not a profile'));
    const out = await insertIccProfile(once, 'webp', profile);
    expect(fourccs(out)).toEqual(['VP8X', 'ICCP', 'ALPH', 'VP8 ']);
    expect(chunk(out, 'VP8X')).toEqual(vp8x(ICC | ALPHA, 100, 100));
    expect(await readIccProfile(out, 'webp')).toEqual(profile);
    expect(await readIccProfile(once, 'webp')).toBeNull(); // a malformed profile is ignored
    expect(await readIccProfile(input, 'webp')).toBeNull();
  });
});
