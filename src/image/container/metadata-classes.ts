import type { MetadataClass } from '../types';
import { EXIF_IFD_TAG, GPS_IFD_TAG, type ExifIfds, readIfd, readTiff, type TiffEntry } from './exif';
import { type IimDataset, iimText } from './iptc';
import { RDF_NS, XML_NS, type XmlElement, xmpElement } from './xmp';

/**
 * What each `preserve` class keeps, tag by tag (decisions.md, "Metadata the owner keeps"), in EXIF, IPTC-IIM
 * and XMP, and the XMP form of the IIM values for formats that have no home for IIM. Anything not listed
 * here, the orientation tag included, is never kept.
 */

export type Classes = readonly MetadataClass[];

const EXIF_IFD0: Record<number, MetadataClass> = { 0x013b: 'copyright', 0x8298: 'copyright' }; // Artist, Copyright
/** DateTimeOriginal, DateTimeDigitized, OffsetTimeOriginal, OffsetTimeDigitized, SubSecTimeOriginal, SubSecTimeDigitized. */
const EXIF_SUB_IFD: Record<number, MetadataClass> = {
  0x9003: 'creation',
  0x9004: 'creation',
  0x9011: 'creation',
  0x9012: 'creation',
  0x9291: 'creation',
  0x9292: 'creation',
};

/** The kept entries of an EXIF block, by IFD, in its own byte order; null when it is not TIFF. */
export function keptExif(exif: Uint8Array, classes: Classes): ExifIfds | null {
  const tiff = readTiff(exif);
  if (!tiff) return null;
  const ifd0 = readIfd(tiff, tiff.ifd0);
  const sub = (tag: number) => {
    const pointer = ifd0.find((e) => e.tag === tag && (e.type === 4 || e.type === 13) && e.count === 1);
    return pointer ? readIfd(tiff, tiff.u32(pointer.value, 0)) : [];
  };
  const asked = (table: Record<number, MetadataClass>) => (e: TiffEntry) => table[e.tag] !== undefined && classes.includes(table[e.tag]!);
  return {
    order: tiff.order,
    ifd0: ifd0.filter(asked(EXIF_IFD0)).map(asciiValue),
    exif: classes.includes('creation') ? sub(EXIF_IFD_TAG).filter(asked(EXIF_SUB_IFD)).map(asciiValue) : [],
    gps: classes.includes('location') ? sub(GPS_IFD_TAG).map(asciiValue) : [],
  };
}

const ASCII = 2;
const COPYRIGHT_TAG = 0x8298;

/**
 * An ASCII value up to its NUL (EXIF 2.3 4.6.2; Copyright's two strings, photographer and editor, up to the
 * second): a count that runs past it, in a damaged or crafted file, would carry whatever bytes lie beyond, which
 * may be tags no class keeps.
 */
function asciiValue(e: TiffEntry): TiffEntry {
  if (e.type !== ASCII) return e;
  let end = e.value.indexOf(0);
  if (end >= 0 && e.tag === COPYRIGHT_TAG && e.value.indexOf(0, end + 1) >= 0) end = e.value.indexOf(0, end + 1);
  if (end < 0 || end + 1 === e.value.length) return e;
  return { ...e, count: end + 1, value: e.value.subarray(0, end + 1) };
}

/** Record 2 datasets: 80 By-line, 110 Credit, 116 Copyright Notice; 55 Date, 60 Time Created; 90 City, 92 Sub-location, 95 Province/State, 100 Country Code, 101 Country Name. */
const IIM: Record<number, MetadataClass> = {
  80: 'copyright',
  110: 'copyright',
  116: 'copyright',
  55: 'creation',
  60: 'creation',
  90: 'location',
  92: 'location',
  95: 'location',
  100: 'location',
  101: 'location',
};

/** The kept datasets, in stored order, with the block's character set (1:90) when any is kept, so their text reads the same. */
export function keptIim(datasets: readonly IimDataset[], classes: Classes): IimDataset[] {
  // A value holding the tag marker (0x1C, a control character no text has) swallowed the datasets after it: its
  // length is damaged or crafted, and those may be ones no class keeps.
  const kept = datasets.filter((d) => d.record === 2 && IIM[d.dataset] !== undefined && classes.includes(IIM[d.dataset]!) && !d.value.includes(0x1c));
  const charset = datasets.find((d) => d.record === 1 && d.dataset === 90);
  return kept.length && charset ? [charset, ...kept] : kept;
}

const DC = 'http://purl.org/dc/elements/1.1/';
const XMP = 'http://ns.adobe.com/xap/1.0/';
const PHOTOSHOP = 'http://ns.adobe.com/photoshop/1.0/';
const EXIF = 'http://ns.adobe.com/exif/1.0/';
const CORE = 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/';
const EXT = 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/';

/** Namespaces kept whole, and single properties, by class. */
const XMP_NAMESPACES: Record<string, MetadataClass> = {
  'http://ns.adobe.com/xap/1.0/rights/': 'copyright',
  'http://creativecommons.org/ns#': 'copyright',
};
const XMP_PROPERTIES: Record<string, MetadataClass> = {
  [`${DC}rights`]: 'copyright',
  [`${DC}creator`]: 'copyright',
  [`${DC}contributor`]: 'copyright',
  [`${DC}publisher`]: 'copyright',
  [`${PHOTOSHOP}Credit`]: 'copyright',
  'http://ns.useplus.org/ldf/xmp/1.0/Licensor': 'copyright',
  [`${XMP}CreateDate`]: 'creation',
  [`${PHOTOSHOP}DateCreated`]: 'creation',
  [`${EXIF}DateTimeOriginal`]: 'creation',
  [`${PHOTOSHOP}City`]: 'location',
  [`${PHOTOSHOP}State`]: 'location',
  [`${PHOTOSHOP}Country`]: 'location',
  [`${CORE}Location`]: 'location',
  [`${CORE}CountryCode`]: 'location',
  [`${EXT}LocationCreated`]: 'location',
  [`${EXT}LocationShown`]: 'location',
};

function xmpClass(p: XmlElement): MetadataClass | undefined {
  if (p.ns === EXIF && p.name.startsWith('GPS')) return 'location';
  return XMP_NAMESPACES[p.ns] ?? XMP_PROPERTIES[p.ns + p.name];
}

/** The kept properties, each once (the first of a name wins, as XMP allows only one). */
export function keptXmp(properties: readonly XmlElement[], classes: Classes): XmlElement[] {
  const seen = new Set<string>();
  return properties.filter((p) => {
    const kind = xmpClass(p);
    if (!kind || !classes.includes(kind) || seen.has(p.ns + p.name)) return false;
    seen.add(p.ns + p.name);
    return true;
  });
}

const li = (text: string, attributes = [] as XmlElement['attributes']) => xmpElement(RDF_NS, 'li', [text], attributes);
const array = (kind: 'Seq' | 'Bag' | 'Alt', items: XmlElement[]) => [xmpElement(RDF_NS, kind, items)];

/** IIM 2:55 (CCYYMMDD) and 2:60 (HHMMSS±HHMM) as an XMP date (ISO 8601), as the IPTC Photo Metadata standard maps them. */
function xmpDate(date: string, time: string | undefined): string | undefined {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  if (!d) return undefined;
  const t = time === undefined ? null : /^(\d{2})(\d{2})(\d{2})([+-]\d{2})(\d{2})$/.exec(time);
  return `${d[1]}-${d[2]}-${d[3]}` + (t ? `T${t[1]}:${t[2]}:${t[3]}${t[4]}:${t[5]}` : '');
}

/**
 * The IIM values as XMP properties (IPTC Photo Metadata Standard, IIM mapping), for outputs without a home for
 * IIM; those the kept XMP already holds are left out (the XMP is the newer, MWG's rule).
 */
export function iimAsXmp(datasets: readonly IimDataset[], xmp: readonly XmlElement[]): XmlElement[] {
  const values = (dataset: number) => datasets.filter((d) => d.record === 2 && d.dataset === dataset).map((d) => iimText(d.value, datasets));
  const first = (dataset: number) => values(dataset)[0];
  const out: XmlElement[] = [];
  const add = (ns: string, name: string, children: XmlElement['children'] | undefined) => {
    if (children && !xmp.some((p) => p.ns === ns && p.name === name)) out.push(xmpElement(ns, name, children));
  };
  const text = (value: string | undefined) => (value === undefined ? undefined : [value]);
  const creators = values(80);
  add(DC, 'creator', creators.length ? array('Seq', creators.map((c) => li(c))) : undefined);
  add(PHOTOSHOP, 'Credit', text(first(110)));
  const rights = first(116);
  add(DC, 'rights', rights === undefined ? undefined : array('Alt', [li(rights, [{ ns: XML_NS, name: 'lang', value: 'x-default' }])]));
  const date = first(55);
  add(PHOTOSHOP, 'DateCreated', text(date === undefined ? undefined : xmpDate(date, first(60))));
  add(PHOTOSHOP, 'City', text(first(90)));
  add(CORE, 'Location', text(first(92)));
  add(PHOTOSHOP, 'State', text(first(95)));
  add(CORE, 'CountryCode', text(first(100)));
  add(PHOTOSHOP, 'Country', text(first(101)));
  return out;
}
