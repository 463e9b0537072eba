interface Box {
  type: string;
  body: Uint8Array;
}

/** The boxes of `bytes` (ISO BMFF), starting `skip` bytes into each (a full box's version and flags). */
function boxes(bytes: Uint8Array, skip = 0): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Box[] = [];
  for (let at = skip; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    if (size < 8 || at + size > bytes.length) throw new Error(`a box of ${size} bytes at ${at} runs past its parent`);
    found.push({ type: String.fromCharCode(...bytes.subarray(at + 4, at + 8)), body: bytes.subarray(at + 8, at + size) });
    at += size;
  }
  return found;
}

const child = (list: Box[], type: string): Box => {
  const box = list.find((b) => b.type === type);
  if (!box) throw new Error(`no ${type} box`);
  return box;
};

/**
 * What an AVIF's meta box says of its primary item: its size (ispe), whether it is a grid, whether an alpha
 * item refers to it (auxl, with auxC's alpha URN), and its ICC profile (colr 'prof'). The one test-side reader
 * of the container codecs/src/avif-container.c writes (version 0 boxes, as written there).
 */
export function avifLayout(bytes: Uint8Array): { width: number; height: number; grid: boolean; alpha: boolean; icc: Uint8Array | null } {
  const top = boxes(bytes);
  if (top[0]?.type !== 'ftyp' || String.fromCharCode(...top[0].body.subarray(0, 4)) !== 'avif') throw new Error('not an AVIF (ftyp)');
  const meta = boxes(child(top, 'meta').body, 4);
  const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
  const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at);
  const primary = u16(child(meta, 'pitm').body, 4);
  const types = new Map<number, string>();
  for (const infe of boxes(child(meta, 'iinf').body, 6)) types.set(u16(infe.body, 4), String.fromCharCode(...infe.body.subarray(8, 12)));
  const iprp = boxes(child(meta, 'iprp').body);
  const properties = boxes(child(iprp, 'ipco').body);
  const ipma = child(iprp, 'ipma').body;
  const associated = new Map<number, Box[]>();
  for (let i = 0, at = 8; i < u32(ipma, 4); i++) {
    const id = u16(ipma, at);
    const count = ipma[at + 2]!;
    associated.set(id, [...ipma.subarray(at + 3, at + 3 + count)].map((index) => properties[(index & 0x7f) - 1]!));
    at += 3 + count;
  }
  const own = associated.get(primary) ?? [];
  const ispe = child(own, 'ispe').body;
  const profile = own.find((p) => p.type === 'colr' && String.fromCharCode(...p.body.subarray(0, 4)) === 'prof');
  const iref = meta.find((b) => b.type === 'iref');
  const auxl = iref ? boxes(iref.body, 4).filter((b) => b.type === 'auxl' && u16(b.body, 4) === primary) : [];
  const alpha = auxl.some((ref) => {
    const aux = associated.get(u16(ref.body, 0))?.find((p) => p.type === 'auxC');
    return aux !== undefined && new TextDecoder().decode(aux.body.subarray(4)).startsWith('urn:mpeg:mpegB:cicp:systems:auxiliary:alpha');
  });
  return { width: u32(ispe, 4), height: u32(ispe, 8), grid: types.get(primary) === 'grid', alpha, icc: profile ? profile.body.slice(4) : null };
}

/**
 * The items an AVIF's meta box says describe its primary item ('cdsc' references), by item type, with their
 * bytes as iloc locates them (version 0, 4-byte offsets and lengths, one extent): an 'Exif' item and a 'mime'
 * one, with the mime's content type.
 */
export function avifMetadataItems(bytes: Uint8Array): Array<{ type: string; contentType?: string; data: Uint8Array }> {
  const meta = boxes(child(boxes(bytes), 'meta').body, 4);
  const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
  const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at);
  const primary = u16(child(meta, 'pitm').body, 4);
  const iloc = child(meta, 'iloc').body;
  if (iloc[4] !== 0x44 || iloc[5] !== 0) throw new Error('iloc is not as avif-container.c writes it');
  const located = new Map<number, Uint8Array>();
  for (let i = 0, at = 8; i < u16(iloc, 6); i++) {
    const extents = u16(iloc, at + 4);
    if (extents !== 1) throw new Error(`item ${u16(iloc, at)} has ${extents} extents`);
    const offset = u32(iloc, at + 6);
    const length = u32(iloc, at + 10);
    if (offset + length > bytes.length) throw new Error(`item ${u16(iloc, at)} runs past the file`);
    located.set(u16(iloc, at), bytes.subarray(offset, offset + length));
    at += 14;
  }
  const infes = new Map<number, { type: string; contentType?: string }>();
  for (const infe of boxes(child(meta, 'iinf').body, 6)) {
    const type = String.fromCharCode(...infe.body.subarray(8, 12));
    const tail = new TextDecoder().decode(infe.body.subarray(13)).split('\0')[0];
    infes.set(u16(infe.body, 4), type === 'mime' ? { type, contentType: tail } : { type });
  }
  const iref = meta.find((b) => b.type === 'iref');
  const describing = iref ? boxes(iref.body, 4).filter((b) => b.type === 'cdsc' && u16(b.body, 4) === primary && u16(b.body, 2) === 1) : [];
  return describing.map((ref) => {
    const id = u16(ref.body, 0);
    const data = located.get(id);
    if (!data) throw new Error(`item ${id} has no location`);
    return { ...infes.get(id)!, data };
  });
}
