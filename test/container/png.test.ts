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
import { expectUnsupported } from '../helpers/errors';
import { cat, contains, hex, pngChunk, pngChunks, text, tiffWithGps, withChunks } from './synth';

const types = (png: Uint8Array) => pngChunks(png).map((c) => c.type);
const idat = (png: Uint8Array) => cat(...pngChunks(png).filter((c) => c.type === 'IDAT').map((c) => c.raw));
/** The iCCP chunk of P3-sRGB-color-ring.png: a 500-byte Display P3 profile, zlib-compressed. */
const p3Iccp = () => fixture('container/p3-iccp-chunk.bin');

describe('PNG: stripMetadata', () => {
  it.each([
    ['ctzn0g04.png', ['tEXt', 'zTXt']],
    ['cten0g04.png', ['iTXt']],
    ['cm7n0g04.png', ['tIME']],
  ])('removes the text and time chunks of PngSuite %s and keeps IDAT byte-identical', async (name, gone) => {
    const input = await fixture(`engine/pngsuite/${name}`);
    const { bytes, removed } = stripMetadataWithReport(input, 'png');
    expect(removed).toEqual(gone);
    expect(types(bytes)).toEqual(['IHDR', 'gAMA', 'IDAT', 'IEND']);
    expect(bytes.subarray(0, 8)).toEqual(hex('89504e470d0a1a0a'));
    expect(idat(bytes)).toEqual(idat(input));
  });

  it.each(['tbbn3p08.png', 'ccwn2c08.png'])('keeps colour, palette and transparency chunks: %s is unchanged', async (name) => {
    const input = await fixture(`engine/pngsuite/${name}`);
    expect(stripMetadata(input, 'png')).toEqual(input);
  });

  it('replaces an eXIf holding GPS by a minimal one, drops private chunks, keeps iCCP and pHYs verbatim', async () => {
    const iccp = await p3Iccp();
    const phys = pngChunk('pHYs', hex('00000b1300000b1301'));
    const input = withChunks(
      await fixture('engine/pngsuite/basn2c08.png'),
      iccp,
      phys,
      pngChunk('eXIf', tiffWithGps(6)),
      pngChunk('tEXt', text('Location\0Secret Street')),
      pngChunk('prVt', text('SECRET-CAMERA serial 1234')),
    );
    const { bytes, removed, orientation } = stripMetadataWithReport(input, 'png');
    expect(removed).toEqual(['eXIf', 'tEXt', 'prVt']);
    expect(orientation).toBe(6);
    expect(types(bytes)).toEqual(['IHDR', 'eXIf', 'iCCP', 'pHYs', 'gAMA', 'IDAT', 'IEND']);
    const chunks = pngChunks(bytes);
    expect(chunks[1]!.raw).toEqual(pngChunk('eXIf', minimalExif(6))); // correct length and CRC
    expect(chunks[2]!.raw).toEqual(iccp);
    expect(chunks[3]!.raw).toEqual(phys);
    expect(readOrientation(bytes, 'png')).toBe(6);
    for (const secret of ['SECRET-CAMERA', 'Secret Street']) expect(contains(bytes, secret)).toBe(false);
    expect(idat(bytes)).toEqual(idat(input));
  });

  it('writes no eXIf for orientation 1 and drops data after IEND', async () => {
    const base = await fixture('engine/pngsuite/basn2c08.png');
    const input = cat(withChunks(base, pngChunk('eXIf', tiffWithGps(1))), text('trailing SECRET'));
    expect(stripMetadata(input, 'png')).toEqual(base);
  });

  it('keeps a broken iCCP verbatim: the edit is lossless, and browsers ignore a broken profile', async () => {
    const input = await fixture('colour/broken_iccp.png');
    expect(stripMetadata(input, 'png')).toEqual(input);
  });
});

describe('PNG: ICC profiles', () => {
  it('inflates a real iCCP profile', async () => {
    const png = withChunks(await fixture('engine/pngsuite/basn2c08.png'), await p3Iccp());
    const profile = await readIccProfile(png, 'png');
    expect(profile?.length).toBe(500);
    expect(String.fromCharCode(...profile!.subarray(36, 40))).toBe('acsp');
    expect(await readIccProfile(await fixture('engine/pngsuite/basn2c08.png'), 'png')).toBeNull();
  });

  it('returns null for the corrupt iCCP of broken_iccp.png instead of failing', async () => {
    expect(await readIccProfile(await fixture('colour/broken_iccp.png'), 'png')).toBeNull();
  });

  it("stops inflating an iCCP bomb at the decoder's limit (2 MiB) and refuses it, as the decoder would", async () => {
    // A plausible header claiming 17 MB, then zeros: compresses to a few KB.
    const huge = new Uint8Array(17_000_000);
    new DataView(huge.buffer).setUint32(0, huge.length);
    huge.set(text('acsp'), 36);
    const compressed = new Uint8Array(await new Response(new Blob([huge]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
    const bomb = pngChunk('iCCP', cat(text('bomb\0\0'), compressed));
    const error = await expectUnsupported(readIccProfile(withChunks(await fixture('engine/pngsuite/basn2c08.png'), bomb), 'png'));
    expect(error.message).toMatch(/more than 2 MiB once inflated/);
  });

  it('takes a profile only when its colour space fits the colour type (GRAY for greyscale, RGB otherwise)', async () => {
    const rgb = (await readIccProfile(withChunks(await fixture('engine/pngsuite/basn2c08.png'), await p3Iccp()), 'png'))!;
    // A GRAY profile reads its tone curve from kTRC: the RGB one's rTRC, renamed.
    const gray = rgb.slice();
    gray.set(text('GRAY'), 16);
    const table = new DataView(gray.buffer, 132, 12 * new DataView(gray.buffer).getUint32(128));
    for (let entry = 0; entry < table.byteLength; entry += 12) if (table.getUint32(entry) === 0x72545243) gray.set(text('kTRC'), 132 + entry);
    const greyPng = await fixture('engine/pngsuite/cm7n0g04.png'); // colour type 0
    expect(await insertIccProfile(greyPng, 'png', rgb)).toEqual(greyPng);
    expect(await readIccProfile(withChunks(greyPng, await p3Iccp()), 'png')).toBeNull();
    const withGray = await insertIccProfile(greyPng, 'png', gray);
    expect(await readIccProfile(withGray, 'png')).toEqual(gray);
  });

  it('inserts iCCP right after IHDR, drops sRGB and an older iCCP, and reads back byte-identical', async () => {
    const profile = (await readIccProfile(withChunks(await fixture('engine/pngsuite/basn2c08.png'), await p3Iccp()), 'png'))!;
    const input = withChunks(await fixture('engine/pngsuite/basn2c08.png'), pngChunk('sRGB', hex('00')), await p3Iccp());
    const other = profile.slice();
    other[44] = 0x41; // a different (still valid) profile: change the platform signature byte
    const out = await insertIccProfile(input, 'png', other);
    expect(types(out)).toEqual(['IHDR', 'iCCP', 'gAMA', 'IDAT', 'IEND']);
    const iccp = pngChunks(out)[1]!;
    expect(iccp.raw).toEqual(pngChunk('iCCP', iccp.data)); // correct CRC
    expect(await readIccProfile(out, 'png')).toEqual(other);
    expect(idat(out)).toEqual(idat(input));
  });
});
