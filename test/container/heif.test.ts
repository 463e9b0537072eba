import { describe, expect, it } from 'vitest';
import { readHeader, readInputHeader } from '../../src/image/header/read-header';
import { refuseUndecoded } from '../../src/image/steps/refuse-undecoded';
import { apiErrorOf, expectUnsupported } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';
import { auxC, buildHeif, cat, imir, irot, ispe, nclx } from '../helpers/heif-builder';
import { codedItem, craftedHeifs, gridHeic, heifParts } from '../helpers/heif-crafted';

const heif = (bytes: Uint8Array) => {
  const header = readInputHeader(bytes);
  if (!('heif' in header)) throw new Error(`read as ${header.format}`);
  return header;
};
/** An item's bytes, its extents in order. */
const itemBytes = (bytes: Uint8Array, extents: Array<{ offset: number; length: number }>) => cat(...extents.map((e) => bytes.subarray(e.offset, e.offset + e.length)));

describe('HEIF and AVIF headers of files made by heif-enc, avifenc and the iPhone layout (test/fixtures/heif)', () => {
  it.each([
    ['photo.heic', 'heic', 96, 64, 8, '420', false, 1],
    ['alpha.heic', 'heic', 96, 64, 8, '420', true, 1],
    ['ten-bit.heic', 'heic', 96, 64, 10, '420', false, 1],
    ['photo.avif', 'avif', 96, 64, 8, '444', false, 1],
    ['ten-bit-alpha.avif', 'avif', 96, 64, 10, '444', true, 1],
    ['grid.avif', 'avif', 128, 128, 8, '444', false, 4],
    ['grid.heic', 'heic', 90, 60, 8, '420', false, 6],
  ] as const)('%s: %s %ix%i, %i bits, %s, alpha %s, %i coded items', async (name, format, width, height, bitDepth, chroma, alpha, tiles) => {
    const bytes = await fixture(`heif/${name}`);
    const header = heif(bytes);
    expect(header).toMatchObject({ format, width, height, bitDepth, hasAlpha: alpha, grey: false, complete: true, fileBytes: bytes.length });
    expect(header.heif.primary).toMatchObject({ width, height, chroma, codec: format === 'avif' ? 'av01' : 'hvc1' });
    expect(header.heif.primary.tiles).toHaveLength(tiles);
    expect(header.heif.orientation).toBe(1);
    expect(header.heif.alpha?.chroma).toBe(alpha ? 'mono' : undefined);
    // The configuration box's body: av1C starts with its marker and version, hvcC with version 1.
    expect(header.heif.primary.config[0]).toBe(format === 'avif' ? 0x81 : 1);
  });

  it("the iPhone-like grid: 3x2 cells of 32x32 over 90x60 in row-major order, its nclx, and the thumbnail, depth and gain map left out", async () => {
    const bytes = await fixture('heif/grid.heic');
    const { heif: image } = heif(bytes);
    expect(image.brands).toEqual(['heic', 'mif1', 'MiHE', 'MiPr', 'miaf', 'MiHB', 'heic']);
    expect(image.primary.grid).toEqual({ rows: 2, columns: 3 });
    expect(image.primary.tiles.map((t) => [t.id, t.width, t.height])).toEqual([2, 3, 4, 5, 6, 7].map((id) => [id, 32, 32]));
    expect(image.colour).toEqual({ nclx: { primaries: 1, transfer: 13, matrix: 6, fullRange: true } });
    expect(image.alpha).toBeUndefined();
    // Each cell's bytes are an HEVC stream of length-prefixed NAL units (hvcC's 4-byte lengths), ending at its extent's end.
    for (const tile of image.primary.tiles) {
      const data = itemBytes(bytes, tile.extents);
      let at = 0;
      while (at < data.length) at += 4 + new DataView(data.buffer, data.byteOffset).getUint32(at);
      expect(at).toBe(data.length);
    }
  });

  it('clap, irot and imir: the size as displayed before the turn, and the EXIF orientation they compose to', async () => {
    // avifenc writes clap, irot 1 (a quarter anticlockwise), imir 1 (left and right exchanged): EXIF 7.
    const avif = heif(await fixture('heif/oriented.avif'));
    expect(avif).toMatchObject({ width: 80, height: 48, heif: { clap: { left: 8, top: 8, width: 80, height: 48 }, orientation: 7 } });
    // The grid: clap, irot 1, imir 0 (top and bottom exchanged, as libheif reads it): EXIF 5; heif-convert makes 48x80.
    const grid = heif(await fixture('heif/grid-oriented.heic'));
    expect(grid).toMatchObject({ width: 80, height: 48, heif: { clap: { left: 5, top: 6, width: 80, height: 48 }, orientation: 5 } });
  });

  it.each([
    [1, []],
    [8, [irot(1)]],
    [3, [irot(2)]],
    [6, [irot(3)]],
    [4, [imir(0)]],
    [2, [imir(1)]],
    [5, [irot(1), imir(0)]],
    [7, [irot(1), imir(1)]],
    [7, [irot(3), imir(0)]],
    [5, [irot(3), imir(1)]],
    [4, [irot(2), imir(1)]],
    [5, [imir(1), irot(1)]],
  ])('EXIF orientation %i from irot and imir in ipma order (case %#)', async (orientation, transforms) => {
    const { cells } = await heifParts();
    const bytes = gridHeic(cells, { gridProperties: [{ box: ispe(90, 60) }, ...transforms.map((box) => ({ box, essential: true }))] });
    expect(heif(bytes).heif.orientation).toBe(orientation);
  });

  it('the engine reads only JPEG, PNG and WebP: readHeader refuses a HEIC once walked, naming it', async () => {
    const error = await expectUnsupported(async () => readHeader(await fixture('heif/photo.heic')));
    expect(error.message).toMatch(/HEIC image \(96x64\), which is recognised but not decoded yet/);
  });
});

describe('the walker reads every layout the standard allows', () => {
  it.each([
    ['iloc version 0', { version: 0 as const }],
    ['iloc version 1 with a base offset', { version: 1 as const, baseOffsetSize: 4 }],
    ['iloc version 2 with 8-byte fields and base offset', { version: 2 as const, offsetSize: 8, lengthSize: 8, baseOffsetSize: 8 }],
    ['iloc with 0-byte offsets (one item at the start of mdat)', { version: 1 as const, offsetSize: 0, baseOffsetSize: 4 }],
  ])('%s: the cell bytes are found where they are', async (_, iloc) => {
    const { cells } = await heifParts();
    const one = cells[0]!;
    const bytes = buildHeif({ brands: ['heic', 'mif1'], primary: 1, items: [codedItem(1, one)], iloc });
    const { primary } = heif(bytes).heif;
    expect(itemBytes(bytes, primary.tiles[0]!.extents)).toEqual(one.data);
  });

  it('multiple extents, 32-bit item ids (infe version 3, pitm, iref and ipma version 1) and a meta whose boxes come in another order', async () => {
    const { cells } = await heifParts();
    const ids = cells.map((_, i) => 70_000 + i);
    const bytes = gridHeic(cells, {
      cellIds: ids,
      more: {
        wideIds: true,
        iloc: { version: 2 },
        metaOrder: ['hdlr', 'iloc', 'iprp', 'idat', 'iref', 'iinf', 'pitm'],
        items: cells.map((c, i) => codedItem(ids[i]!, c, { hidden: true, extentBytes: 7 })),
      },
    });
    const { primary } = heif(bytes).heif;
    expect(primary.tiles.map((t) => t.id)).toEqual(ids);
    expect(primary.tiles[0]!.extents.length).toBe(Math.ceil(cells[0]!.data.length / 7));
    primary.tiles.forEach((tile, i) => expect(itemBytes(bytes, tile.extents)).toEqual(cells[i]!.data));
  });

  it('a grid with an alpha plane of its size (auxl, auxC) and a premultiplied colour (prem); a depth map is left out', async () => {
    const { cells, alpha } = await heifParts();
    const bytes = gridHeic(cells, {
      width: 96,
      height: 64,
      gridProperties: [{ box: ispe(96, 64) }, { box: nclx(9, 16, 9, false) }],
      more: {
        items: [
          codedItem(30, alpha, { hidden: true, properties: [{ box: auxC('urn:mpeg:hevc:2015:auxid:2') }] }),
          codedItem(31, alpha, { hidden: true, properties: [{ box: auxC('urn:mpeg:hevc:2015:auxid:1') }] }),
        ],
        references: [
          { type: 'auxl', from: 30, to: [1] },
          { type: 'auxl', from: 31, to: [1] },
          { type: 'prem', from: 1, to: [31] },
        ],
      },
    });
    const header = heif(bytes);
    expect(header).toMatchObject({ hasAlpha: true, width: 96, height: 64, heif: { premultiplied: true, colour: { nclx: { primaries: 9, transfer: 16, matrix: 9, fullRange: false } } } });
    expect(header.heif.alpha).toMatchObject({ id: 31, chroma: 'mono', width: 96, height: 64 });
  });

  it('an item of an infe of version 0 (no item type), located and referred to, is listed and left out', async () => {
    const { cells } = await heifParts();
    const bytes = gridHeic(cells, { more: { items: [{ id: 40, type: 'Exif', oldInfe: true, data: Uint8Array.of(0, 0, 0, 0) }], references: [{ type: 'cdsc', from: 40, to: [1] }] } });
    expect(heif(bytes)).toMatchObject({ width: 90, height: 60, complete: true });
  });

  it('a truncated file is read to its size, and marked incomplete: refused after the size check', async () => {
    const bytes = await fixture('heif/grid.heic');
    const last = heif(bytes).heif.primary.tiles.at(-1)!.extents[0]!;
    expect(heif(bytes.subarray(0, last.offset + last.length - 1))).toMatchObject({ width: 90, height: 60, complete: false });
    expect(heif(bytes.subarray(0, last.offset + last.length))).toMatchObject({ complete: true });
  });

});

describe('crafted HEIF files are refused from the header, each naming its lie', async () => {
  for (const crafted of await craftedHeifs()) {
    it(`${crafted.name}: ${crafted.code}`, async () => {
      const error = await apiErrorOf(() => refuseUndecoded(readInputHeader(crafted.bytes), { heic: true }));
      expect(error.code).toBe(crafted.code);
      expect(error.message).toMatch(crafted.message);
    });
  }
});
