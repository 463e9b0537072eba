import { ApiError } from '../../errors/api-error';
import { notDecodedYet } from '../header/heif-header';
import type { InputSettings } from '../input-settings';
import type { HeifPicture, ImageHeader, InputHeader } from '../types';
import { refusePixels } from './check-budget';
import { refuseIncomplete } from './refuse-incomplete';

/** The pixels a picture's decoder makes: every cell whole, the last row and column past the grid's edge too. */
const decodedPixels = (picture: HeifPicture) => picture.tiles.reduce((n, tile) => n + tile.width * tile.height, 0);

/**
 * A HEIC input walked cleanly (its header's errors come first) but no decoder reads it yet: refused
 * as unknown formats are (400 unsupported_image), after HEIC_INPUT=off, the pixel limit and truncation, so
 * that a bomb is named as one from its header. AVIF goes on to the engine.
 */
export function refuseUndecoded(header: InputHeader, settings: InputSettings): asserts header is ImageHeader {
  if (!('heif' in header)) return;
  if (header.format === 'heic' && !settings.heic) {
    throw new ApiError('unsupported_image', 'HEIC input is turned off on this service (HEVC is patent-encumbered in some countries); send a JPEG, PNG, WebP or AVIF image.');
  }
  const { primary } = header.heif;
  const cells = primary.grid ? `, its ${primary.grid.columns}x${primary.grid.rows} cells of ${primary.tiles[0]!.width}x${primary.tiles[0]!.height}` : '';
  refusePixels(`${primary.width}x${primary.height}${cells}`, Math.max(primary.width * primary.height, decodedPixels(primary)));
  // AVIF is decoded by the engine (codecs/src/avif-decode.c), but for colour premultiplied by its alpha.
  if (header.format === 'avif') {
    if (!header.heif.premultiplied) return;
    throw new ApiError('unsupported_image', 'The AVIF image has premultiplied alpha (a prem reference), which is not read; send it with straight alpha.');
  }
  refuseIncomplete(header);
  throw notDecodedYet(header);
}
