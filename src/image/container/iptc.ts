import { APP13, type JpegSegment } from './jpeg-segments';
import { ascii, asciiBytes, concat, startsWith, u16be, u32be } from './bytes';

/**
 * IPTC-IIM (IPTC Information Interchange Model 4.2) as JPEG carries it: an APP13 segment holding a
 * Photoshop Image Resource Block ('Photoshop 3.0\0', then resources '8BIM', id, padded Pascal name, size,
 * data padded to even), whose resource 0x0404 holds the IIM datasets: 0x1C, record, dataset, a 2-byte
 * length (or, high bit set, the count of the length bytes that follow), the value.
 */

export const PHOTOSHOP_ID = asciiBytes('Photoshop 3.0\0');
const IPTC_RESOURCE = 0x0404;
const TAG_MARKER = 0x1c;

export interface IimDataset {
  record: number;
  dataset: number;
  value: Uint8Array;
}

export const isPhotoshopSegment = (s: JpegSegment) => s.marker === APP13 && startsWith(s.data, PHOTOSHOP_ID);

/** The IRB of every Photoshop APP13 segment, in order: writers split a long block across segments. */
export function jpegIrb(segments: readonly JpegSegment[]): Uint8Array | undefined {
  const parts = segments.filter(isPhotoshopSegment).map((s) => s.data.subarray(PHOTOSHOP_ID.length));
  return parts.length ? concat(parts) : undefined;
}

/** The data of the IRB's IPTC resource (0x0404), the first one; undefined when there is none or the block is malformed before it. */
export function irbIptc(irb: Uint8Array): Uint8Array | undefined {
  for (let at = 0; at + 12 <= irb.length; ) {
    if (ascii(irb, at, 4) !== '8BIM') return undefined;
    const id = u16be(irb, at + 4);
    const nameBytes = 1 + irb[at + 6]!;
    const sizeAt = at + 6 + nameBytes + (nameBytes & 1);
    if (sizeAt + 4 > irb.length) return undefined;
    const size = u32be(irb, sizeAt);
    const data = sizeAt + 4;
    if (data + size > irb.length) return undefined;
    if (id === IPTC_RESOURCE) return irb.subarray(data, data + size);
    at = data + size + (size & 1);
  }
  return undefined;
}

/** The datasets, in stored order, up to the first malformed one (as exiftool reads them). */
export function readIim(iim: Uint8Array): IimDataset[] {
  const datasets: IimDataset[] = [];
  for (let at = 0; at + 5 <= iim.length && iim[at] === TAG_MARKER; ) {
    let length = u16be(iim, at + 3);
    let start = at + 5;
    if (length & 0x8000) {
      // The extended form: the next (length & 0x7fff) bytes hold the length; no text field needs more than 4.
      const n = length & 0x7fff;
      if (n > 4 || start + n > iim.length) break;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + iim[start + i]!;
      start += n;
    }
    if (start + length > iim.length) break;
    datasets.push({ record: iim[at + 1]!, dataset: iim[at + 2]!, value: iim.subarray(start, start + length) });
    at = start + length;
  }
  return datasets;
}

/** Bytes a dataset takes when written (values kept here are short: the standard form). */
export const datasetBytes = (d: IimDataset) => 5 + d.value.length;

export function encodeIim(datasets: readonly IimDataset[]): Uint8Array {
  return concat(
    datasets.map((d) => concat([Uint8Array.of(TAG_MARKER, d.record, d.dataset, d.value.length >> 8, d.value.length & 0xff), d.value])),
  );
}

/** The APP13 segment holding only an IPTC resource with these encoded datasets (no digest, no other resource). */
export function iptcSegment(iim: Uint8Array): JpegSegment {
  const size = Uint8Array.of(iim.length >>> 24, (iim.length >> 16) & 0xff, (iim.length >> 8) & 0xff, iim.length & 0xff);
  const head = concat([asciiBytes('8BIM'), Uint8Array.of(IPTC_RESOURCE >> 8, IPTC_RESOURCE & 0xff, 0, 0), size]);
  return { marker: APP13, data: concat([PHOTOSHOP_ID, head, iim, new Uint8Array(iim.length & 1)]) };
}

/** IIM 1:90's value for UTF-8 (ESC % G); without it, IIM text is read as Latin-1 by exiftool and others. */
const UTF8_MARK = Uint8Array.of(0x1b, 0x25, 0x47);

/** The text of a dataset's value, in the character set the block's 1:90 names (UTF-8 or, by default, Latin-1). */
export function iimText(value: Uint8Array, datasets: readonly IimDataset[]): string {
  const charset = datasets.find((d) => d.record === 1 && d.dataset === 90)?.value;
  const utf8 = charset !== undefined && charset.length === UTF8_MARK.length && startsWith(charset, UTF8_MARK);
  return utf8 ? new TextDecoder().decode(value) : ascii(value, 0, value.length);
}
