import { describe, expect, it } from 'vitest';
import { type ImageFormat, insertIccProfile, readIccProfile, readOrientation, stripMetadata } from '../../src/image/container';
import { ApiError } from '../../src/errors/api-error';
import { fixture } from '../helpers/fixtures';
import { expectUnsupported } from '../helpers/errors';
import { cat, hex, pngChunk, riff, riffChunk, text } from './synth';

const plainJpeg = () => fixture('engine/testorig.jpg');
const plainPng = () => fixture('engine/pngsuite/basn2c08.png');

/** Every public entry point must refuse bad containers with ApiError('unsupported_image'). */
async function expectAllRefuse(bytes: Uint8Array, format: ImageFormat) {
  const profile = (await readIccProfile(await fixture('bad/libjpeg-turbo-monkey12.jpg'), 'jpeg'))!;
  await expectUnsupported(() => stripMetadata(bytes, format));
  await expectUnsupported(() => readOrientation(bytes, format));
  await expectUnsupported(() => readIccProfile(bytes, format));
  await expectUnsupported(() => insertIccProfile(bytes, format, profile));
}

describe('malformed containers give ApiError unsupported_image', () => {
  it.each<[string, () => Promise<Uint8Array> | Uint8Array, ImageFormat]>([
    ['empty data as JPEG', () => new Uint8Array(0), 'jpeg'],
    ['empty data as PNG', () => new Uint8Array(0), 'png'],
    ['empty data as WebP', () => new Uint8Array(0), 'webp'],
    ['HTML as JPEG', () => text('<!doctype html><html></html>'), 'jpeg'],
    ['a GIF as PNG', () => text('GIF89a\x01\x00\x01\x00'), 'png'],
    ['a WAVE RIFF as WebP', () => cat(text('RIFF'), hex('04000000'), text('WAVE')), 'webp'],
    ['the corpus truncated JPEG', () => fixture('bad/jpeg-truncated.jpg'), 'jpeg'],
    ['the corpus truncated PNG', () => fixture('bad/png-truncated.png'), 'png'],
  ])('%s', async (_, load, format) => {
    await expectAllRefuse(await load(), format);
  });

  it('JPEG: bad segment lengths, markers before the frame, a missing EOI', async () => {
    const jpeg = await plainJpeg();
    await expectAllRefuse(cat(hex('ffd8ffe00001'), jpeg.subarray(6)), 'jpeg'); // length 1 < 2
    await expectAllRefuse(cat(hex('ffd8ffe0ffff'), jpeg.subarray(6, 100)), 'jpeg'); // runs past the end
    await expectAllRefuse(cat(hex('ffd8ffd9'), jpeg.subarray(2)), 'jpeg'); // EOI before any scan
    await expectAllRefuse(cat(hex('ffd8'), text('garbage without any marker')), 'jpeg');
    await expectAllRefuse(jpeg.subarray(0, jpeg.length - 2), 'jpeg'); // scan data without EOI
  });

  it('PNG: bad lengths and types, a missing IHDR or IEND', async () => {
    const png = await plainPng();
    await expectAllRefuse(png.subarray(0, png.length - 12), 'png'); // no IEND
    await expectAllRefuse(cat(png.subarray(0, 8), pngChunk('gAMA', hex('0000b18f')), png.subarray(8)), 'png');
    const badLength = png.slice();
    badLength.set(hex('ffffffff'), 33); // the chunk after IHDR claims 4 GB
    await expectAllRefuse(badLength, 'png');
    const badType = png.slice();
    badType.set(text('g@MA'), 37);
    await expectAllRefuse(badType, 'png');
  });

  it('WebP: RIFF size beyond the data, a chunk overrunning it, no image chunk first, a bad bitstream', async () => {
    const webp = await fixture('engine/small_1x1.webp');
    await expectAllRefuse(webp.subarray(0, webp.length - 10), 'webp');
    const overrun = webp.slice();
    overrun[16] = 0xff; // VP8 chunk size larger than the RIFF
    await expectAllRefuse(overrun, 'webp');
    await expectAllRefuse(riff(riffChunk('ICMT', text('x'))), 'webp');
    await expectAllRefuse(riff(), 'webp');
    // A simple file whose VP8 header is broken cannot get a VP8X canvas size.
    const badVp8 = riff(riffChunk('VP8 ', text('not a key frame')));
    await expectUnsupported(() => insertIccProfile(badVp8, 'webp', text('p')));
  });

  it('truncation at any offset and random byte damage never let another error type escape', async () => {
    const files: [Uint8Array, ImageFormat][] = [
      [await fixture('bad/libjpeg-turbo-monkey12.jpg'), 'jpeg'],
      [await fixture('engine/pngsuite/ctzn0g04.png'), 'png'],
      [await fixture('engine/lossy_alpha4.webp'), 'webp'],
    ];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (const [file, format] of files) {
      const variants = [];
      for (let cut = 0; cut < file.length; cut += Math.max(1, Math.floor(file.length / 400))) variants.push(file.subarray(0, cut));
      for (let i = 0; i < 300; i++) {
        const damaged = file.slice();
        for (let k = 0; k < 4; k++) damaged[Math.floor(random() * Math.min(damaged.length, 4096))] = Math.floor(random() * 256);
        variants.push(damaged);
      }
      for (const bytes of variants) {
        for (const run of [() => stripMetadata(bytes, format), () => readOrientation(bytes, format), () => readIccProfile(bytes, format)]) {
          try {
            await run();
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).code).toBe('unsupported_image');
          }
        }
      }
    }
  });
});
