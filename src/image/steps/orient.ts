import { readOrientation } from '../container';
import { type ImageHeader, isAvif } from '../types';

/**
 * The EXIF orientation the engine will apply to the pixels (its output carries no EXIF) and the size
 * of the image as a viewer shows it, which maxWidth and maxHeight refer to: orientations 5 to 8 turn
 * it a quarter (EXIF 2.3 section 4.6.4 A, tag 0x0112). A truncated input is read as 1: it is refused
 * after the memory check anyway, which must still name a truncated bomb as one. An AVIF's is its irot and
 * imir (header/heif-header.ts), which its EXIF does not override (MIAF 7.3.6.7).
 */
export function orient(input: Uint8Array, header: ImageHeader): { orientation: number; width: number; height: number } {
  // A GIF has no EXIF; an AVIF's orientation is its irot and imir.
  const orientation = isAvif(header) ? header.heif.orientation : header.complete && header.format !== 'avif' && header.format !== 'gif' ? readOrientation(input, header.format) : 1;
  return orientation >= 5
    ? { orientation, width: header.height, height: header.width }
    : { orientation, width: header.width, height: header.height };
}
