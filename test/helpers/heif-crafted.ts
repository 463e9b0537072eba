import { readInputHeader } from '../../src/image/header/read-header';
import type { HeifHeader, HeifPicture } from '../../src/image/types';
import { fixture } from './fixtures';
import { auxC, buildHeif, cat, clap, config, fullBox, gridData, type HeifSpec, irot, ispe, type ItemSpec, pixi, uint } from './heif-builder';

/** A coded item as heif-enc wrote it: configuration, bytes and size. */
export interface CodedPart {
  config: Uint8Array;
  data: Uint8Array;
  width: number;
  height: number;
}

function part(bytes: Uint8Array, picture: HeifPicture, tile = 0): CodedPart {
  const { extents, width, height } = picture.tiles[tile]!;
  return { config: picture.config, data: cat(...extents.map((e) => bytes.subarray(e.offset, e.offset + e.length))), width, height };
}

/** The HEVC cells of the iPhone-like grid fixture (3x2 of 32x32 over 90x60) and heif-enc's alpha plane (96x64, monochrome). */
export async function heifParts(): Promise<{ cells: CodedPart[]; alpha: CodedPart }> {
  const grid = await fixture('heif/grid.heic');
  const alpha = await fixture('heif/alpha.heic');
  const cells = (readInputHeader(grid) as HeifHeader).heif.primary;
  return { cells: cells.tiles.map((_, i) => part(grid, cells, i)), alpha: part(alpha, (readInputHeader(alpha) as HeifHeader).heif.alpha!) };
}

export const codedItem = (id: number, p: CodedPart, more: Partial<ItemSpec> = {}): ItemSpec => ({
  id,
  type: 'hvc1',
  data: p.data,
  ...more,
  properties: [{ box: config('hvcC', p.config), essential: true }, { box: ispe(p.width, p.height) }, ...(more.properties ?? [])],
});

/**
 * A grid HEIC from the fixture's cells: item 1 a `grid` of `columns` x `rows` (its description in idat),
 * cells 2 onwards, the cells used over again where more are named than the fixture has.
 */
export function gridHeic(
  cells: CodedPart[],
  { rows = 2, columns = 3, width = 90, height = 60, gridProperties = [{ box: ispe(width, height) }], cellIds, more = {} }: {
    rows?: number;
    columns?: number;
    width?: number;
    height?: number;
    gridProperties?: ItemSpec['properties'];
    cellIds?: number[];
    more?: Partial<HeifSpec>;
  } = {},
): Uint8Array {
  const count = Math.min(rows * columns, 4096);
  const ids = Array.from({ length: count }, (_, i) => 2 + i);
  const distinct = ids.slice(0, cells.length);
  return buildHeif({
    brands: ['heic', 'mif1', 'miaf'],
    primary: 1,
    ...more,
    items: [
      { id: 1, type: 'grid', data: gridData(rows, columns, width, height), inIdat: true, properties: gridProperties },
      ...distinct.map((id, i) => codedItem(id, cells[i]!, { hidden: true })),
      ...(more.items ?? []),
    ],
    references: [{ type: 'dimg', from: 1, to: cellIds ?? ids.map((_, i) => distinct[i % distinct.length]!) }, ...(more.references ?? [])],
  });
}

/** A crafted HEIF and what it must be refused with, from its header. */
export interface CraftedHeif {
  name: string;
  bytes: Uint8Array;
  code: 'unsupported_image' | 'image_too_large';
  message: RegExp;
}

/** Every lie of issue 38's list, each in a file that is otherwise the fixture grid's. */
export async function craftedHeifs(): Promise<CraftedHeif[]> {
  const { cells, alpha } = await heifParts();
  const valid = gridHeic(cells);
  const bad = (name: string, bytes: Uint8Array, message: RegExp): CraftedHeif => ({ name, bytes, code: 'unsupported_image', message });
  const biggerMeta = valid.slice();
  new DataView(biggerMeta.buffer).setUint32(find(valid, 'meta'), valid.length);
  return [
    bad('a meta box past the end of the file', biggerMeta, /runs past the file/),
    bad('an ipco child past ipco', spliceProperty(valid), /runs past ipco/),
    bad('an iloc of 65,535 items in a few bytes', gridHeic(cells, { more: { iloc: { version: 1 } } }).map((v, i, all) => (isIlocCount(all, i) ? 0xff : v)), /iloc says 65535 items/),
    bad('a grid naming itself as a cell', gridHeic(cells, { cellIds: [1, 2, 3, 4, 5, 6] }), /not a coded image \(nested or looping references\)/),
    bad(
      'two grids naming each other',
      gridHeic(cells, { rows: 1, columns: 1, width: 32, height: 32, cellIds: [8], more: { items: [{ id: 8, type: 'grid', data: gridData(1, 1, 32, 32), inIdat: true }], references: [{ type: 'dimg', from: 8, to: [1] }] } }),
      /not a coded image \(nested or looping references\)/,
    ),
    bad('an ipma naming property 99 of 3', withIpmaIndex(gridHeic(cells), 99), /property 99, and ipco has/),
    bad('a grid of 65,536 cells', gridHeic(cells, { rows: 256, columns: 256, width: 8192, height: 8192 }), /65536 cells \(256x256\); at most 1024/),
    bad('a grid whose cells do not cover it', gridHeic(cells, { width: 100 }), /do not tile its 100x60/),
    bad('a grid with a column of cells it never shows', gridHeic(cells, { width: 60 }), /do not tile its 60x60/),
    bad('a grid whose ispe and description disagree', gridHeic(cells, { gridProperties: [{ box: ispe(96, 64) }] }), /ispe says 96x64 and its grid 90x60/),
    bad('a grid naming 5 cells for 6', gridHeic(cells, { cellIds: [2, 3, 4, 5, 6] }), /is 3x2 cells and names 5/),
    bad('a cell whose pixi lies about its depth', cellWithPixi(cells), /pixi says 10, 10, 10 bits and its hvcC 8/),
    bad('an essential property that is not understood', gridHeic(cells, { gridProperties: [{ box: ispe(90, 60) }, { box: fullBox('lsel', 0, 0, uint(1, 2)), essential: true }] }), /needs a 'lsel' property/),
    bad('an alpha plane of another size', gridHeic(cells, { more: { items: [codedItem(30, alpha, { hidden: true, properties: [{ box: auxC('urn:mpeg:hevc:2015:auxid:1') }] })], references: [{ type: 'auxl', from: 30, to: [1] }] } }), /alpha plane is 96x64 and the image 90x60/),
    bad('a clean aperture outside the image', gridHeic(cells, { gridProperties: [{ box: ispe(90, 60) }, { box: clap(80, 1, 48, 1, 20, 1, 0, 1) }] }), /clap's 80x48 at 25,6 lies outside the 90x60 image/),
    bad('a clean aperture after a rotation', gridHeic(cells, { gridProperties: [{ box: ispe(90, 60) }, { box: irot(1) }, { box: clap(80, 1, 48, 1, 0, 1, 0, 1) }] }), /clap\) comes after a rotation/),
    bad('an item built by construction method 2', withMethod(2), /construction method 2/),
    bad('a grid description past idat', gridPastIdat(cells), /runs past idat/),
    bad('an iloc of 17,920 extents (70 items of 256)', manyItems(cells[0]!, { extentBytes: 1 }), /iloc has more than 16384 extents/),
    bad('an iref naming 16,385 cells', gridHeic(cells, { cellIds: Array.from({ length: 16_385 }, () => 2) }), /iref names more than 16384 items/),
    bad('an ipma of 17,850 associations (70 items of 255)', manyItems(cells[0]!, { properties: Array.from({ length: 255 }, () => ({ box: ispe(1, 1) })) }), /ipma gives more than 16384 properties/),
    {
      name: 'a 20000x10000 grid of 512x512 cells that lie (200 MP)',
      bytes: gridHeic(
        cells.map((c) => ({ ...c, width: 512, height: 512 })),
        { rows: 20, columns: 40, width: 20000, height: 10000 },
      ),
      code: 'image_too_large',
      message: /20000x10000, its 40x20 cells of 512x512 \(210 MP\); the limit is 100 MP/,
    },
    {
      name: 'one cell of 16384x16384 shown as 1x1 (268 MP decoded)',
      bytes: gridHeic([{ ...cells[0]!, width: 16384, height: 16384 }], { rows: 1, columns: 1, width: 1, height: 1 }),
      code: 'image_too_large',
      message: /1x1, its 1x1 cells of 16384x16384 \(268 MP\)/,
    },
  ];
}

/** 70 hidden items of 256 bytes of one cell, each given `more`. */
function manyItems(cell: CodedPart, more: Partial<ItemSpec>): Uint8Array {
  const data = cell.data.subarray(0, 256);
  return buildHeif({
    brands: ['heic', 'mif1'],
    primary: 1,
    items: Array.from({ length: 70 }, (_, i) => ({ id: i + 1, type: 'hvc1', hidden: i > 0, data, ...more })),
  });
}

/** The grid with ipco's first child grown past ipco's end. */
function spliceProperty(valid: Uint8Array): Uint8Array {
  const out = valid.slice();
  const ipco = find(out, 'ipco');
  new DataView(out.buffer).setUint32(ipco + 8, 0x10000);
  return out;
}

/** The offset of the first box of `type` (its size field), searched for as text. */
function find(bytes: Uint8Array, type: string): number {
  for (let i = 4; i + 4 <= bytes.length; i++) if (String.fromCharCode(...bytes.subarray(i, i + 4)) === type) return i - 4;
  throw new Error(`no ${type}`);
}

/** True at the two bytes of iloc's item count (version 1: after version, flags and the two size bytes). */
function isIlocCount(bytes: Uint8Array, i: number): boolean {
  const iloc = find(bytes, 'iloc');
  return i === iloc + 14 || i === iloc + 15;
}

/** The file with ipma's first association pointing at property `index`. */
function withIpmaIndex(valid: Uint8Array, index: number): Uint8Array {
  const out = valid.slice();
  const ipma = find(out, 'ipma');
  // version 0: full box (4), entry count (4), then item id (2), association count (1), first association.
  out[ipma + 8 + 4 + 4 + 2 + 1] = index;
  return out;
}

/** One cell given a pixi of 10 bits a channel over its 8-bit hvcC. */
function cellWithPixi(cells: CodedPart[]): Uint8Array {
  return buildHeif({
    brands: ['heic', 'mif1'],
    primary: 1,
    items: [codedItem(1, cells[0]!, { properties: [{ box: pixi(10, 10, 10) }] })],
  });
}

/** One item whose iloc (version 1) gives it construction method `method`. */
function withMethod(method: number): Uint8Array {
  const bytes = buildHeif({ brands: ['heic', 'mif1'], primary: 1, items: [{ id: 1, type: 'hvc1', data: new Uint8Array(4) }], iloc: { version: 1 } });
  const iloc = find(bytes, 'iloc');
  // version 1: full box (4), sizes (2), count (2), then item id (2) and the method's 16 bits.
  bytes[iloc + 8 + 4 + 2 + 2 + 2 + 1] = method;
  return bytes;
}

/** The grid with its description's extent 4 bytes longer than idat holds. */
function gridPastIdat(cells: CodedPart[]): Uint8Array {
  const sized = gridHeic(cells);
  const idat = find(sized, 'idat');
  const length = new DataView(sized.buffer).getUint32(idat);
  // The grid's own extent is the only one in idat: its length field holds length - 8; find it in iloc.
  const iloc = find(sized, 'iloc');
  const view = new DataView(sized.buffer);
  for (let at = iloc; at < idat; at++) {
    if (view.getUint32(at) === 0 && view.getUint32(at + 4) === length - 8) {
      view.setUint32(at + 4, length - 4);
      return sized;
    }
  }
  throw new Error('no grid extent');
}
