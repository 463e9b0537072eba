import { ApiError } from '../../errors/api-error';
import type { InputHeader } from '../types';

/** Truncated data is refused rather than decoded into a half-grey picture. */
export function refuseIncomplete(header: InputHeader): void {
  if (!header.complete) {
    throw new ApiError('unsupported_image', `The ${header.format.toUpperCase()} data is truncated: the file ends before the image does.`);
  }
}
