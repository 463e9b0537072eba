import { ApiError } from '../../errors/api-error';
import type { Box as Rect, HeifCodedItem, HeifColour, HeifHeader, HeifPicture } from '../types';
import { concat } from '../bytes';
import { type Association, type Box, Cursor, corrupt, fileExtents, type HeifMeta, metaBox, readBrands, readMeta } from '../container/bmff';
import { unsupported } from '../container/bytes';
import { baseHeader } from './header-defaults';

/** The ftyp brands of HEIF still images and sequences, AVIF's and HEIC's among them: any one makes a file HEIF. */
const HEIF_BRANDS = new Set(['mif1', 'mif2', 'miaf', 'msf1', 'avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
/** Each coded item type and its configuration property. */
const CONFIGS = { av01: 'av1C', hvc1: 'hvcC' } as const;
type Codec = keyof typeof CONFIGS;
/** auxC types of an alpha plane: MIAF's, and HEVC's (ISO/IEC 23008-12 6.5.8, ISO/IEC 23091-2). */
const ALPHA_URNS = ['urn:mpeg:mpegB:cicp:systems:auxiliary:alpha', 'urn:mpeg:hevc:2015:auxid:1'];
/** Properties read here: an item with another one marked essential (a1op, lsel: layered images) is refused. */
const UNDERSTOOD = new Set(['ispe', 'pixi', 'colr', 'irot', 'imir', 'clap', 'av1C', 'hvcC', 'auxC']);
/**
 * The most cells a grid may have: an iPhone's 48 MP HEIC has 192 (16 x 12 of 512 x 512), and each cell is a
 * decoder run, so a grid of tiny cells (up to 65,536) is refused from its description.
 */
export const MAX_GRID_CELLS = 1024;

/** A file HEIF by its brands (ftyp first: ISO/IEC 23008-12 requires it). */
export function isHeif(bytes: Uint8Array): boolean {
  return readBrands(bytes)?.some((brand) => HEIF_BRANDS.has(brand)) ?? false;
}

/** The refusal of a HEIF/AVIF input that walked cleanly: no decoder reads it yet (issue 38). */
export function notDecodedYet(header: HeifHeader): ApiError {
  return new ApiError(
    'unsupported_image',
    `The data is a ${header.format.toUpperCase()} image (${header.width}x${header.height}), which is recognised but not decoded yet; send a JPEG, PNG, WebP or AVIF image.`,
  );
}

/**
 * Walks a HEIF file's meta box (container/bmff.ts) to its primary image: its coded item or grid, their extents
 * and configuration, its alpha plane, colour, clean aperture and orientation, each checked against the file.
 * Nothing is decoded and nothing is copied but a grid's few bytes of description.
 */
export function readHeifHeader(bytes: Uint8Array): HeifHeader {
  const brands = readBrands(bytes);
  if (!brands) throw corrupt('no ftyp box');
  const meta = readMeta(bytes, metaBox(bytes));
  const walker = new Walker(bytes, meta);
  const primaryItem = meta.items.get(meta.primary);
  if (!primaryItem) throw corrupt(`pitm names item ${meta.primary}, which iinf does not list`);
  const primary = walker.picture(meta.primary);
  const alphaId = meta.references.find((r) => r.type === 'auxl' && r.to.includes(meta.primary) && walker.isAlpha(r.from))?.from;
  if (alphaId === meta.primary) throw corrupt('the primary image is its own alpha plane');
  const alpha = alphaId === undefined ? undefined : walker.picture(alphaId);
  if (alpha && (alpha.width !== primary.width || alpha.height !== primary.height)) {
    throw corrupt(`the alpha plane is ${alpha.width}x${alpha.height} and the image ${primary.width}x${primary.height}`);
  }
  const own = walker.own(meta.primary);
  const { clap, orientation } = transforms(bytes, own, primary);
  const displayed = clap ?? primary;
  return {
    ...baseHeader(primary.codec === 'av01' ? 'avif' : 'heic', displayed.width, displayed.height),
    bitDepth: primary.bitDepth,
    grey: primary.chroma === 'mono',
    hasAlpha: alpha !== undefined,
    fileBytes: bytes.length,
    complete: !walker.past,
    heif: {
      brands,
      primary,
      ...(alpha ? { alpha } : {}),
      premultiplied: alphaId !== undefined && meta.references.some((r) => r.type === 'prem' && r.from === meta.primary && r.to.includes(alphaId)),
      colour: colour(bytes, own.some((a) => a.property.type === 'colr') ? own : walker.own(primary.tiles[0]!.id)),
      ...(clap ? { clap } : {}),
      orientation,
    },
  };
}

/** Reads items of one meta box, remembering whether any extent it read runs past the file's end. */
class Walker {
  past = false;

  constructor(
    readonly bytes: Uint8Array,
    readonly meta: HeifMeta,
  ) {}

  own(id: number): Association[] {
    const own = this.meta.properties.get(id) ?? [];
    const unknown = own.find((a) => a.essential && !UNDERSTOOD.has(a.property.type));
    if (unknown) throw unsupported(`The HEIF file's item ${id} needs a '${unknown.property.type}' property, which is not supported.`);
    return own;
  }

  /** An auxiliary image of an alpha type (its properties otherwise unread: depth and gain maps are ignored). */
  isAlpha(id: number): boolean {
    const auxC = this.meta.properties.get(id)?.find((a) => a.property.type === 'auxC');
    if (!auxC) return false;
    const c = Cursor.of(this.bytes, auxC.property);
    c.fullBox();
    return ALPHA_URNS.includes(c.string());
  }

  /** A coded item or a grid of them. */
  picture(id: number): HeifPicture {
    const type = this.meta.items.get(id)!.type;
    if (type === 'grid') return this.grid(id);
    if (!(type in CONFIGS)) throw unsupported(`The HEIF file's image is a '${type}' item; only av01, hvc1 and grid images are read.`);
    const { tile, ...coding } = this.coded(id);
    return { id, width: tile.width, height: tile.height, ...coding, tiles: [tile] };
  }

  coded(id: number): { tile: HeifCodedItem; codec: Codec; config: Uint8Array; bitDepth: number; chroma: HeifPicture['chroma'] } {
    const type = this.meta.items.get(id)!.type;
    if (!(type in CONFIGS)) throw corrupt(`a grid's cell, item ${id}, is a '${type}' item, not a coded image (nested or looping references)`);
    const codec = type as Codec;
    const own = this.own(id);
    const size = ispe(this.bytes, own);
    if (!size) throw corrupt(`item ${id} has no ispe`);
    const configBox = own.find((a) => a.property.type === CONFIGS[codec])?.property;
    if (!configBox) throw corrupt(`item ${id} has no ${CONFIGS[codec]}`);
    const coding = codec === 'av01' ? av1Config(this.bytes, configBox) : hevcConfig(this.bytes, configBox);
    const pixi = own.find((a) => a.property.type === 'pixi');
    if (pixi) {
      const c = Cursor.of(this.bytes, pixi.property);
      c.fullBox();
      const depths = Array.from({ length: c.u8() }, () => c.u8());
      if (depths.some((d) => d !== coding.bitDepth)) throw corrupt(`item ${id}'s pixi says ${depths.join(', ')} bits and its ${CONFIGS[codec]} ${coding.bitDepth}`);
    }
    const { extents, past } = fileExtents(this.meta, id, this.bytes.length);
    this.past ||= past;
    return { tile: { id, extents, ...size }, codec, config: this.bytes.subarray(configBox.body, configBox.end), ...coding };
  }

  /** An ImageGrid (ISO/IEC 23008-12 6.6.2.3.2) and its cells (dimg, in row-major order), each checked against the grid. */
  grid(id: number): HeifPicture {
    const own = this.own(id);
    const { extents } = fileExtents(this.meta, id, this.bytes.length);
    const total = extents.reduce((n, e) => n + e.length, 0);
    if (total > 12 || extents.some((e) => e.offset + e.length > this.bytes.length)) throw corrupt(`grid item ${id}'s description is ${total} bytes, or past the file's end`);
    const data = concat(extents.map((e) => this.bytes.subarray(e.offset, e.offset + e.length)));
    const c = new Cursor(data, 0, data.length, `grid item ${id}'s description`);
    if (c.u8() !== 0) throw corrupt(`grid item ${id} is not version 0`);
    const fieldSize = c.u8() & 1 ? 4 : 2;
    const rows = c.u8() + 1;
    const columns = c.u8() + 1;
    const width = c.uint(fieldSize);
    const height = c.uint(fieldSize);
    if (rows * columns > MAX_GRID_CELLS) throw corrupt(`grid item ${id} has ${rows * columns} cells (${columns}x${rows}); at most ${MAX_GRID_CELLS} are read`);
    if (width === 0 || height === 0) throw corrupt(`grid item ${id} is ${width}x${height}`);
    const size = ispe(this.bytes, own);
    if (size && (size.width !== width || size.height !== height)) throw corrupt(`grid item ${id}'s ispe says ${size.width}x${size.height} and its grid ${width}x${height}`);
    const cells = this.meta.references.filter((r) => r.type === 'dimg' && r.from === id).flatMap((r) => r.to);
    if (cells.length !== rows * columns) throw corrupt(`grid item ${id} is ${columns}x${rows} cells and names ${cells.length}`);
    const coded = cells.map((cell) => this.coded(cell));
    const first = coded[0]!;
    const tileWidth = first.tile.width;
    const tileHeight = first.tile.height;
    for (const cell of coded) {
      if (cell.tile.width !== tileWidth || cell.tile.height !== tileHeight) throw corrupt(`grid item ${id}'s cells are not all ${tileWidth}x${tileHeight}`);
      if (cell.codec !== first.codec || cell.bitDepth !== first.bitDepth || cell.chroma !== first.chroma) throw corrupt(`grid item ${id}'s cells are not coded alike`);
    }
    // The cells cover the output, and each row and column of them shows in it: none is decoded to be thrown away whole.
    const covers = (cells: number, cell: number, out: number) => cells * cell >= out && (cells - 1) * cell < out;
    if (!covers(columns, tileWidth, width) || !covers(rows, tileHeight, height)) {
      throw corrupt(`grid item ${id}'s ${columns}x${rows} cells of ${tileWidth}x${tileHeight} do not tile its ${width}x${height}`);
    }
    return { id, width, height, codec: first.codec, config: first.config, bitDepth: first.bitDepth, chroma: first.chroma, tiles: coded.map((cell) => cell.tile), grid: { rows, columns } };
  }
}

function ispe(bytes: Uint8Array, own: Association[]): { width: number; height: number } | undefined {
  const box = own.find((a) => a.property.type === 'ispe')?.property;
  if (!box) return undefined;
  const c = Cursor.of(bytes, box);
  c.fullBox();
  const width = c.u32();
  const height = c.u32();
  if (width === 0 || height === 0) throw corrupt(`an ispe of ${width}x${height}`);
  return { width, height };
}

const CHROMA = ['mono', '420', '422', '444'] as const;

/** av1C (AV1 ISOBMFF binding 2.3): marker and version, then the sequence header's profile, depth and subsampling. */
function av1Config(bytes: Uint8Array, box: Box): { bitDepth: number; chroma: HeifPicture['chroma'] } {
  const c = Cursor.of(bytes, box);
  if (c.u8() !== 0x81) throw corrupt('av1C is not version 1');
  c.u8();
  const flags = c.u8();
  c.u8();
  const [high, twelve, mono, x, y] = [6, 5, 4, 3, 2].map((bit) => (flags >> bit) & 1);
  if (y && !x) throw corrupt('av1C subsamples rows and not columns');
  return { bitDepth: high ? (twelve ? 12 : 10) : 8, chroma: mono ? 'mono' : x ? (y ? '420' : '422') : '444' };
}

/** hvcC (ISO/IEC 14496-15 8.3.3.1): chroma format and luma depth, and its parameter set arrays all within the box. */
function hevcConfig(bytes: Uint8Array, box: Box): { bitDepth: number; chroma: HeifPicture['chroma'] } {
  const c = Cursor.of(bytes, box);
  c.need(16);
  const chroma = CHROMA[c.u8() & 3]!;
  const bitDepth = (c.u8() & 7) + 8;
  c.need(4);
  const arrays = c.u8();
  for (let i = 0; i < arrays; i++) {
    c.u8();
    const nalus = c.u16();
    for (let n = 0; n < nalus; n++) c.need(c.u16());
  }
  return { bitDepth, chroma };
}

function colour(bytes: Uint8Array, own: Association[]): HeifColour {
  const found: HeifColour = {};
  for (const { property } of own) {
    if (property.type !== 'colr') continue;
    const c = Cursor.of(bytes, property);
    const kind = c.fourcc();
    if (kind === 'nclx' && !found.nclx) found.nclx = { primaries: c.u16(), transfer: c.u16(), matrix: c.u16(), fullRange: c.u8() >> 7 === 1 };
    else if ((kind === 'prof' || kind === 'rICC') && !found.icc) found.icc = c.rest();
  }
  return found;
}

/** x' = a x + b y, y' = c x + d y, in a frame centred on the picture, y down: the eight EXIF orientations. */
type Matrix = readonly [number, number, number, number];
const EXIF: Matrix[] = [
  [1, 0, 0, 1],
  [-1, 0, 0, 1],
  [-1, 0, 0, -1],
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [0, -1, 1, 0],
  [0, -1, -1, 0],
  [0, 1, -1, 0],
];
const QUARTER_ANTICLOCKWISE: Matrix = [0, 1, -1, 0];
const times = ([a, b, c, d]: Matrix, [e, f, g, h]: Matrix): Matrix => [a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h];

/**
 * clap, irot and imir of the primary item, in the order ipma lists them: irot turns anticlockwise by quarters;
 * imir's axis 0 exchanges top and bottom, 1 left and right, as libheif, iPhones and Chrome read it (and
 * ISO/IEC 23008-12's amendment 2: scripts/make-heif-fixtures.mjs checks heif-convert). A clap after either is
 * refused (MIAF 7.3.6.7's order).
 */
function transforms(bytes: Uint8Array, own: Association[], picture: HeifPicture): { clap?: Rect; orientation: number } {
  let turned: Matrix = EXIF[0]!;
  let clap: Rect | undefined;
  for (const { property } of own) {
    if (property.type === 'irot') {
      for (let q = Cursor.of(bytes, property).u8() & 3; q > 0; q--) turned = times(QUARTER_ANTICLOCKWISE, turned);
    } else if (property.type === 'imir') {
      turned = times(Cursor.of(bytes, property).u8() & 1 ? [-1, 0, 0, 1] : [1, 0, 0, -1], turned);
    } else if (property.type === 'clap') {
      if (turned !== EXIF[0] || clap) throw unsupported("The HEIF file's clean aperture (clap) comes after a rotation or mirror, or twice: not in the order MIAF requires.");
      clap = cleanAperture(bytes, property, picture);
    }
  }
  const orientation = EXIF.findIndex((m) => m.every((v, i) => v === turned[i])) + 1;
  return { ...(clap ? { clap } : {}), orientation };
}

/**
 * clap (ISO/IEC 14496-12 12.1.4) in whole pixels as libheif rounds it: the width and height rounded, the left
 * and top edges rounded down from the centre, (size - 1) / 2 + offset. It must lie within the picture.
 */
function cleanAperture(bytes: Uint8Array, box: Box, picture: HeifPicture): Rect {
  const c = Cursor.of(bytes, box);
  const [wN, wD, hN, hD, xN, xD, yN, yD] = Array.from({ length: 8 }, (_, i) => BigInt(i === 4 || i === 6 ? c.u32() | 0 : c.u32()));
  if (!wD || !hD || !xD || !yD) throw corrupt('clap has a zero denominator');
  const round = (n: bigint, d: bigint) => Number((2n * n + d) / (2n * d));
  // floor(offset + (size - 1) / 2 - (clean - 1) / 2) over the common denominator 2 d dc.
  const edge = (n: bigint, d: bigint, cleanN: bigint, cleanD: bigint, size: number) => {
    const numerator = 2n * n * cleanD + BigInt(size - 1) * d * cleanD - (cleanN - cleanD) * d;
    const denominator = 2n * d * cleanD;
    const q = numerator / denominator;
    return Number(numerator % denominator < 0n ? q - 1n : q);
  };
  const width = round(wN!, wD!);
  const height = round(hN!, hD!);
  const left = edge(xN!, xD!, wN!, wD!, picture.width);
  const top = edge(yN!, yD!, hN!, hD!, picture.height);
  if (width < 1 || height < 1 || left < 0 || top < 0 || left + width > picture.width || top + height > picture.height) {
    throw corrupt(`clap's ${width}x${height} at ${left},${top} lies outside the ${picture.width}x${picture.height} image`);
  }
  return { left, top, width, height };
}
