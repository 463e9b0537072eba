import { describe, expect, it } from 'vitest';
import {
  insertIccProfile,
  readIccProfile,
  readOrientation,
  stripMetadata,
  stripMetadataWithReport,
} from '../../src/image/container';
import { ICC_BYTES_PER_SEGMENT } from '../../src/image/container/icc';
import { minimalExif } from '../../src/image/container/exif';
import { readHeader } from '../../src/image/header/read-header';
import { expectUnsupported } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';
import {
  LANDSCAPE_6_EXIF,
  XMP_PACKET,
  cat,
  contains,
  exifApp1,
  hex,
  jpegMarkers,
  jpegSegment,
  jpegSosOffset,
  text,
  tiffWithGps,
  withSegments,
} from './synth';

/** libjpeg-turbo's monkey12.jpg: JFIF APP0 and a one-segment APP2 ICC profile (sRGB2014). */
const monkey = () => fixture('bad/libjpeg-turbo-monkey12.jpg');
/** libjpeg-turbo's testorig.jpg: JFIF APP0 only. */
const plain = () => fixture('engine/testorig.jpg');

const scansOf = (jpeg: Uint8Array) => jpeg.subarray(jpegSosOffset(jpeg));
/** GPSLatitude's third rational, 2639/100, as stored little-endian. */
const GPS_SECONDS = hex('4f0a000064000000');

/** A valid profile of `size` bytes: a real header and tag table, padded with zeros. */
function paddedProfile(profile: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(profile);
  new DataView(out.buffer).setUint32(0, size);
  return out;
}

describe('JPEG: stripMetadata', () => {
  it('removes EXIF with GPS, XMP, IPTC, comments and MPF, and keeps JFIF, ICC, Adobe and the scans', async () => {
    const input = withSegments(await monkey(), [
      exifApp1(tiffWithGps(1)),
      jpegSegment(0xe1, XMP_PACKET),
      jpegSegment(0xed, text('Photoshop 3.0\x008BIM\x04\x04 caption: Secret Street')),
      jpegSegment(0xfe, text('shot at Secret Street')),
      jpegSegment(0xe2, text('MPF\0II*\0')),
      jpegSegment(0xee, hex('41646f62650064000000000001')), // 'Adobe', version, flags, transform 1
    ]);
    const { bytes, removed, orientation } = stripMetadataWithReport(input, 'jpeg');

    expect(removed).toEqual(['EXIF', 'XMP', 'APP13', 'COM', 'APP2']);
    expect(orientation).toBe(1);
    expect(jpegMarkers(bytes).slice(0, 3)).toEqual([0xe0, 0xee, 0xe2]);
    expect(jpegMarkers(bytes).filter((m) => m === 0xe1 || m === 0xed || m === 0xfe)).toEqual([]);
    for (const secret of ['SECRET-CAMERA', 'GPSLatitude', 'Secret Street', '8BIM', 'MPF\0', 'Exif']) {
      expect(contains(bytes, secret), secret).toBe(false);
    }
    expect(contains(bytes, GPS_SECONDS)).toBe(false);
    expect(bytes.subarray(0, 2)).toEqual(hex('ffd8'));
    expect(scansOf(bytes)).toEqual(scansOf(input));
    expect(await readIccProfile(bytes, 'jpeg')).toEqual(await readIccProfile(input, 'jpeg'));
  });

  it('returns a file without metadata unchanged', async () => {
    const input = await monkey();
    expect(stripMetadata(input, 'jpeg')).toEqual(input);
    expect(stripMetadataWithReport(input, 'jpeg').removed).toEqual([]);
  });

  it.each([2, 3, 4, 5, 6, 7, 8])('keeps orientation %i as a minimal EXIF right after JFIF', async (n) => {
    const input = withSegments(await plain(), [exifApp1(tiffWithGps(n))]);
    const out = stripMetadata(input, 'jpeg');
    expect(jpegMarkers(out).slice(0, 2)).toEqual([0xe0, 0xe1]);
    expect(out.subarray(20, 20 + 4 + 6 + 26)).toEqual(cat(hex('ffe10022'), text('Exif\0\0'), minimalExif(n)));
    expect(readOrientation(out, 'jpeg')).toBe(n);
    expect(contains(out, 'SECRET-CAMERA')).toBe(false);
    expect(contains(out, GPS_SECONDS)).toBe(false);
    expect(scansOf(out)).toEqual(scansOf(input));
  });

  it('keeps a real big-endian EXIF orientation (exif-Landscape_6) and drops the rest of that EXIF', async () => {
    const input = withSegments(await plain(), [jpegSegment(0xe1, LANDSCAPE_6_EXIF)]);
    expect(readOrientation(input, 'jpeg')).toBe(6);
    const out = stripMetadata(input, 'jpeg');
    expect(readOrientation(out, 'jpeg')).toBe(6);
    expect(out.length).toBe(input.length - LANDSCAPE_6_EXIF.length + 6 + 26);
  });

  it('writes no EXIF at all for orientation 1 and puts EXIF first when there is no JFIF', async () => {
    const withoutJfif = cat(hex('ffd8'), exifApp1(tiffWithGps(3)), (await plain()).subarray(20));
    const out = stripMetadata(withoutJfif, 'jpeg');
    expect(jpegMarkers(out)[0]).toBe(0xe1);
    expect(readOrientation(out, 'jpeg')).toBe(3);
    const upright = stripMetadata(withSegments(await plain(), [exifApp1(tiffWithGps(1))]), 'jpeg');
    expect(upright).toEqual(await plain());
  });

  it('removes the thumbnail a JFIF APP0 may carry, keeping version, units and density', async () => {
    const jfifWithThumb = jpegSegment(0xe0, cat(hex('4a46494600' + '0102' + '01' + '00480048' + '0201'), hex('ff0000ff0000')));
    const input = cat(hex('ffd8'), jfifWithThumb, (await plain()).subarray(20));
    const { bytes, removed } = stripMetadataWithReport(input, 'jpeg');
    expect(removed).toEqual(['JFIF thumbnail']);
    expect(bytes.subarray(0, 20)).toEqual(hex('ffd8' + 'ffe00010' + '4a46494600' + '0102' + '01' + '00480048' + '0000'));
  });

  it('drops data after EOI, such as the second image of an MPF file with its own EXIF', async () => {
    const input = await plain();
    const secondImage = withSegments(input, [exifApp1(tiffWithGps(6))]);
    const out = stripMetadata(cat(input, secondImage), 'jpeg');
    expect(out).toEqual(input);
  });

  it('copies multi-scan data verbatim, past stuffed bytes, restart markers and tables between scans', async () => {
    const header = (await plain()).subarray(0, jpegSosOffset(await plain()));
    const sos = jpegSegment(0xda, hex('0301000211031100' + '3f00'));
    const scans = cat(
      sos, hex('12ff0034ffd056ff0078'), // entropy data with a stuffed 0xFF and an RST0
      jpegSegment(0xc4, hex('0000')), // a DHT between scans, as in progressive files
      sos, hex('9aff00bc'),
      hex('ffffd9'), // a fill byte before EOI
    );
    const input = cat(withSegments(header, [jpegSegment(0xfe, text('comment'))]), scans);
    const out = stripMetadata(input, 'jpeg');
    expect(out).toEqual(cat(header, scans));
  });

  it('removes APPn and COM between scans and before EOI too, keeping the tables and scans there', async () => {
    const header = (await plain()).subarray(0, jpegSosOffset(await plain()));
    const sos = jpegSegment(0xda, hex('0301000211031100' + '3f00'));
    const dht = jpegSegment(0xc4, hex('0000'));
    const exif = exifApp1(tiffWithGps(6));
    const comment = jpegSegment(0xfe, text('shot at Secret Street'));
    const jfif = jpegSegment(0xe0, hex('4a46494600' + '0102' + '01' + '00480048' + '0000'));
    const input = cat(header, sos, hex('12ff0034'), exif, dht, comment, sos, hex('9aff00bc'), jfif, comment, hex('ffd9'));
    const { bytes, removed, orientation } = stripMetadataWithReport(input, 'jpeg');
    expect(bytes).toEqual(cat(header, sos, hex('12ff0034'), dht, sos, hex('9aff00bc'), hex('ffd9')));
    expect(removed).toEqual(['EXIF', 'COM', 'APP0']);
    // Only an EXIF before the first scan gives the orientation.
    expect(orientation).toBe(1);
  });

  it('refuses stray bytes between segments, as the engine does (libjpeg warns of extraneous data: corrupt to it)', async () => {
    const input = await plain();
    const stray = cat(input.subarray(0, 20), text('\0\0stray'), input.subarray(20));
    await expectUnsupported(() => stripMetadata(stray, 'jpeg'));
    await expectUnsupported(() => readHeader(stray));
  });

  it('is idempotent', async () => {
    const once = stripMetadata(withSegments(await monkey(), [exifApp1(tiffWithGps(8)), jpegSegment(0xe1, XMP_PACKET)]), 'jpeg');
    expect(stripMetadata(once, 'jpeg')).toEqual(once);
  });
});

describe('JPEG: ICC profiles', () => {
  it('reads a one-segment profile (monkey12: sRGB2014)', async () => {
    const profile = await readIccProfile(await monkey(), 'jpeg');
    expect(profile).not.toBeNull();
    expect(new DataView(profile!.buffer, profile!.byteOffset).getUint32(0)).toBe(profile!.length);
    expect(String.fromCharCode(...profile!.subarray(36, 40))).toBe('acsp');
    expect(await readIccProfile(await plain(), 'jpeg')).toBeNull();
  });

  it('inserts a large profile as numbered APP2 segments of at most 65519 profile bytes, byte-identical on read', async () => {
    const profile = paddedProfile((await readIccProfile(await monkey(), 'jpeg'))!, 2 * ICC_BYTES_PER_SEGMENT + 1000);
    const input = withSegments(await plain(), [exifApp1(tiffWithGps(6))]);
    const out = await insertIccProfile(input, 'jpeg', profile);
    expect(jpegMarkers(out).slice(0, 5)).toEqual([0xe0, 0xe1, 0xe2, 0xe2, 0xe2]);
    // The first APP2 starts after SOI, APP0 (18 bytes) and the EXIF APP1.
    const app2 = 2 + 18 + 4 + 6 + 118;
    expect(out.subarray(app2, app2 + 18)).toEqual(cat(hex('ffe2ffff'), text('ICC_PROFILE\0'), hex('0103')));
    expect(await readIccProfile(out, 'jpeg')).toEqual(profile);
    expect(scansOf(out)).toEqual(scansOf(input));
    expect(readOrientation(out, 'jpeg')).toBe(6);
  });

  it('replaces an existing profile instead of adding a second one', async () => {
    const original = (await readIccProfile(await monkey(), 'jpeg'))!;
    const other = paddedProfile(original, original.length + 400);
    const out = await insertIccProfile(await monkey(), 'jpeg', other);
    expect(jpegMarkers(out).filter((m) => m === 0xe2)).toHaveLength(1);
    expect(await readIccProfile(out, 'jpeg')).toEqual(other);
  });

  it('reassembles segments by sequence number, not file order', async () => {
    const profile = paddedProfile((await readIccProfile(await monkey(), 'jpeg'))!, ICC_BYTES_PER_SEGMENT + 10);
    const part = (seq: number, data: Uint8Array) => jpegSegment(0xe2, cat(text('ICC_PROFILE\0'), Uint8Array.of(seq, 2), data));
    const one = part(1, profile.subarray(0, ICC_BYTES_PER_SEGMENT));
    const two = part(2, profile.subarray(ICC_BYTES_PER_SEGMENT));
    expect(await readIccProfile(withSegments(await plain(), [two, one]), 'jpeg')).toEqual(profile);
    // Missing, duplicated and out-of-range sequence numbers make the profile unusable, not the image.
    expect(await readIccProfile(withSegments(await plain(), [two]), 'jpeg')).toBeNull();
    expect(await readIccProfile(withSegments(await plain(), [two, two]), 'jpeg')).toBeNull();
    expect(await readIccProfile(withSegments(await plain(), [one, part(3, new Uint8Array(4))]), 'jpeg')).toBeNull();
  });

  it('returns null for a profile whose header is broken', async () => {
    const profile = (await readIccProfile(await monkey(), 'jpeg'))!.slice();
    profile.set(text('xxxx'), 36);
    const broken = jpegSegment(0xe2, cat(text('ICC_PROFILE\0'), Uint8Array.of(1, 1), profile));
    expect(await readIccProfile(withSegments(await plain(), [broken]), 'jpeg')).toBeNull();
    const cut = jpegSegment(0xe2, cat(text('ICC_PROFILE\0'), Uint8Array.of(1, 1), profile.subarray(0, 100)));
    expect(await readIccProfile(withSegments(await plain(), [cut]), 'jpeg')).toBeNull();
  });
});
