import type { Extent } from '../types';
import type { ApiError } from '../../errors/api-error';
import { ascii, concat, u16be, u32be, unsupported } from './bytes';

/**
 * The one reader of ISO-BMFF boxes (ISO/IEC 14496-12) and of the HEIF meta box (ISO/IEC 23008-12) they carry,
 * for AVIF and HEIC input and for the AVIF the engine writes. Every size, count and offset is checked against
 * its parent before anything is read or allocated: what does not fit refuses the file (400 unsupported_image),
 * so a crafted file costs a walk of its meta box and nothing more. What is walked is capped (children of a box,
 * items, extents) at several times what phones and encoders write, for the same reason.
 */

/** A box: its four-character type, where it starts, where its body starts (after size, type and any largesize or uuid) and where it ends. */
export interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

/** The most children a box may have: an iPhone's 48 MP grid has 192 cells, so a few hundred items and properties. */
export const MAX_CHILDREN = 4096;
/** The most extents of one item: libheif's default limit is 32; encoders write one. */
export const MAX_EXTENTS = 256;
/**
 * The most extents of all items, item ids all references name, and properties all items are given, each: a
 * 1,024-cell grid with an alpha grid takes a few thousand; within a 10 MB file, the bytes alone would allow
 * millions of each, tens of MB of objects.
 */
export const MAX_ENTRIES = 16_384;

export function corrupt(why: string): ApiError {
  return unsupported(`The HEIF/AVIF data is corrupt: ${why}.`);
}

/**
 * The boxes tiling `from` to `to`. A size of 0 runs to `to` (ISO/IEC 14496-12 4.2: the last box of the file);
 * a size of 1 is followed by a 64-bit one. A box past its parent, or a parent the boxes do not tile, is corrupt;
 * with `cut`, the last box may run past `to` (a truncated file's mdat): its `end` says where it would end.
 */
export function boxes(bytes: Uint8Array, from: number, to: number, parent: string, cut = false): Box[] {
  const found: Box[] = [];
  for (let at = from; at < to; ) {
    if (found.length === MAX_CHILDREN) throw corrupt(`${parent} has more than ${MAX_CHILDREN} boxes`);
    if (at + 8 > to) throw corrupt(`${parent} ends inside a box header`);
    const type = ascii(bytes, at + 4, 4);
    let size = u32be(bytes, at);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) throw corrupt(`${parent} ends inside a box header`);
      size = u32be(bytes, at + 8) * 2 ** 32 + u32be(bytes, at + 12);
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (type === 'uuid') body += 16;
    if (size < body - at || (at + size > to && !(cut && body <= to))) throw corrupt(`a '${printable(type)}' box of ${size} bytes at ${at} runs past ${parent}`);
    found.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return found;
}

/** A type as text for a message: bytes other than printable ASCII as escapes. */
function printable(type: string): string {
  return type.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Reads a box's body field by field, each read checked against the box's end: a field past it is corrupt.
 * Values of 64 bits are numbers (exact below 2^53; anything larger lies past any file, and is refused as such).
 */
export class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number,
    readonly what: string,
  ) {}

  static of(bytes: Uint8Array, box: Box): Cursor {
    return new Cursor(bytes, box.body, box.end, `the '${printable(box.type)}' box`);
  }

  need(n: number): number {
    if (n < 0 || this.at + n > this.end) throw corrupt(`${this.what} is too short`);
    const at = this.at;
    this.at += n;
    return at;
  }

  left(): number {
    return this.end - this.at;
  }

  u8(): number {
    return this.bytes[this.need(1)]!;
  }

  u16(): number {
    return u16be(this.bytes, this.need(2));
  }

  u32(): number {
    return u32be(this.bytes, this.need(4));
  }

  /** An unsigned field of 0, 1, 2, 4 or 8 bytes (iloc's sizes; ImageGrid's 16 or 32 bits). */
  uint(size: number): number {
    if (size === 0) return 0;
    if (size === 1) return this.u8();
    if (size === 2) return this.u16();
    if (size === 4) return this.u32();
    if (size === 8) return this.u32() * 2 ** 32 + this.u32();
    throw corrupt(`${this.what} has a field of ${size} bytes`);
  }

  fourcc(): string {
    return ascii(this.bytes, this.need(4), 4);
  }

  /** A null-terminated UTF-8 string (a missing terminator ends it at the box's end, as libheif reads it). */
  string(): string {
    const zero = this.bytes.subarray(this.at, this.end).indexOf(0);
    const length = zero < 0 ? this.end - this.at : zero;
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += zero < 0 ? length : length + 1;
    return text;
  }

  /** A full box's version and flags (ISO/IEC 14496-12 4.2). */
  fullBox(): { version: number; flags: number } {
    const version = this.u8();
    return { version, flags: (this.u8() << 16) | this.u16() };
  }

  /** The bytes left, as a view. */
  rest(): Uint8Array {
    return this.bytes.subarray(this.need(this.left()), this.end);
  }
}

/** The content type of a `mime` item holding XMP (ISO/IEC 23008-12 A.2.2). */
export const XMP_CONTENT_TYPE = 'application/rdf+xml';

/** An item of iinf: infe versions 2 and 3 give its type; older ones have none (an empty type: no image). */
export interface Item {
  id: number;
  type: string;
  hidden: boolean;
  /** A `mime` item's content type (XMP_CONTENT_TYPE for XMP). */
  contentType?: string;
}

/**
 * An item's location (iloc): its construction method (0 file offsets, 1 offsets in idat), its base offset and
 * its extents relative to them, each as written.
 */
export interface Location {
  id: number;
  method: number;
  baseOffset: number;
  extents: Extent[];
}

/** A reference of iref: from one item to others, of a type (dimg, auxl, thmb, cdsc, prem...). */
export interface Reference {
  type: string;
  from: number;
  to: number[];
}

/** A property an item is associated with (ipma): the ipco box, and whether the reader must understand it. */
export interface Association {
  property: Box;
  essential: boolean;
}

/** What a HEIF meta box says: its items, their locations, references and properties, and the idat box if any. */
export interface HeifMeta {
  primary: number;
  items: Map<number, Item>;
  locations: Map<number, Location>;
  references: Reference[];
  properties: Map<number, Association[]>;
  idat?: Box;
}

/** ftyp's major brand then its compatible ones; null when the file does not start with an ftyp box. */
export function readBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return null;
  const size = u32be(bytes, 0);
  if (size < 16 || size > bytes.length || size % 4 !== 0) return null;
  const brands = [ascii(bytes, 8, 4)];
  for (let at = 16; at < size; at += 4) brands.push(ascii(bytes, at, 4));
  return brands;
}

/**
 * The file's meta box, which must be whole and the only one at the top level; the last top-level box may be
 * cut short (a truncated file: its items' extents say what is missing).
 */
export function metaBox(bytes: Uint8Array): Box {
  const metas = boxes(bytes, 0, bytes.length, 'the file', true).filter((b) => b.type === 'meta');
  if (metas.length !== 1) throw corrupt(metas.length ? 'more than one meta box' : 'no meta box (an image sequence without a still image?)');
  const meta = metas[0]!;
  if (meta.end > bytes.length) throw corrupt(`the meta box of ${meta.end - meta.start} bytes at ${meta.start} runs past the file`);
  return meta;
}

function only(children: Box[], type: string, required: boolean): Box | undefined {
  const found = children.filter((b) => b.type === type);
  if (found.length > 1) throw corrupt(`more than one '${type}' box in meta`);
  if (required && !found.length) throw corrupt(`no '${type}' box in meta`);
  return found[0];
}

/** The meta box's children: hdlr (its handler must be `pict`), pitm, iinf, iloc, iref, iprp, idat. */
export function readMeta(bytes: Uint8Array, meta: Box): HeifMeta {
  const head = Cursor.of(bytes, meta);
  if (head.fullBox().version !== 0) throw corrupt('meta is not version 0');
  const children = boxes(bytes, head.at, meta.end, 'meta');
  const hdlr = Cursor.of(bytes, only(children, 'hdlr', true)!);
  hdlr.fullBox();
  hdlr.u32();
  const handler = hdlr.fourcc();
  if (handler !== 'pict') throw unsupported(`The HEIF file's meta box is for '${printable(handler)}', not a picture.`);
  const pitm = Cursor.of(bytes, only(children, 'pitm', true)!);
  const primary = pitm.fullBox().version === 0 ? pitm.u16() : pitm.u32();
  const items = readItems(bytes, only(children, 'iinf', true)!);
  const locations = readLocations(bytes, only(children, 'iloc', true)!);
  const iref = only(children, 'iref', false);
  const iprp = only(children, 'iprp', false);
  const idat = only(children, 'idat', false);
  for (const id of locations.keys()) if (!items.has(id)) throw corrupt(`iloc locates item ${id}, which iinf does not list`);
  return {
    primary,
    items,
    locations,
    references: iref ? readReferences(bytes, iref, items) : [],
    properties: iprp ? readProperties(bytes, iprp, items) : new Map(),
    ...(idat ? { idat } : {}),
  };
}

function readItems(bytes: Uint8Array, iinf: Box): Map<number, Item> {
  const c = Cursor.of(bytes, iinf);
  const count = c.fullBox().version === 0 ? c.u16() : c.u32();
  const entries = boxes(bytes, c.at, iinf.end, 'iinf');
  if (entries.length !== count) throw corrupt(`iinf says ${count} items and holds ${entries.length} boxes`);
  const items = new Map<number, Item>();
  for (const entry of entries) {
    if (entry.type !== 'infe') throw corrupt(`iinf holds a '${printable(entry.type)}' box`);
    const e = Cursor.of(bytes, entry);
    const { version, flags } = e.fullBox();
    const id = version === 3 ? e.u32() : e.u16();
    e.u16();
    const type = version >= 2 ? e.fourcc() : '';
    if (items.has(id)) throw corrupt(`item ${id} is listed twice`);
    const item: Item = { id, type, hidden: (flags & 1) !== 0 };
    if (type === 'mime') {
      e.string(); // item_name
      item.contentType = e.string();
    }
    items.set(id, item);
  }
  return items;
}

function readLocations(bytes: Uint8Array, iloc: Box): Map<number, Location> {
  const c = Cursor.of(bytes, iloc);
  const { version } = c.fullBox();
  if (version > 2) throw corrupt(`iloc version ${version}`);
  const sizes = c.u8();
  const more = c.u8();
  const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
  const indexSize = version === 0 ? 0 : more & 15;
  for (const size of [offsetSize, lengthSize, baseSize, indexSize]) if (size !== 0 && size !== 4 && size !== 8) throw corrupt(`iloc has fields of ${size} bytes`);
  const count = version < 2 ? c.u16() : c.u32();
  // Each entry takes at least its id, data reference, base offset and extent count: a count that cannot fit is refused before the loop.
  const idSize = version < 2 ? 2 : 4;
  const least = idSize + (version === 0 ? 0 : 2) + 2 + baseSize + 2;
  if (count > MAX_CHILDREN || count * least > c.left()) throw corrupt(`iloc says ${count} items, more than it holds`);
  const locations = new Map<number, Location>();
  let extentsRead = 0;
  for (let i = 0; i < count; i++) {
    const id = c.uint(idSize);
    const method = version === 0 ? 0 : c.u16() & 15;
    const reference = c.u16();
    const baseOffset = c.uint(baseSize);
    const extentCount = c.u16();
    if (extentCount > MAX_EXTENTS) throw corrupt(`item ${id} has ${extentCount} extents (at most ${MAX_EXTENTS})`);
    if (extentCount * (indexSize + offsetSize + lengthSize) > c.left()) throw corrupt(`iloc says item ${id} has ${extentCount} extents, more than it holds`);
    extentsRead += extentCount;
    if (extentsRead > MAX_ENTRIES) throw corrupt(`iloc has more than ${MAX_ENTRIES} extents`);
    const extents: Extent[] = [];
    for (let e = 0; e < extentCount; e++) {
      c.uint(indexSize);
      extents.push({ offset: c.uint(offsetSize), length: c.uint(lengthSize) });
    }
    if (locations.has(id)) throw corrupt(`iloc locates item ${id} twice`);
    if (reference !== 0) throw unsupported(`The HEIF file's item ${id} is in another file (data reference ${reference}).`);
    if (method > 1) throw unsupported(`The HEIF file's item ${id} is built by construction method ${method} (only file and idat offsets are read).`);
    locations.set(id, { id, method, baseOffset, extents });
  }
  return locations;
}

function readReferences(bytes: Uint8Array, iref: Box, items: Map<number, Item>): Reference[] {
  const c = Cursor.of(bytes, iref);
  const idSize = c.fullBox().version === 0 ? 2 : 4;
  let named = 0;
  return boxes(bytes, c.at, iref.end, 'iref').map((box) => {
    const r = Cursor.of(bytes, box);
    const from = r.uint(idSize);
    const count = r.u16();
    if (count * idSize > r.left()) throw corrupt(`a '${printable(box.type)}' reference of item ${from} says ${count} items, more than it holds`);
    named += count;
    if (named > MAX_ENTRIES) throw corrupt(`iref names more than ${MAX_ENTRIES} items`);
    const to = Array.from({ length: count }, () => r.uint(idSize));
    for (const id of [from, ...to]) if (!items.has(id)) throw corrupt(`a '${printable(box.type)}' reference names item ${id}, which iinf does not list`);
    return { type: box.type, from, to };
  });
}

function readProperties(bytes: Uint8Array, iprp: Box, items: Map<number, Item>): Map<number, Association[]> {
  const children = boxes(bytes, iprp.body, iprp.end, 'iprp');
  const ipco = children.find((b) => b.type === 'ipco');
  const listed = ipco ? boxes(bytes, ipco.body, ipco.end, 'ipco') : [];
  const associations = new Map<number, Association[]>();
  let given = 0;
  for (const ipma of children.filter((b) => b.type === 'ipma')) {
    const c = Cursor.of(bytes, ipma);
    const { version, flags } = c.fullBox();
    const idSize = version < 1 ? 2 : 4;
    const indexSize = flags & 1 ? 2 : 1;
    const count = c.u32();
    if (count * (idSize + 1) > c.left()) throw corrupt(`ipma says ${count} items, more than it holds`);
    for (let i = 0; i < count; i++) {
      const id = c.uint(idSize);
      const n = c.u8();
      if (n * indexSize > c.left()) throw corrupt(`ipma says item ${id} has ${n} properties, more than it holds`);
      given += n;
      if (given > MAX_ENTRIES) throw corrupt(`ipma gives more than ${MAX_ENTRIES} properties`);
      if (!items.has(id)) throw corrupt(`ipma names item ${id}, which iinf does not list`);
      if (associations.has(id)) throw corrupt(`ipma lists item ${id} twice`);
      const own: Association[] = [];
      for (let p = 0; p < n; p++) {
        const value = c.uint(indexSize);
        const index = value & (indexSize === 2 ? 0x7fff : 0x7f);
        if (index === 0) continue;
        const property = listed[index - 1];
        if (!property) throw corrupt(`ipma gives item ${id} property ${index}, and ipco has ${listed.length}`);
        own.push({ property, essential: value >> (indexSize * 8 - 1) === 1 });
      }
      associations.set(id, own);
    }
  }
  return associations;
}

/**
 * An item's extents as file offsets, each checked: method 0's against the file (`past` counts those that run
 * past its end: a truncated file, refused after the size check), method 1's against idat's body. An extent
 * of length 0 is the rest of the data it is in (ISO/IEC 14496-12 8.11.3.3).
 */
export function fileExtents(meta: HeifMeta, id: number, fileLength: number): { extents: Extent[]; past: boolean } {
  const location = meta.locations.get(id);
  if (!location || !location.extents.length) throw corrupt(`item ${id} has no data`);
  const [from, to] = location.method === 0 ? [0, fileLength] : meta.idat ? [meta.idat.body, meta.idat.end] : [];
  if (from === undefined || to === undefined) throw corrupt(`item ${id} is in idat, and meta has none`);
  let past = false;
  const extents = location.extents.map((extent) => {
    const offset = from + location.baseOffset + extent.offset;
    const length = extent.length === 0 ? Math.max(0, to - offset) : extent.length;
    if (length === 0 || offset + length > to) {
      if (location.method === 1) throw corrupt(`item ${id} runs past idat`);
      past = true;
    }
    return { offset, length };
  });
  return { extents, past };
}

/**
 * An item's bytes, its extents joined; null when it has none, or they run past the file or add up to more than `max` (what a reader
 * of that item would never use), so a crafted length costs nothing.
 */
export function itemBytes(bytes: Uint8Array, meta: HeifMeta, id: number, max: number): Uint8Array | null {
  if (!meta.locations.get(id)?.extents.length) return null;
  const { extents, past } = fileExtents(meta, id, bytes.length);
  const total = extents.reduce((sum, e) => sum + e.length, 0);
  if (past || total > max) return null;
  return concat(extents.map(({ offset, length }) => bytes.subarray(offset, offset + length)));
}

/** The items that describe the primary image (`cdsc` references to it): its Exif and XMP, in the order iref lists them. */
export function describing(meta: HeifMeta): Item[] {
  return meta.references.filter((r) => r.type === 'cdsc' && r.to.includes(meta.primary)).map((r) => meta.items.get(r.from)!);
}
