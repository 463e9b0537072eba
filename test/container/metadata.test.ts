import { describe, expect, it } from 'vitest';
import { buildExif, exifOrientation, minimalExif, readIfd, readTiff } from '../../src/image/container/exif';
import { encodeIim, iimText, iptcSegment, irbIptc, readIim } from '../../src/image/container/iptc';
import { MAX_KEPT_BYTES, metadataBlocks } from '../../src/image/container/metadata-blocks';
import { keptExif, keptIim } from '../../src/image/container/metadata-classes';
import { readKeptMetadata } from '../../src/image/container/read-metadata';
import { stripMetadataWithReport } from '../../src/image/container/strip-metadata';
import { insertMetadata } from '../../src/image/container/write-metadata';
import { buildXmp, parseXml, xmpProperties } from '../../src/image/container/xmp';
import { fixture } from '../helpers/fixtures';
import { XMP_PACKET, cat, contains, hex, pngChunk, riffChunks, text, tiffWithGps, withChunks } from './synth';

const utf8 = (s: string) => new TextEncoder().encode(s);
const DESCRIPTION = (inner: string, attributes = '') =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ` +
  `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" ${attributes}>${inner}</rdf:Description></rdf:RDF></x:xmpmeta>`;

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
}

describe('EXIF: the kept entries, rebuilt', () => {
  it('keeps the GPS directory of a little-endian TIFF for location, in its byte order, without Make or Orientation', () => {
    const kept = keptExif(tiffWithGps(6), ['location'])!;
    expect(kept.ifd0).toEqual([]);
    expect(kept.gps.map((e) => e.tag)).toEqual([1, 2]);
    expect(keptExif(tiffWithGps(6), ['copyright', 'creation'])!.gps).toEqual([]);
    // Header, IFD0 (the GPS pointer alone), the GPS IFD: LatitudeRef "N" in its slot, Latitude's 24 bytes after it.
    expect(buildExif(kept)).toEqual(
      hex(
        '49492a0008000000' + '0100' + '25880400010000001a000000' + '00000000' +
          '0200' + '01000200020000004e000000' + '020005000300000038000000' + '00000000' +
          '3300000001000000' + '1e00000001000000' + '4f0a000064000000', // 51/1, 30/1, 2639/100
      ),
    );
  });

  it('never reads outside the data, and a pointer to nowhere keeps nothing', () => {
    const tiff = tiffWithGps(1);
    for (let length = 0; length < tiff.length; length++) {
      const kept = keptExif(tiff.subarray(0, length), ['location']);
      if (kept) expect(kept.gps.length).toBeLessThanOrEqual(2);
    }
    expect(keptExif(text('not tiff'), ['copyright'])).toBeNull();
  });

  it('minimalExif is buildExif with the orientation alone; with kept entries the orientation goes in the same IFD0', () => {
    expect(minimalExif(6)).toEqual(hex('4d4d002a00000008' + '0001' + '011200030000000100060000' + '00000000'));
    const blocks = metadataBlocks({ exif: keptExif(tiffWithGps(6), ['location'])!, xmp: [], iim: [], iimAsXmp: [] }, 'png', 6);
    expect(exifOrientation(blocks.exif!)).toBe(6);
    const tiff = readTiff(blocks.exif!)!;
    expect(readIfd(tiff, tiff.ifd0).map((e) => e.tag)).toEqual([0x0112, 0x8825]);
  });
});

describe('XMP: a small reader and writer', () => {
  it('reads properties written as attributes and as elements, and writes simple ones as attributes', () => {
    const root = parseXml(DESCRIPTION('<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">&#169; A &amp; B</rdf:li></rdf:Alt></dc:rights>', 'photoshop:City="Paris"'));
    const properties = xmpProperties(root!);
    expect(properties.map((p) => p.name)).toEqual(['City', 'rights']);
    const packet = new TextDecoder().decode(buildXmp(properties));
    expect(packet).toContain('photoshop:City="Paris"');
    expect(packet).toContain('<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">© A &amp; B</rdf:li></rdf:Alt></dc:rights>');
    // What it writes, it reads back the same.
    expect(xmpProperties(parseXml(packet)!)).toEqual(properties.map((p) => ({ ...p, prefix: p.prefix || expect.any(String) })));
  });

  it.each([
    ['a DOCTYPE (entity definitions)', `<!DOCTYPE x [<!ENTITY a "aaaa">]>${DESCRIPTION('')}`],
    ['an unknown entity', DESCRIPTION('<dc:rights>&a;</dc:rights>')],
    ['an unbound prefix', DESCRIPTION('<zz:rights>x</zz:rights>')],
    ['a mismatched end tag', DESCRIPTION('<dc:rights>x</dc:creator>')],
    ['an unclosed element', DESCRIPTION('<dc:rights>x')],
    ['nesting deeper than 64', DESCRIPTION('<dc:rights>' + '<rdf:li>'.repeat(70) + '</rdf:li>'.repeat(70) + '</dc:rights>')],
    ['text after the root', `${DESCRIPTION('')}tail`],
  ])('refuses %s: the packet is not kept at all', (_, xml) => {
    expect(parseXml(xml)).toBeNull();
  });

  it('reads XMP from a PNG iTXt (plain or compressed), zTXt and tEXt', async () => {
    const png = await fixture('engine/pngsuite/basn2c08.png');
    const xmp = utf8(DESCRIPTION('', 'photoshop:Credit="Credit Line"'));
    const chunks = [
      pngChunk('iTXt', cat(text('XML:com.adobe.xmp\0\0\0\0\0'), xmp)),
      pngChunk('iTXt', cat(text('XML:com.adobe.xmp\0\x01\0\0\0'), await deflate(xmp))),
      pngChunk('zTXt', cat(text('XML:com.adobe.xmp\0\0'), await deflate(xmp))),
      pngChunk('tEXt', cat(text('XML:com.adobe.xmp\0'), xmp)),
    ];
    for (const chunk of chunks) {
      const kept = await readKeptMetadata(withChunks(png, chunk), 'png', ['copyright']);
      expect(kept?.xmp.map((p) => p.name)).toEqual(['Credit']);
    }
    // Another keyword is not XMP; the old synth packet holds nothing a class keeps.
    expect(await readKeptMetadata(withChunks(png, pngChunk('iTXt', cat(text('Comment\0\0\0\0\0'), xmp))), 'png', ['copyright'])).toBeNull();
    expect(await readKeptMetadata(withChunks(png, pngChunk('iTXt', cat(text('XML:com.adobe.xmp\0\0\0\0\0'), XMP_PACKET))), 'png', ['copyright', 'creation', 'location'])).toBeNull();
  });
});

describe('IPTC-IIM in a Photoshop block', () => {
  it('reads the datasets of resource 0x0404 after other resources, the extended length form included', () => {
    const other = cat(text('8BIM'), hex('03ed' + '0341' + '4243' + '00000003' + '010203' + '00')); // a named resource, odd size padded
    const iim = cat(hex('1c025a0005'), text('Paris'), hex('1c0250800200' + '04'), text('Anna'));
    const irb = cat(other, text('8BIM'), hex('0404' + '0000'), hex(iim.length.toString(16).padStart(8, '0')), iim);
    expect(readIim(irbIptc(irb)!).map((d) => [d.record, d.dataset, iimText(d.value, [])])).toEqual([
      [2, 90, 'Paris'],
      [2, 80, 'Anna'],
    ]);
    expect(irbIptc(text('8BIM'))).toBeUndefined();
    expect(readIim(hex('1c025a0010'))).toEqual([]); // cut short
    // A City whose length swallows the caption after it is not kept.
    const swallowed = readIim(cat(hex('1c025a000e'), text('Paris'), hex('1c02780004'), text('SECR')));
    expect(keptIim(swallowed, ['location'])).toEqual([]);
  });

  it('writes an APP13 with the IPTC resource alone, padded to even', () => {
    const segment = iptcSegment(encodeIim([{ record: 2, dataset: 90, value: text('Nice') }]));
    expect(segment.data).toEqual(cat(text('Photoshop 3.0\0'), text('8BIM'), hex('04040000' + '00000009'), hex('1c025a0004'), text('Nice'), hex('00')));
  });
});

describe('the 64 KiB cap', () => {
  it('drops the longest values first, until what is built fits', () => {
    const long = (n: number, c: string) => `<dc:contributor><rdf:Bag><rdf:li>${c.repeat(n)}</rdf:li></rdf:Bag></dc:contributor>`;
    const properties = xmpProperties(parseXml(DESCRIPTION(long(40_000, 'A') + long(30_000, 'B').replace(/contributor/g, 'publisher'), 'photoshop:Credit="C"'))!);
    const blocks = metadataBlocks({ exif: { order: 'MM', ifd0: [], exif: [], gps: [] }, xmp: properties, iim: [], iimAsXmp: [] }, 'webp');
    expect(blocks).toMatchObject({ kept: true, truncated: true });
    expect(blocks.xmp!.length).toBeLessThanOrEqual(MAX_KEPT_BYTES);
    expect(contains(blocks.xmp!, 'AAAA')).toBe(false);
    expect(contains(blocks.xmp!, 'BBBB')).toBe(true);
    expect(contains(blocks.xmp!, 'photoshop:Credit="C"')).toBe(true);
  });
});

describe('the containers', () => {
  it('a simple WebP becomes extended for its EXIF and XMP, which follow the image data', async () => {
    // test.webp's RIFF INFO-style chunks (IART, ICOP, INAM) are stripped first, as never-larger does.
    const webp = stripMetadataWithReport(await fixture('engine/test.webp'), 'webp').bytes;
    expect(riffChunks(webp).map((c) => c.fourcc)).toEqual(['VP8 ']);
    const kept = (await readKeptMetadata(await fixture('metadata/tagged.webp'), 'webp', ['copyright']))!;
    const out = insertMetadata(webp, 'webp', metadataBlocks(kept, 'webp'));
    expect(riffChunks(out).map((c) => c.fourcc)).toEqual(['VP8X', 'VP8 ', 'EXIF', 'XMP ']);
    expect(riffChunks(out)[0]!.data[0]).toBe(0x08 | 0x04);
  });

  it('never-larger of a JPEG writes the orientation and the kept values into one Exif APP1 after JFIF', async () => {
    const input = await fixture('metadata/small-tagged-6.jpg');
    const kept = await readKeptMetadata(input, 'jpeg', ['creation']);
    const { bytes, orientation, metadata } = stripMetadataWithReport(input, 'jpeg', kept);
    expect({ orientation, metadata }).toEqual({ orientation: 6, metadata: { kept: true, truncated: false } });
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
    expect(contains(bytes, 'Not Asked')).toBe(false);
    expect(contains(bytes, '2026:05:04 10:11:12')).toBe(true);
    expect(bytes.filter((_, i) => bytes[i] === 0xff && bytes[i + 1] === 0xe1).length).toBe(1);
  });
});

describe('hostile metadata', () => {
  it('a flipped byte anywhere in the metadata of the tagged fixtures never throws, nor keeps anything unasked', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
    for (const [name, format, end] of [['metadata/tagged.jpg', 'jpeg', 9000], ['metadata/tagged.png', 'png', 4000], ['metadata/tagged.webp', 'webp', 0]] as const) {
      const input = await fixture(name);
      // The JPEG's and PNG's metadata come first; the WebP's after its image data.
      const [from, to] = end ? [2, end] : [input.length - 3000, input.length];
      for (let i = 0; i < 150; i++) {
        const bytes = input.slice();
        for (let k = 0; k < 3; k++) bytes[from + Math.floor(random() * (to - from))] = Math.floor(random() * 256);
        let kept;
        try {
          kept = await readKeptMetadata(bytes, format, ['creation']);
        } catch (error) {
          // A broken container is the one error: the API's 400.
          expect((error as { code?: string }).code, `${name} #${i}`).toBe('unsupported_image');
          continue;
        }
        const blocks = metadataBlocks(kept, format);
        for (const secret of ['Ana Fot', 'Paris', 'SECRET']) {
          for (const block of [blocks.exif, blocks.xmp, blocks.iim]) if (block) expect(contains(block, secret), `${name} #${i}: ${secret}`).toBe(false);
        }
      }
    }
  });
});
