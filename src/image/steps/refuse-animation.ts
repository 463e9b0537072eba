import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';

/** Animated images are refused rather than silently flattened to their first frame. */
export function refuseAnimation(header: ImageHeader): void {
  if (header.animated) {
    throw new ApiError('unsupported_image', `Animated ${header.format.toUpperCase()} images are not supported; send a still image.`);
  }
}
