import { ApiError } from '../../errors/api-error';
import type { AvifHeader, Extent, HeifPicture } from '../types';

/** colr nclx absent: the engine takes the matrix and range from each cell's sequence header. */
const FROM_SEQUENCE_HEADER = 0xffffffff;
/** Seven fields before the lengths (codecs/src/avif-decode.c). */
const FIELDS = 7;

const extentsBytes = (extents: Extent[]) => extents.reduce((n, e) => n + e.length, 0);

/**
 * The engine's input for an AVIF: the AV1 data of its primary image's cells (and of its alpha plane's) in the
 * framing codecs/src/avif-decode.c describes, which is the one place it is defined. The stored size the engine
 * is given is the picture's (avifStoredSize), its clean aperture cut by the geometry's window.
 */
export function avifInput(file: Uint8Array, header: AvifHeader): Uint8Array {
  const { primary, alpha, colour } = header.heif;
  const cells = primary.tiles;
  const alphaCells = alpha?.tiles ?? [];
  if (alpha && !sameLayout(primary, alpha)) {
    throw new ApiError('unsupported_image', 'The AVIF alpha plane is laid out in other cells than its image; such files are not read.');
  }
  const head = new DataView(new ArrayBuffer(4 * (FIELDS + 2 * cells.length)));
  const nclx = colour.nclx;
  [
    primary.grid?.columns ?? 1,
    primary.grid?.rows ?? 1,
    cells[0]!.width,
    cells[0]!.height,
    alpha ? 1 : 0,
    nclx ? nclx.matrix : FROM_SEQUENCE_HEADER,
    nclx ? (nclx.fullRange ? 1 : 0) : FROM_SEQUENCE_HEADER,
  ].forEach((v, i) => head.setUint32(4 * i, v, true));
  cells.forEach((cell, i) => {
    head.setUint32(4 * (FIELDS + 2 * i), extentsBytes(cell.extents), true);
    head.setUint32(4 * (FIELDS + 2 * i + 1), alphaCells[i] ? extentsBytes(alphaCells[i].extents) : 0, true);
  });
  const parts = cells.flatMap((cell, i) => [...cell.extents, ...(alphaCells[i]?.extents ?? [])]);
  const out = new Uint8Array(head.byteLength + extentsBytes(parts));
  out.set(new Uint8Array(head.buffer));
  let at = head.byteLength;
  for (const { offset, length } of parts) {
    out.set(file.subarray(offset, offset + length), at);
    at += length;
  }
  return out;
}

/** The alpha plane in the image's own cells: the engine decodes each cell's colour and alpha together. */
const sameLayout = (image: HeifPicture, alpha: HeifPicture) =>
  alpha.tiles.length === image.tiles.length &&
  alpha.tiles[0]!.width === image.tiles[0]!.width &&
  alpha.tiles[0]!.height === image.tiles[0]!.height &&
  (alpha.grid?.columns ?? 1) === (image.grid?.columns ?? 1);

/** The size of the picture the engine decodes (a grid's output size): the header's own, less any clean aperture. */
export const avifStoredSize = (header: AvifHeader) => ({ width: header.heif.primary.width, height: header.heif.primary.height });

/** Where the clean aperture starts in the decoded picture: the engine's window is moved by it. */
export const avifApertureOffset = (header: AvifHeader) => ({ left: header.heif.clap?.left ?? 0, top: header.heif.clap?.top ?? 0 });
