import type { OutputFormat } from '../types';
import { buildExif, entryBytes, type ExifIfds, orientationEntry, type TiffEntry } from './exif';
import { datasetBytes, encodeIim, type IimDataset } from './iptc';
import { MAX_SEGMENT_PAYLOAD } from './jpeg-segments';
import type { KeptMetadata } from './read-metadata';
import { buildXmp, propertyBytes, type XmlElement } from './xmp';

/** Kept metadata is capped at 64 KiB in all (decisions.md); past it the longest values are dropped. */
export const MAX_KEPT_BYTES = 65_536;
/** And each block fits the one JPEG segment its identifier leaves room for: Exif\0\0 (6), the XMP namespace (29), the Photoshop IRB (26). */
const MAX_BLOCK = { exif: MAX_SEGMENT_PAYLOAD - 6, xmp: MAX_SEGMENT_PAYLOAD - 29, iim: MAX_SEGMENT_PAYLOAD - 26 };
/** Room the blocks' own framing takes (TIFF header and IFDs, the XMP packet's wrapper and namespaces), for the first estimate. */
const FRAMING_ESTIMATE = 2048;

/** What one output carries, each block rebuilt: a TIFF (no Exif\0\0), an XMP packet, IIM datasets. */
export interface MetadataBlocks {
  exif?: Uint8Array;
  xmp?: Uint8Array;
  /** JPEG only: the others get these values in their XMP. */
  iim?: Uint8Array;
  /** Some values were dropped to keep within the cap. */
  truncated: boolean;
  /** Any asked value is written. */
  kept: boolean;
}

type Item = { block: 'exif'; value: TiffEntry } | { block: 'xmp'; value: XmlElement } | { block: 'iim'; value: IimDataset };

/**
 * The blocks an output of `format` carries: what `kept` holds (IIM as XMP where the format has no home for it;
 * JPEG keeps both), and the EXIF orientation when it is not 1 (never-larger's input, whose pixels are not
 * turned; outputs of the engine are upright and pass 1). Within the cap, dropping the longest values first.
 */
export function metadataBlocks(kept: KeptMetadata | null, format: OutputFormat, orientation = 1): MetadataBlocks {
  const exif: ExifIfds = kept?.exif ?? { order: 'MM', ifd0: [], exif: [], gps: [] };
  const items: Item[] = [
    ...[...exif.ifd0, ...exif.exif, ...exif.gps].map((value): Item => ({ block: 'exif', value })),
    ...[...(kept?.xmp ?? []), ...(format === 'jpeg' ? [] : (kept?.iimAsXmp ?? []))].map((value): Item => ({ block: 'xmp', value })),
    ...(format === 'jpeg' ? (kept?.iim ?? []) : []).filter((d) => d.record === 2).map((value): Item => ({ block: 'iim', value })),
  ];
  const bytes = new Map<Item, number>(
    items.map((item) => [item, item.block === 'exif' ? entryBytes(item.value) : item.block === 'xmp' ? propertyBytes(item.value) : datasetBytes(item.value)]),
  );
  const longestFirst = [...items].sort((a, b) => bytes.get(b)! - bytes.get(a)!);
  const dropped = new Set<Item>();
  let estimate = FRAMING_ESTIMATE + items.reduce((n, item) => n + bytes.get(item)!, 0);
  for (const item of longestFirst) {
    if (estimate <= MAX_KEPT_BYTES) break;
    dropped.add(item);
    estimate -= bytes.get(item)!;
  }
  // The estimate is close; what is built is checked, and while it does not fit, more is dropped, at least what it is over by.
  for (let next = dropped.size; ; ) {
    const blocks = build(exif, items.filter((item) => !dropped.has(item)), kept?.iim ?? [], orientation);
    const total = (blocks.exif?.length ?? 0) + (blocks.xmp?.length ?? 0) + (blocks.iim?.length ?? 0);
    const over = Math.max(total - MAX_KEPT_BYTES, ...(['exif', 'xmp', 'iim'] as const).map((block) => (blocks[block]?.length ?? 0) - MAX_BLOCK[block]));
    if (over <= 0 || next >= longestFirst.length) return { ...blocks, truncated: dropped.size > 0, kept: items.length > dropped.size };
    for (let freed = 0; freed < over && next < longestFirst.length; next++) {
      dropped.add(longestFirst[next]!);
      freed += bytes.get(longestFirst[next]!)!;
    }
  }
}

function build(exif: ExifIfds, items: Item[], iim: readonly IimDataset[], orientation: number): Omit<MetadataBlocks, 'truncated' | 'kept'> {
  const of = <B extends Item['block']>(block: B) =>
    items.filter((i): i is Extract<Item, { block: B }> => i.block === block).map((i) => i.value as Extract<Item, { block: B }>['value']);
  const entries = new Set(of('exif'));
  const ifds: ExifIfds = {
    order: exif.order,
    ifd0: [...(orientation === 1 ? [] : [orientationEntry(exif.order, orientation)]), ...exif.ifd0.filter((e) => entries.has(e))],
    exif: exif.exif.filter((e) => entries.has(e)),
    gps: exif.gps.filter((e) => entries.has(e)),
  };
  const properties = of('xmp');
  const datasets = of('iim');
  // The block's character set (1:90) goes with what is left of it.
  const charset = datasets.length ? iim.filter((d) => d.record === 1) : [];
  return {
    exif: ifds.ifd0.length + ifds.exif.length + ifds.gps.length ? buildExif(ifds) : undefined,
    xmp: properties.length ? buildXmp(properties) : undefined,
    iim: datasets.length ? encodeIim([...charset, ...datasets]) : undefined,
  };
}
