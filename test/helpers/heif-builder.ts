import { cat } from '../container/synth';

/**
 * Writes HEIF files (ISO/IEC 23008-12) from items: the grid HEICs assembled as iPhones lay them out from
 * heif-enc's tiles (scripts/make-heif-fixtures.mjs, checked there by libheif's heif-info and heif-convert),
 * and the crafted ones whose every size, count and offset can be made to lie. Deliberately written apart
 * from src/image/container/bmff.ts, which reads them: each box is spelled out from the standard.
 */

export interface ItemSpec {
  id: number;
  type: string;
  hidden?: boolean;
  /** Property boxes (whole, as the helpers below make them), in ipma order; `essential` marks them so. */
  properties?: Array<{ box: Uint8Array; essential?: boolean }>;
  /** The item's bytes, and whether they go into idat (construction method 1) rather than mdat. */
  data?: Uint8Array;
  inIdat?: boolean;
  /** Overrides the extents iloc writes for this item (offsets as written, before any base offset). */
  extents?: Array<{ offset: number; length: number }>;
  /** Splits the data into extents of this many bytes (iloc's multiple extents). */
  extentBytes?: number;
  /** infe's content type, for a `mime` item. */
  contentType?: string;
  /** An infe of version 0 (no item type: id, protection index, name, content type), as files before HEIF wrote. */
  oldInfe?: boolean;
}

export interface HeifSpec {
  brands: string[];
  primary: number;
  items: ItemSpec[];
  references?: Array<{ type: string; from: number; to: number[] }>;
  /** iloc's version and field sizes (bytes: 0, 4 or 8); a base offset is the mdat's start when its size is set. */
  iloc?: { version?: 0 | 1 | 2; offsetSize?: number; lengthSize?: number; baseOffsetSize?: number };
  /** pitm, iinf, iref and ipma with 32-bit item ids. */
  wideIds?: boolean;
  /** The order of meta's children, hdlr first; any left out are dropped. */
  metaOrder?: string[];
}

export { cat };

const text = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export function uint(value: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = bytes - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256;
  return out;
}

export function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const body = cat(...parts);
  return cat(uint(8 + body.length, 4), text(type), body);
}

export function fullBox(type: string, version: number, flags: number, ...parts: Uint8Array[]): Uint8Array {
  return box(type, Uint8Array.of(version), uint(flags, 3), ...parts);
}

export const ispe = (width: number, height: number) => fullBox('ispe', 0, 0, uint(width, 4), uint(height, 4));
export const pixi = (...depths: number[]) => fullBox('pixi', 0, 0, Uint8Array.of(depths.length, ...depths));
export const irot = (quarters: number) => box('irot', Uint8Array.of(quarters));
export const imir = (axis: number) => box('imir', Uint8Array.of(axis));
export const auxC = (urn: string) => fullBox('auxC', 0, 0, text(`${urn}\0`));
export const nclx = (primaries: number, transfer: number, matrix: number, fullRange: boolean) =>
  box('colr', text('nclx'), uint(primaries, 2), uint(transfer, 2), uint(matrix, 2), Uint8Array.of(fullRange ? 0x80 : 0));
export const iccColr = (profile: Uint8Array) => box('colr', text('prof'), profile);
/** clap's eight 32-bit fields: width, height, horizontal and vertical offsets, each a numerator and denominator. */
export const clap = (...fields: number[]) => box('clap', ...fields.map((f) => uint(f >>> 0, 4)));
/** A configuration property (av1C or hvcC) around its body. */
export const config = (type: string, body: Uint8Array) => box(type, body);
/** An ImageGrid (ISO/IEC 23008-12 6.6.2.3.2): 16-bit output sizes unless `wide`. */
export const gridData = (rows: number, columns: number, width: number, height: number, wide = false) =>
  cat(Uint8Array.of(0, wide ? 1 : 0, rows - 1, columns - 1), uint(width, wide ? 4 : 2), uint(height, wide ? 4 : 2));

/** The HEIF file: ftyp, meta (hdlr, pitm, iinf, iref, iprp, iloc, idat) and one mdat holding the items' data. */
export function buildHeif(spec: HeifSpec): Uint8Array {
  const idSize = spec.wideIds ? 4 : 2;
  const { version = 1, offsetSize = 4, lengthSize = 4, baseOffsetSize = 0 } = spec.iloc ?? {};
  const ftyp = box('ftyp', text(spec.brands[0]!), uint(0, 4), ...spec.brands.slice(1).map(text));
  const hdlr = fullBox('hdlr', 0, 0, uint(0, 4), text('pict'), new Uint8Array(12), Uint8Array.of(0));
  const pitm = fullBox('pitm', spec.wideIds ? 1 : 0, 0, uint(spec.primary, idSize));
  const infes = spec.items.map((item) =>
    item.oldInfe ? fullBox('infe', 0, 0, uint(item.id, 2), uint(0, 2), Uint8Array.of(0), text('application/octet-stream\0')) : fullBox(
      'infe',
      item.id > 0xffff ? 3 : 2,
      item.hidden ? 1 : 0,
      uint(item.id, item.id > 0xffff ? 4 : 2),
      uint(0, 2),
      text(item.type),
      Uint8Array.of(0),
      item.contentType ? text(`${item.contentType}\0`) : new Uint8Array(0),
    ),
  );
  const iinf = fullBox('iinf', 0, 0, uint(spec.items.length, 2), ...infes);
  const references = spec.references ?? [];
  const iref = references.length
    ? fullBox('iref', spec.wideIds ? 1 : 0, 0, ...references.map((r) => box(r.type, uint(r.from, idSize), uint(r.to.length, 2), ...r.to.map((id) => uint(id, idSize)))))
    : new Uint8Array(0);
  // ipco holds each distinct property once; ipma names them by index, from 1.
  const listed: Uint8Array[] = [];
  const indexOf = (b: Uint8Array) => {
    const found = listed.findIndex((p) => p.length === b.length && p.every((v, i) => v === b[i]));
    if (found >= 0) return found + 1;
    listed.push(b);
    return listed.length;
  };
  const associated = spec.items.filter((item) => item.properties?.length);
  const entries = associated.map((item) => ({ id: item.id, indices: item.properties!.map((p) => ({ index: indexOf(p.box), essential: p.essential ?? false })) }));
  const wideIndex = listed.length > 127;
  const ipma = fullBox(
    'ipma',
    spec.wideIds ? 1 : 0,
    wideIndex ? 1 : 0,
    uint(entries.length, 4),
    ...entries.map((e) =>
      cat(uint(e.id, idSize), Uint8Array.of(e.indices.length), ...e.indices.map(({ index, essential }) => uint(index | (essential ? (wideIndex ? 0x8000 : 0x80) : 0), wideIndex ? 2 : 1))),
    ),
  );
  const iprp = box('iprp', box('ipco', ...listed), ipma);
  const idatItems = spec.items.filter((item) => item.data && item.inIdat);
  const idat = idatItems.length ? box('idat', ...idatItems.map((item) => item.data!)) : new Uint8Array(0);
  const mdatItems = spec.items.filter((item) => item.data && !item.inIdat);
  const mdatBody = cat(...mdatItems.map((item) => item.data!));

  const ilocFor = (mdatStart: number) => {
    const itemIdSize = version === 2 ? 4 : 2;
    const located = spec.items.filter((item) => item.data || item.extents);
    let idatAt = 0;
    let mdatAt = 0;
    const rows = located.map((item) => {
      const length = item.data?.length ?? 0;
      const base = item.inIdat ? 0 : baseOffsetSize ? mdatStart : 0;
      const start = item.inIdat ? idatAt : (baseOffsetSize ? 0 : mdatStart) + mdatAt;
      if (item.inIdat) idatAt += length;
      else mdatAt += length;
      const step = item.extentBytes ?? Math.max(length, 1);
      const extents = item.extents ?? Array.from({ length: Math.max(1, Math.ceil(length / step)) }, (_, i) => ({ offset: start + i * step, length: Math.min(step, length - i * step) }));
      return cat(
        uint(item.id, itemIdSize),
        version === 0 ? new Uint8Array(0) : uint(item.inIdat ? 1 : 0, 2),
        uint(0, 2),
        uint(base, baseOffsetSize),
        uint(extents.length, 2),
        ...extents.map((e) => cat(uint(e.offset, offsetSize), uint(e.length, lengthSize))),
      );
    });
    return fullBox('iloc', version, 0, Uint8Array.of((offsetSize << 4) | lengthSize, baseOffsetSize << 4), uint(located.length, version === 2 ? 4 : 2), ...rows);
  };
  const children: Record<string, (mdatStart: number) => Uint8Array> = {
    hdlr: () => hdlr,
    pitm: () => pitm,
    iinf: () => iinf,
    iref: () => iref,
    iprp: () => iprp,
    iloc: ilocFor,
    idat: () => idat,
  };
  const order = spec.metaOrder ?? ['hdlr', 'pitm', 'iinf', 'iref', 'iprp', 'iloc', 'idat'];
  const meta = (mdatStart: number) => fullBox('meta', 0, 0, ...order.map((name) => children[name]!(mdatStart)));
  // The mdat's place depends on meta's size, which does not depend on the offsets' values.
  const mdatStart = ftyp.length + meta(0).length + 8;
  return cat(ftyp, meta(mdatStart), box('mdat', mdatBody));
}
