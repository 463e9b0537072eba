import { boxes, Cursor, fileExtents, metaBox, readMeta, XMP_CONTENT_TYPE } from './bmff';
import { asciiBytes, concat, u16be, u32be } from './bytes';
import type { MetadataBlocks } from './metadata-blocks';

/**
 * The kept metadata as items of an AVIF the engine wrote (codecs/src/avif-container.c: ftyp, then a version 0
 * meta box whose iloc has 4-byte offsets and lengths and no base offset, then mdat). HEIF (ISO/IEC 23008-12)
 * keeps EXIF as an 'Exif' item (a 4-byte offset to the TIFF header, then the TIFF: A.2.1) and XMP as a 'mime'
 * item of type application/rdf+xml, each linked to the image it describes by a 'cdsc' reference. Their bytes
 * go into a second mdat at the end; the meta box grows, so every offset iloc had moves by as much.
 */

function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const body = concat(parts);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, 8 + body.length);
  head.set(asciiBytes(type), 4);
  return concat([head, body]);
}

const u16 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
const fullBox = (type: string, ...parts: Uint8Array[]) => box(type, new Uint8Array(4), ...parts);

/** An infe of version 2: item ID, protection index 0, item type, an empty name, and for 'mime' its content type. */
function infe(id: number, type: 'Exif' | 'mime'): Uint8Array {
  const head = Uint8Array.of(2, 0, 0, 0);
  const tail = type === 'mime' ? asciiBytes(`${XMP_CONTENT_TYPE}\0`) : new Uint8Array(0);
  return box('infe', head, u16(id), u16(0), asciiBytes(type), Uint8Array.of(0), tail);
}

/**
 * The AVIF with the blocks' EXIF and XMP as items describing its primary item; unchanged (and `false`) when it
 * has none to carry, or its boxes are not laid out as the engine writes them.
 */
export function insertAvifMetadata(bytes: Uint8Array, blocks: MetadataBlocks): { bytes: Uint8Array; written: boolean } {
  const payloads = [
    ...(blocks.exif ? [{ type: 'Exif' as const, data: concat([u32(0), blocks.exif]) }] : []),
    ...(blocks.xmp ? [{ type: 'mime' as const, data: blocks.xmp }] : []),
  ];
  const unchanged = { bytes, written: false };
  if (!payloads.length) return unchanged;
  const meta = metaBox(bytes);
  const children = boxes(bytes, meta.body + 4, meta.end, 'meta');
  const find = (type: string) => children.find((b) => b.type === type);
  const [iloc, iinf, pitm] = [find('iloc'), find('iinf'), find('pitm')];
  if (!iloc || !iinf || !pitm) return unchanged;
  // iloc version 0, offset and length 4 bytes, no base offset: as avif-container.c writes it.
  const iref = find('iref');
  const versions = [meta, iloc, iinf, ...(iref ? [iref] : [])].map((b) => bytes[b.body]);
  if (versions.some((v) => v !== 0) || bytes[iloc.body + 4] !== 0x44 || bytes[iloc.body + 5] !== 0) return unchanged;
  const { primary, items, locations } = readMeta(bytes, meta);
  const entries = [...locations.values()];
  const count = entries.length;
  const firstId = Math.max(0, ...items.keys()) + 1;
  const itemCount = u16be(bytes, iinf.body + 4);
  if (firstId + payloads.length > 0xffff || itemCount + payloads.length > 0xffff) return unchanged;
  const ids = payloads.map((_, i) => firstId + i);

  // Each box is built twice: first to learn how much meta grows, then with the offsets moved by that.
  const references = ids.map((id) => box('cdsc', u16(id), u16(1), u16(primary)));
  const newIref = fullBox('iref', ...(iref ? [bytes.subarray(iref.body + 4, iref.end)] : []), ...references);
  const newIinf = fullBox('iinf', u16(itemCount + payloads.length), bytes.subarray(iinf.body + 6, iinf.end), ...ids.map((id, i) => infe(id, payloads[i]!.type)));
  const buildIloc = (shift: number, dataAt: number) => {
    let at = dataAt;
    const added = payloads.map((p, i) => {
      const entry = concat([u16(ids[i]!), u16(0), u16(1), u32(at), u32(p.data.length)]);
      at += p.data.length;
      return entry;
    });
    const kept = entries.map((e) => concat([u16(e.id), u16(0), u16(e.extents.length), ...e.extents.flatMap(({ offset, length }) => [u32(offset + shift), u32(length)])]));
    return fullBox('iloc', Uint8Array.of(0x44, 0), u16(count + payloads.length), ...kept, ...added);
  };
  const buildMeta = (newIloc: Uint8Array) => {
    const parts = children.flatMap((c) => {
      if (c.type === 'iloc') return [newIloc];
      if (c.type === 'iinf') return iref ? [newIinf] : [newIinf, newIref];
      if (c.type === 'iref') return [newIref];
      return [bytes.subarray(c.start, c.end)];
    });
    return fullBox('meta', ...parts);
  };
  const shift = buildMeta(buildIloc(0, 0)).length - (meta.end - meta.start);
  const dataAt = bytes.length + shift + 8;
  if (dataAt + payloads.reduce((n, p) => n + p.data.length, 0) > 0xffffffff) return unchanged;
  const newMeta = buildMeta(buildIloc(shift, dataAt));
  const out = concat([bytes.subarray(0, meta.start), newMeta, bytes.subarray(meta.end), box('mdat', ...payloads.map((p) => p.data))]);
  return { bytes: out, written: true };
}

/** Items that carry metadata rather than pictures: what never-larger strips. */
const METADATA_ITEMS = new Set(['Exif', 'mime']);

/**
 * Never-larger's container edit for an AVIF input: the file with its Exif and XMP (mime) items and every box outside
 * ftyp, meta and the items' data gone, the picture items' bytes copied as they are into one mdat, laid out as the
 * engine writes its own (iloc version 0, 4-byte offsets and lengths) so that insertAvifMetadata can then add what
 * `preserve` keeps. Null where that layout cannot say it: items in idat, ids past 16 bits, properties given to a
 * metadata item (ipma naming it), a version 1 iref, data past 4 GiB (the original is then not returned; the candidate is).
 */
export function stripAvifMetadata(bytes: Uint8Array): Uint8Array | null {
  const top = boxes(bytes, 0, bytes.length, 'the file');
  const meta = metaBox(bytes);
  const parsed = readMeta(bytes, meta);
  const removed = new Set([...parsed.items.values()].filter((item) => METADATA_ITEMS.has(item.type)).map((item) => item.id));
  const children = boxes(bytes, meta.body + 4, meta.end, 'meta');
  const iref = children.find((b) => b.type === 'iref');
  const located = [...parsed.locations.values()].filter((l) => !removed.has(l.id));
  if (
    top[0]?.type !== 'ftyp' ||
    located.some((l) => l.method !== 0) ||
    Math.max(0, ...parsed.items.keys()) > 0xffff ||
    [...removed].some((id) => parsed.properties.has(id)) ||
    (iref && bytes[iref.body] !== 0)
  )
    return null;
  const data = located.map((l) => ({ id: l.id, extents: fileExtents(parsed, l.id, bytes.length) }));
  if (data.some((d) => d.extents.past)) return null;
  const infes = children.find((b) => b.type === 'iinf')!;
  const iinf = Cursor.of(bytes, infes);
  const iinfVersion = iinf.fullBox().version;
  iinf.uint(iinfVersion === 0 ? 2 : 4);
  const kept = boxes(bytes, iinf.at, infes.end, 'iinf').filter((infe) => {
    const id = bytes[infe.body] === 3 ? u32be(bytes, infe.body + 4) : u16be(bytes, infe.body + 4);
    return !removed.has(id);
  });
  const newIinf = fullBox('iinf', u16(kept.length), ...kept.map((b) => bytes.subarray(b.start, b.end)));
  const references = iref
    ? boxes(bytes, iref.body + 4, iref.end, 'iref').flatMap((ref) => {
        const from = u16be(bytes, ref.body);
        const to = Array.from({ length: u16be(bytes, ref.body + 2) }, (_, i) => u16be(bytes, ref.body + 4 + 2 * i)).filter((id) => !removed.has(id));
        return removed.has(from) || !to.length ? [] : [box(ref.type, u16(from), u16(to.length), ...to.map(u16))];
      })
    : [];
  const buildIloc = (dataAt: number) => {
    let at = dataAt;
    const entries = data.map(({ id, extents }) =>
      concat([
        u16(id),
        u16(0),
        u16(extents.extents.length),
        ...extents.extents.flatMap(({ length }) => {
          const entry = [u32(at), u32(length)];
          at += length;
          return entry;
        }),
      ]),
    );
    return { iloc: fullBox('iloc', Uint8Array.of(0x44, 0), u16(entries.length), ...entries), end: at };
  };
  const buildMeta = (iloc: Uint8Array) =>
    fullBox(
      'meta',
      ...children.flatMap((c) => {
        if (c.type === 'iloc') return [iloc];
        if (c.type === 'iinf') return [newIinf];
        if (c.type === 'iref') return references.length ? [fullBox('iref', ...references)] : [];
        return [bytes.subarray(c.start, c.end)];
      }),
    );
  const ftyp = bytes.subarray(top[0].start, top[0].end);
  const dataAt = ftyp.length + buildMeta(buildIloc(0).iloc).length + 8;
  const { iloc, end } = buildIloc(dataAt);
  if (end > 0xffffffff) return null;
  const payload = data.flatMap(({ extents }) => extents.extents.map(({ offset, length }) => bytes.subarray(offset, offset + length)));
  return concat([ftyp, buildMeta(iloc), box('mdat', ...payload)]);
}
