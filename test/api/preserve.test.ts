import { describe, expect, it } from 'vitest';
import { readKeptMetadata, type KeptMetadata } from '../../src/image/container/read-metadata';
import { stripMetadata } from '../../src/image/container';
import { METADATA_CLASSES, type MetadataClass } from '../../src/image/types';
import { compress, errorBody, fixture, form, toBase64 } from '../helpers/api';
import { avifLayout, avifMetadataItems, avifPixels } from '../helpers/avif';
import { responseImage } from '../helpers/images';
import { pixelPng } from '../helpers/png';
import { cat, contains, hex, pngChunk, pngChunks, text, withChunks } from '../container/synth';
import { keptExif } from '../../src/image/container/metadata-classes';
import { stripAvifMetadata } from '../../src/image/container/avif-items';

/**
 * `preserve` (decisions.md, "Metadata the owner keeps"). The fixtures carry every class and tags no class keeps
 * (test/fixtures/metadata/tags.args): what an output holds is read back with the service's own readers here
 * (test/e2e/preserve.e2e.mjs reads it with exiftool).
 */

const ALL = [...METADATA_CLASSES];
/** Values of tags.args no class keeps: camera, software, description, keywords, instructions, XMP's tiff:Orientation. */
const NEVER = ['SECRET', 'SecretCam', 'SecretEditor', 'secret-keyword', 'tiff:Orientation', 'Rating'];
/** A value each class brings, as its bytes appear in every output (EXIF ASCII, XMP, IIM UTF-8). */
const SIGN: Record<MetadataClass, string[]> = {
  copyright: ['Ana Fotógrafa', 'Licensed for web use only', 'Example Agency', 'creativecommons.org/licenses/by-nc'],
  creation: ['2026:05:04 10:11:12', '2026-05-04T10:11:12+02:00'],
  location: ['Paris', 'Champ de Mars', 'GPSLatitude'],
};

const utf8 = (s: string) => new TextEncoder().encode(s);

/** What every class finds in an output, by the service's reader: the classes that came back. */
async function classesIn(bytes: Uint8Array, format: 'jpeg' | 'png' | 'webp' | 'avif'): Promise<MetadataClass[]> {
  const found: MetadataClass[] = [];
  for (const c of ALL) if (await readKeptMetadata(bytes, format, [c])) found.push(c);
  return found;
}

const count = (kept: KeptMetadata | null) =>
  kept ? { ifd0: kept.exif.ifd0.length, exif: kept.exif.exif.length, gps: kept.exif.gps.length, xmp: kept.xmp.length, iim: kept.iim.length } : null;

describe('preserve: the field', () => {
  const png = () => fixture('engine/pngsuite/basn2c08.png');
  const cases: Array<[string, () => Promise<FormData | string>, RegExp]> = [
    ['an unknown name (JSON)', async () => JSON.stringify({ image: toBase64(await png()), preserve: ['copyright', 'gps'] }), /^preserve\.1: /],
    ['a string instead of an array (JSON)', async () => JSON.stringify({ image: toBase64(await png()), preserve: 'copyright' }), /^preserve: /],
    ['a name of another case (JSON)', async () => JSON.stringify({ image: toBase64(await png()), preserve: ['Copyright'] }), /^preserve\.0: /],
    ['a number in the array (JSON)', async () => JSON.stringify({ image: toBase64(await png()), preserve: [1] }), /^preserve\.0: /],
    ['an unknown name (multipart)', async () => form('file', await png(), { preserve: 'copyright,exif' }), /^preserve\.1: /],
    ['an empty name in the list (multipart)', async () => form('file', await png(), { preserve: 'copyright,,location' }), /^preserve\.1: /],
    ['more than 12 names', async () => JSON.stringify({ image: toBase64(await png()), preserve: Array(13).fill('copyright') }), /^preserve: /],
  ];
  for (const [name, body, message] of cases) {
    it(`${name} is 400 bad_request naming the field`, async () => {
      const response = await compress(await body());
      expect(response.status).toBe(400);
      const error = await errorBody(response);
      expect(error.error).toBe('bad_request');
      expect(error.message).toMatch(message);
      expect(Object.keys(error).sort()).toEqual(['error', 'message']);
    });
  }

  it('takes a JSON array and a multipart list, spaces, repeats and an empty list included', async () => {
    const input = await fixture('metadata/tagged.png');
    for (const [body, kept] of [
      [JSON.stringify({ image: toBase64(input), format: 'png', preserve: ['location', 'copyright', 'location'] }), ['copyright', 'location']],
      [form('file', input, { format: 'png', preserve: ' creation , copyright' }), ['copyright', 'creation']],
      [form('file', input, { format: 'png', preserve: '' }), []],
      [JSON.stringify({ image: toBase64(input), format: 'png', preserve: [] }), []],
    ] as const) {
      const response = await compress(body);
      expect(response.status).toBe(200);
      const { bytes } = await responseImage(response);
      expect(await classesIn(bytes, 'png')).toEqual(kept);
      expect(response.headers.get('X-Compression-Notes') ?? '').toContain(kept.length ? 'metadata-kept' : '');
    }
  });
});

describe('preserve: what each output carries', () => {
  for (const to of ['jpeg', 'png', 'webp'] as const) {
    it(`from a JPEG with EXIF, XMP and IPTC to ${to}: each class alone, all of them, none; never the rest`, async () => {
      const input = await fixture('metadata/tagged.jpg');
      for (const asked of [[], ['copyright'], ['creation'], ['location'], ALL] as MetadataClass[][]) {
        const response = await compress(form('file', input, { format: to, preserve: asked.join(',') }));
        expect(response.status).toBe(200);
        const notes = response.headers.get('X-Compression-Notes')!.split(', ');
        expect(notes.includes('metadata-kept'), `${asked}`).toBe(asked.length > 0);
        expect(notes).not.toContain('metadata-truncated');
        const { bytes } = await responseImage(response);
        expect(await classesIn(bytes, to), `${asked}`).toEqual(asked);
        for (const c of ALL) for (const sign of SIGN[c]) expect(contains(bytes, utf8(sign)), `${to} ${asked}: ${sign}`).toBe(asked.includes(c));
        for (const secret of NEVER) expect(contains(bytes, utf8(secret)), `${to} ${asked}: ${secret}`).toBe(false);
        // The pixels are upright (orientation 6 was applied): no orientation tag is written.
        expect(notes).toContain('orientation-applied');
        expect(contains(bytes, Uint8Array.of(0x01, 0x12, 0x00, 0x03))).toBe(false);
      }
    });
  }

  it('from an AVIF with an Exif item (its TIFF header at offset 6) and an XMP item, to every format: each class alone, all, none; never the rest', async () => {
    const input = await fixture('metadata/tagged.avif');
    for (const to of ['jpeg', 'png', 'webp', 'avif'] as const) {
      for (const asked of [[], ['copyright'], ['creation'], ['location'], ALL] as MetadataClass[][]) {
        const response = await compress(form('file', input, { format: to, preserve: asked.join(',') }));
        expect(response.status).toBe(200);
        expect(response.headers.get('X-Compression-Notes')!.split(', ').includes('metadata-kept'), `${to} ${asked}`).toBe(asked.length > 0);
        const { bytes, header } = await responseImage(response);
        expect(await classesIn(bytes, to), `${to} ${asked}`).toEqual(asked);
        expect(contains(bytes, utf8('2026:05:04 10:11:12')), `${to} ${asked}`).toBe(asked.includes('creation'));
        for (const secret of NEVER) expect(contains(bytes, utf8(secret)), `${to} ${asked}: ${secret}`).toBe(false);
        // Upright by its irot alone: the Exif item's orientation 6 (which avifenc kept) is neither applied again nor written.
        expect([header.width, header.height]).toEqual([450, 300]);
        expect(contains(bytes, Uint8Array.of(0x01, 0x12, 0x00, 0x03))).toBe(false);
      }
    }
  });

  it('an AVIF Exif item whose TIFF offset points past it is passed over; its XMP item is still kept', async () => {
    const input = (await fixture('metadata/tagged.avif')).slice();
    const at = input.findIndex((_, i) => contains(input.subarray(i, i + 10), hex('00000006457869660000')));
    input.set(hex('7fffff00'), at);
    const response = await compress(form('file', input, { format: 'jpeg', preserve: 'creation' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Compression-Notes')).toContain('metadata-kept');
    const { bytes } = await responseImage(response);
    expect(contains(bytes, utf8('2026:05:04 10:11:12'))).toBe(false);
    expect(contains(bytes, utf8('2026-05-04T10:11:12+02:00'))).toBe(true);
  });

  it('IPTC goes into JPEG as IPTC, and into PNG and WebP as XMP where the XMP lacks it', async () => {
    const input = await fixture('metadata/tagged.jpg');
    const kept = await readKeptMetadata(input, 'jpeg', ALL);
    // The fixture's IPTC country code (FRA) has an XMP twin of its own (FR); its sub-location's twin is XMP's Location.
    expect(kept!.iim.map((d) => `${d.record}:${d.dataset}`)).toEqual(['1:90', '2:55', '2:60', '2:80', '2:90', '2:92', '2:95', '2:100', '2:101', '2:110', '2:116']);
    expect(kept!.iimAsXmp).toEqual([]);
    for (const to of ['jpeg', 'webp'] as const) {
      const { bytes } = await responseImage(await compress(form('file', input, { format: to, preserve: 'location' })));
      expect(contains(bytes, 'FRA'), to).toBe(to === 'jpeg');
      expect(contains(bytes, 'Photoshop 3.0\0'), to).toBe(to === 'jpeg');
    }
    // Without the XMP, its values come from the IPTC alone.
    const iptcOnly = await fixture('metadata/iptc-only.jpg');
    const { bytes } = await responseImage(await compress(form('file', iptcOnly, { format: 'png', preserve: 'copyright,creation,location' })));
    const xmp = (await readKeptMetadata(bytes, 'png', ALL))!.xmp.map((p) => p.name);
    // Simple values are written as attributes of rdf:Description, so they read back first.
    expect(xmp).toEqual(['Credit', 'DateCreated', 'City', 'Location', 'State', 'CountryCode', 'Country', 'creator', 'rights']);
    expect(contains(bytes, '2026-05-04T10:11:12+02:00')).toBe(true);
    expect(contains(bytes, utf8('Île-de-France'))).toBe(true);
  });

  it('on never-larger: the original comes back with only what is asked', async () => {
    // basn2c08.png comes back as the original at quality 100; a tEXt it carries is never kept.
    const clean = await fixture('engine/pngsuite/basn2c08.png');
    const tagged = await fixture('metadata/tagged.png');
    expect(count(await readKeptMetadata(tagged, 'png', ALL))).toEqual({ ifd0: 2, exif: 6, gps: 7, xmp: 21, iim: 0 });
    // Re-encoding wins over an input with all of tagged.png's EXIF: this one holds its Copyright alone, and a comment.
    const copyright = utf8('© 2026 Ana Fotógrafa\0');
    const tiff = cat(hex('4d4d002a00000008' + '0001' + '829800020000' + copyright.length.toString(16).padStart(4, '0') + '0000001a' + '00000000'), copyright);
    const input = withChunks(clean, pngChunk('eXIf', tiff), pngChunk('tEXt', text('Comment\0SECRET')));
    const response = await compress(form('file', input, { quality: '100', preserve: 'copyright' }));
    expect(response.headers.get('X-Compression-Notes')).toBe('original-returned, metadata-kept');
    const { bytes } = await responseImage(response);
    expect(bytes.length).toBeLessThanOrEqual(input.length);
    expect(bytes).toEqual(stripMetadata(input, 'png', await readKeptMetadata(input, 'png', ['copyright'])));
    expect(await classesIn(bytes, 'png')).toEqual(['copyright']);
    expect(contains(bytes, 'SECRET')).toBe(false);
    expect(contains(bytes, utf8('© 2026 Ana Fotógrafa'))).toBe(true);
  });

  it('on never-larger, an AVIF comes back with its pixels untouched, its Exif and XMP items stripped, or kept as asked', async () => {
    const input = await fixture('metadata/tagged.avif');
    const reference = await avifPixels(input);
    for (const asked of [[], ['copyright']] as MetadataClass[][]) {
      // Our AVIF at 100 of this avifenc file (quantiser 30 to 40) is larger than it: the original goes back.
      const response = await compress(form('file', input, { format: 'avif', quality: '100', preserve: asked.join(',') }));
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Compression-Notes'), `${asked}`).toBe(asked.length ? 'original-returned, metadata-kept' : 'original-returned');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.length).toBeLessThan(input.length);
      expect((await avifPixels(bytes)).data).toEqual(reference.data);
      expect(avifLayout(bytes)).toEqual(avifLayout(input));
      expect(avifMetadataItems(bytes).map((i) => i.type), `${asked}`).toEqual(asked.length ? ['Exif', 'mime'] : []);
      expect(await classesIn(bytes, 'avif'), `${asked}`).toEqual(asked);
      for (const secret of [...NEVER, 'Paris']) expect(contains(bytes, utf8(secret)), `${asked}: ${secret}`).toBe(false);
    }
  });

  it('on never-larger, a JPEG turned by its EXIF keeps its orientation beside what is asked', async () => {
    const input = await fixture('metadata/small-tagged-6.jpg');
    const response = await compress(form('file', input, { quality: '100', preserve: 'creation' }));
    const notes = response.headers.get('X-Compression-Notes')!;
    expect(notes).toMatch(/^(original-returned|lossless-recoded), metadata-kept$/);
    const { bytes } = await responseImage(response);
    expect(await classesIn(bytes, 'jpeg')).toEqual(['creation']);
    // Orientation 6, a SHORT in the fixture's big-endian EXIF: the pixels are as stored.
    expect(contains(bytes, Uint8Array.of(0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, 6))).toBe(notes.startsWith('original-returned'));
  });

  it('AVIF: an Exif item and an XMP mime item describe the image, in one frame, with alpha and in a grid; the pixels are the same', async () => {
    const tagged = await fixture('metadata/tagged.png');
    const [exif, xmp] = ['eXIf', 'iTXt'].map((type) => pngChunks(tagged).find((c) => c.type === type)!.raw);
    for (const [width, height, channels] of [[300, 200, 3], [300, 200, 4], [1100, 150, 4]] as const) {
      const clean = pixelPng(width, height, channels, (x, y) => [x % 256, y % 256, (x * y) % 256, (x + y) % 256].slice(0, channels));
      const input = withChunks(clean, exif!, xmp!);
      const plain = new Uint8Array(await (await compress(form('file', input, { format: 'avif' }))).arrayBuffer());
      const response = await compress(form('file', input, { format: 'avif', preserve: 'copyright,creation' }));
      expect(response.headers.get('X-Compression-Notes')).toBe('converted, metadata-kept');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(avifLayout(bytes)).toEqual(avifLayout(plain));
      expect(avifLayout(bytes)).toMatchObject({ width, height, alpha: channels === 4, grid: width > 1000 });
      expect((await avifPixels(bytes)).data).toEqual((await avifPixels(plain)).data);
      const items = avifMetadataItems(bytes);
      expect(items.map((i) => [i.type, i.contentType])).toEqual([['Exif', undefined], ['mime', 'application/rdf+xml']]);
      expect(avifMetadataItems(plain)).toEqual([]);
      // never-larger's strip takes the items out again: the engine's own file, byte for byte where it has one picture item.
      const again = stripAvifMetadata(bytes)!;
      if (width < 1000) expect(again).toEqual(plain);
      // A grid's data is copied in iloc's order, which is not the order the engine lays it out in.
      else expect([again.length, avifLayout(again), (await avifPixels(again)).data]).toEqual([plain.length, avifLayout(plain), (await avifPixels(plain)).data]);
      // The Exif item: the offset of its TIFF header (0), then the TIFF with the asked entries.
      const [exifItem, xmpItem] = items;
      expect([...exifItem!.data.subarray(0, 6)]).toEqual([0, 0, 0, 0, 0x4d, 0x4d]);
      const kept = (await readKeptMetadata(tagged, 'png', ['copyright', 'creation']))!;
      expect(keptExif(exifItem!.data.subarray(4), ALL)).toEqual({ ...kept.exif, gps: [] });
      expect(contains(xmpItem!.data, '2026-05-04T10:11:12+02:00')).toBe(true);
      expect(contains(xmpItem!.data, 'Paris')).toBe(false);
      for (const secret of NEVER) expect(contains(bytes, utf8(secret)), secret).toBe(false);
    }
  });

  it('caps what is kept at 64 KiB: the longest value goes first, and the notes say so', async () => {
    const long = 'L'.repeat(70_000);
    const xmp = utf8(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ` +
        `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:Credit="Short Credit">` +
        `<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">${long}</rdf:li></rdf:Alt></dc:rights></rdf:Description></rdf:RDF></x:xmpmeta>`,
    );
    const input = withChunks(await fixture('engine/pngsuite/basn2c08.png'), pngChunk('iTXt', cat(text('XML:com.adobe.xmp\0\0\0\0\0'), xmp)));
    for (const format of ['png', 'jpeg', 'webp', 'avif'] as const) {
      const response = await compress(form('file', input, { format, preserve: 'copyright' }));
      expect(response.headers.get('X-Compression-Notes')).toMatch(/metadata-kept, metadata-truncated$/);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(contains(bytes, 'Short Credit'), format).toBe(true);
      expect(contains(bytes, 'LLLL'), format).toBe(false);
    }
  });
});
