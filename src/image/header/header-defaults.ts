import type { ImageFormat, ImageHeader } from '../types';

/** A header with every format-specific field at its neutral value; each parser fills in its own. */
export function baseHeader(format: ImageFormat, width: number, height: number): ImageHeader {
  return {
    format,
    width,
    height,
    hasAlpha: false,
    grey: false,
    animated: false,
    progressive: false,
    arithmetic: false,
    components: 0,
    maxSampling: { h: 1, v: 1 },
    bitDepth: 8,
    colorType: 0,
    interlaced: false,
    lossless: false,
    complete: true,
  };
}
